// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "transport_p.h"

#include "logging_p.h"
#include "wallabagapi_p.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QTimer>
#include <QtHttpServer/QHttpServer>
#include <QtHttpServer/QHttpServerRequest>
#include <QtHttpServer/QHttpServerResponder>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <algorithm>

namespace KeepTrying::Demo {

namespace {

constexpr qsizetype maxRecordedRequests = 1000;

} // namespace

Transport::Transport(DemoServer *q, QMutex &mutex, WallabagApi &api)
    : random(QRandomGenerator::global()->generate()), q(q), mutex(mutex), api(api)
{
    http = new QHttpServer(q);
    http->setMissingHandler(
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            onRequest(request, std::move(responder));
        });
    upTimer = new QTimer(q);
    upTimer->setSingleShot(true);
    upTimer->setTimerType(Qt::PreciseTimer); // "down for 8 s" means 8 s, not 7.6
    QObject::connect(upTimer, &QTimer::timeout, q, [this] { comeUp(); });
}

void Transport::deleteListener()
{
    delete http;
    http = nullptr;
}

quint16 Transport::listen(const QHostAddress &address, quint16 port)
{
    return http->listen(address, port);
}

void Transport::comeUpNow()
{
    upTimer->stop();
    if (down)
        comeUp();
}

void Transport::resetStatsLocked()
{
    totalRequests = 0;
    faultsInjected = 0;
    capacityRejections = 0;
    peakInProgress = inProgress;
    requestsPerRoute.clear();
    recorded.clear();
}

void Transport::onRequest(const QHttpServerRequest &request, QHttpServerResponder &&responder)
{
    const HttpRequest copy = HttpRequest::copyOf(request);
    QTcpSocket *socket = responder.socket();

    if (down) {
        // A request on a connection opened before the server went down.
        socket->abort();
        return;
    }

    std::optional<FaultSpec> fault;
    int shedAbove = 0; // the capacity the request was shed at, 0 when it is served
    int delayMs = 0;
    int fetchMs = 0;
    {
        QMutexLocker locker(&mutex);
        ++totalRequests;
        ++requestsPerRoute[WallabagApi::routeKey(copy.method, copy.path)];
        recorded.push_back(
            RecordedRequest { copy.method, copy.path, copy.rawQuery, copy.headers, copy.body });
        if (qsizetype(recorded.size()) > maxRecordedRequests)
            recorded.pop_front();
        if (maxConcurrent > 0 && inProgress >= maxConcurrent) {
            shedAbove = maxConcurrent;
            ++capacityRejections;
        } else {
            ++inProgress;
            peakInProgress = std::max(peakInProgress, inProgress);
            fault = takeFault(copy);
            delayMs = serviceTimeMs + (fault ? fault->latencyMs : 0);
            // An add of a new URL: looked up now, created after the page fetch.
            if (!fault && api.addFetchDelayMs > 0 && api.needsFetch(copy)) {
                fetchMs = api.addFetchDelayMs;
                delayMs += fetchMs;
            }
        }
    }
    if (shedAbove > 0)
        qCDebug(lcDemoServer).noquote() << copy.method << copy.path << "shed for capacity";
    else if (fault)
        qCDebug(lcDemoServer).noquote() << copy.method << copy.path << "with fault" << fault->text;
    else
        qCDebug(lcDemoServer).noquote() << copy.method << copy.path;
    Q_EMIT q->requestReceived(copy.method, copy.path);

    if (shedAbove > 0) {
        // Load shedding: cheap and at once, as a busy server's front end would.
        HttpResponse::restError(
            503, QStringLiteral("Over capacity: at most %1 requests at a time").arg(shedAbove))
            .writeTo(responder, copy.method == "HEAD");
        return;
    }
    if (delayMs > 0) {
        // Answer later from a timer so that other connections keep being served meanwhile.
        // The responder is move-only and the timer's functor must be copyable.
        auto shared = std::make_shared<QHttpServerResponder>(std::move(responder));
        const QPointer<QTcpSocket> guard(socket);
        QTimer::singleShot(delayMs, q, [this, copy, fault, shared, guard, fetchMs] {
            std::optional<HttpResponse> created;
            if (fetchMs > 0) {
                // As PHP, the add runs to its end even when the client has gone.
                QMutexLocker locker(&mutex);
                created = api.createFetched(copy);
            }
            if (guard && guard->state() == QAbstractSocket::ConnectedState) {
                if (created)
                    created->writeTo(*shared, false);
                else
                    respond(copy, fault, *shared, guard);
            }
            requestDone(); // a connection gone meanwhile frees its slot all the same
        });
        return;
    }
    respond(copy, fault, responder, socket);
    requestDone();
}

void Transport::requestDone()
{
    QMutexLocker locker(&mutex);
    --inProgress;
}

std::optional<FaultSpec> Transport::takeFault(const HttpRequest &request)
{
    for (FaultSpec &fault : faults) {
        if (!fault.matches(request.method, request.path))
            continue;
        // Draw only for requests the fault could apply to, so a seeded run repeats exactly.
        if (fault.rate >= 0 && !(random.generateDouble() < fault.rate))
            continue;
        if (fault.remaining > 0)
            --fault.remaining;
        ++faultsInjected;
        return fault;
    }
    return std::nullopt;
}

void Transport::respond(const HttpRequest &request, const std::optional<FaultSpec> &fault,
                        QHttpServerResponder &responder, QTcpSocket *socket)
{
    const bool head = request.method == "HEAD";
    if (fault && fault->drop == FaultSpec::Drop::BeforeHeaders) {
        socket->abort();
        return;
    }
    if (fault && fault->status != 0) {
        HttpResponse response = HttpResponse::restError(
            fault->status, QStringLiteral("Injected fault: ") + fault->text);
        if (!fault->retryAfter.isEmpty())
            response.headers.append({ QByteArrayLiteral("Retry-After"), fault->retryAfter });
        response.writeTo(responder, head);
        return;
    }

    HttpResponse response;
    {
        QMutexLocker locker(&mutex);
        response = api.process(request);
    }
    if (fault && fault->drop == FaultSpec::Drop::MidBody) {
        // The request was applied; only its answer is lost, half-way through the body.
        response.writeTo(responder, head, response.body.size() / 2);
        socket->flush();
        socket->disconnectFromHost();
        return;
    }
    response.writeTo(responder, head);
}

void Transport::goDown(int milliseconds)
{
    if (!down) {
        const QList<QTcpServer *> servers = http->servers();
        for (QTcpServer *server : servers) {
            if (!server->isListening())
                continue;
            closedEndpoints.append({ server, server->serverAddress(), server->serverPort() });
            server->close();
            // A real outage ends the open connections as well (after what they are sending);
            // otherwise a client would carry on over a kept-alive connection.
            const QList<QTcpSocket *> sockets = server->findChildren<QTcpSocket *>();
            for (QTcpSocket *socket : sockets)
                socket->disconnectFromHost();
        }
        if (closedEndpoints.isEmpty()) {
            qCWarning(lcDemoServer, "goDown(): not listening");
            return;
        }
        qCDebug(lcDemoServer, "down for %d ms", milliseconds);
        down = true;
        Q_EMIT q->downChanged(true);
    }
    upTimer->start(std::max(0, milliseconds));
}

void Transport::comeUp()
{
    for (auto it = closedEndpoints.begin(); it != closedEndpoints.end();) {
        if (!it->server || it->server->listen(it->address, it->port)) {
            it = closedEndpoints.erase(it);
            continue;
        }
        qCWarning(lcDemoServer, "cannot listen again on %s:%u: %s (retrying)",
                  qPrintable(it->address.toString()), unsigned(it->port),
                  qPrintable(it->server->errorString()));
        ++it;
    }
    if (!closedEndpoints.isEmpty()) {
        upTimer->start(100);
        return;
    }
    qCDebug(lcDemoServer, "up again");
    down = false;
    Q_EMIT q->downChanged(false);
}

} // namespace KeepTrying::Demo
