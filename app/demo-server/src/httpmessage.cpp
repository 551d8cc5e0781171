// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "httpmessage_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMetaEnum>
#include <QtCore/QUrl>
#include <QtHttpServer/QHttpServerRequest>
#include <QtHttpServer/QHttpServerResponder>

namespace KeepTrying::Demo {

HttpRequest HttpRequest::copyOf(const QHttpServerRequest &request)
{
    HttpRequest copy;
    copy.method =
        QMetaEnum::fromType<QHttpServerRequest::Method>().valueToKey(int(request.method()));
    copy.method = copy.method.toUpper();
    copy.path = request.url().path();
    copy.query = request.query();
    copy.rawQuery = request.url().query(QUrl::FullyEncoded);
    copy.headers = request.headers();
    copy.body = request.body();
    copy.remoteAddress = request.remoteAddress();
    return copy;
}

QByteArray HttpRequest::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return QByteArray();
}

HttpResponse HttpResponse::json(const QJsonValue &value, int status)
{
    HttpResponse response;
    response.status = status;
    response.contentType = "application/json";
    response.body = value.isArray()
        ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
        : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    return response;
}

HttpResponse HttpResponse::oauthError(int status, const QString &error, const QString &description)
{
    return json(QJsonObject { { QStringLiteral("error"), error },
                              { QStringLiteral("error_description"), description } },
                status);
}

HttpResponse HttpResponse::restError(int status, const QString &message)
{
    return json(QJsonObject { { QStringLiteral("error"),
                                QJsonObject { { QStringLiteral("code"), status },
                                              { QStringLiteral("message"), message } } } },
                status);
}

void HttpResponse::writeTo(QHttpServerResponder &responder, bool head, qsizetype bodyBytes) const
{
    responder.writeStatusLine(QHttpServerResponder::StatusCode(status));
    if (!contentType.isEmpty())
        responder.writeHeader(QByteArrayLiteral("Content-Type"), contentType);
    for (const auto &[name, value] : headers)
        responder.writeHeader(name, value);
    responder.writeHeader(QByteArrayLiteral("Content-Length"), QByteArray::number(body.size()));
    if (head)
        responder.writeBody(QByteArray());
    else
        responder.writeBody(bodyBytes < 0 ? body : body.left(bodyBytes));
}

QString baseUrlFor(const QHostAddress &address, quint16 port)
{
    if (port == 0)
        return QString();
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    if (address == QHostAddress::LocalHostIPv6)
        url.setHost(address.toString());
    else if (address.isNull() || address == QHostAddress::Any || address == QHostAddress::AnyIPv4 ||
             address == QHostAddress::AnyIPv6 || address.isLoopback())
        url.setHost(QStringLiteral("127.0.0.1"));
    else
        url.setHost(address.toString());
    url.setPort(port);
    return url.toString();
}

} // namespace KeepTrying::Demo
