// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "adminapi_p.h"

#include "transport_p.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtHttpServer/QHttpServer>
#include <QtHttpServer/QHttpServerRequest>
#include <QtHttpServer/QHttpServerResponder>

#include <cmath>

namespace KeepTrying::Demo {

AdminApi::AdminApi(DemoServer *q, QMutex &mutex, Transport &transport)
    : q(q), mutex(mutex), transport(transport)
{
    http = new QHttpServer(q);
    http->setMissingHandler(
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            onRequest(request, std::move(responder));
        });
}

QHostAddress AdminApi::addressFor(const QHostAddress &apiAddress)
{
    return apiAddress.isLoopback() ? apiAddress : QHostAddress(QHostAddress::LocalHost);
}

quint16 AdminApi::listen(const QHostAddress &address, quint16 port)
{
    return http->listen(address, port);
}

void AdminApi::deleteListener()
{
    delete http;
    http = nullptr;
}

void AdminApi::onRequest(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const HttpRequest copy = HttpRequest::copyOf(request);
    int downMs = -1;
    handle(copy, &downMs).writeTo(responder, copy.method == "HEAD");
    // Only the API's listener goes down; this one keeps answering.
    if (downMs >= 0)
        transport.goDown(downMs);
}

HttpResponse AdminApi::handle(const HttpRequest &request, int *downMs)
{
    if (!request.remoteAddress.isLoopback())
        return HttpResponse::restError(
            403, QStringLiteral("The admin endpoints answer loopback clients only"));
    const QByteArray &method = request.method;
    const auto faultList = [this] {
        return HttpResponse::json(
            QJsonObject { { QStringLiteral("faults"), QJsonArray::fromStringList(q->faults()) } });
    };

    if (request.path == QLatin1String("/_admin/faults")) {
        if (method == "GET" || method == "HEAD")
            return faultList();
        if (method == "DELETE") {
            q->clearFaults();
            return faultList();
        }
        if (method != "POST")
            return HttpResponse::restError(405, QStringLiteral("Method Not Allowed"));

        // {"faults": ["spec", ...], "replace": bool} or just ["spec", ...]
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
        const QJsonArray specs = document.isArray()
            ? document.array()
            : document.object().value(QLatin1String("faults")).toArray();
        const bool replace = document.object().value(QLatin1String("replace")).toBool(false);
        if (parseError.error != QJsonParseError::NoError ||
            (document.isObject() && !document.object().value(QLatin1String("faults")).isArray()))
            return HttpResponse::restError(
                400,
                QStringLiteral("expected {\"faults\": [\"spec\", ...], \"replace\": "
                               "true|false} or [\"spec\", ...]"));
        QList<FaultSpec> parsed;
        for (const QJsonValue &spec : specs) {
            QString errorMessage = QStringLiteral("fault specs must be strings");
            std::optional<FaultSpec> fault =
                spec.isString() ? FaultSpec::parse(spec.toString(), &errorMessage) : std::nullopt;
            if (!fault)
                return HttpResponse::restError(400, errorMessage);
            parsed.append(*fault);
        }
        {
            QMutexLocker locker(&mutex);
            if (replace)
                transport.faults.clear();
            transport.faults.append(parsed);
        }
        return faultList();
    }
    if (request.path == QLatin1String("/_admin/down")) {
        if (method != "POST")
            return HttpResponse::restError(405, QStringLiteral("Method Not Allowed"));
        bool ok = false;
        const double seconds =
            request.query.queryItemValue(QStringLiteral("seconds")).toDouble(&ok);
        if (!ok || !std::isfinite(seconds) || seconds < 0 || seconds > 3600)
            return HttpResponse::restError(
                400, QStringLiteral("seconds must be a number from 0 to 3600"));
        *downMs = int(std::lround(seconds * 1000));
        return HttpResponse::json(QJsonObject { { QStringLiteral("down_ms"), *downMs } });
    }
    if (request.path == QLatin1String("/_admin/up")) {
        if (method != "POST")
            return HttpResponse::restError(405, QStringLiteral("Method Not Allowed"));
        // May stay down when the port was taken meanwhile; it then retries.
        transport.comeUpNow();
        return HttpResponse::json(QJsonObject { { QStringLiteral("down"), transport.isDown() } });
    }
    if (request.path == QLatin1String("/_admin/stats")) {
        if (method != "GET" && method != "HEAD")
            return HttpResponse::restError(405, QStringLiteral("Method Not Allowed"));
        return HttpResponse::json(q->stats());
    }
    if (request.path == QLatin1String("/_admin/stats/reset")) {
        if (method != "POST")
            return HttpResponse::restError(405, QStringLiteral("Method Not Allowed"));
        q->resetStats();
        return HttpResponse::json(q->stats());
    }
    return HttpResponse::restError(404, QStringLiteral("Not Found"));
}

} // namespace KeepTrying::Demo
