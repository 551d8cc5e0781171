// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_TRANSPORT_P_H
#define KEEPTRYING_DEMO_TRANSPORT_P_H

#include "faultspec_p.h"
#include "httpmessage_p.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QMap>
#include <QtCore/QMutex>
#include <QtCore/QPointer>
#include <QtCore/QRandomGenerator>

#include <atomic>
#include <deque>
#include <optional>

QT_BEGIN_NAMESPACE
class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponder;
class QTcpServer;
class QTcpSocket;
class QTimer;
QT_END_NAMESPACE

namespace KeepTrying::Demo {

class WallabagApi;

/*!
    The demo server's side of the wire: the API's listener, what arrives on it (counted and
    recorded), the capacity limit and service time, the faults injected into requests and
    answers, and the outages that close the listener (goDown(), comeUp()). What a request
    that gets through means is the WallabagApi's business.

    Its QObjects (the listener, the timer that ends an outage) are children of the
    DemoServer, so they live in its thread. listen(), goDown(), comeUp() and comeUpNow() run
    in that thread. The data members below are guarded by the server's one mutex, but for
    those marked otherwise.
*/
class Transport
{
public:
    Transport(DemoServer *q, QMutex &mutex, WallabagApi &api);

    /*! Listens for the API; returns the bound port or 0. */
    quint16 listen(const QHostAddress &address, quint16 port);
    /*! Closes the listener and its connections while the handlers they call still exist. */
    void deleteListener();

    /*! See DemoServer::goDown(). */
    void goDown(int milliseconds);
    /*! Listens again on the endpoints goDown() closed; retries every 100 ms while one of
        them cannot be had. */
    void comeUp();
    /*! Ends an outage now (DemoServer::comeUp()): stops the timer, comes up when down. */
    void comeUpNow();
    bool isDown() const { return down; }

    /*! Sets the counters to zero and forgets the recorded requests; mutex held. */
    void resetStatsLocked();

    QHostAddress address;
    quint16 port = 0;
    QList<FaultSpec> faults;
    QRandomGenerator random;
    qint64 totalRequests = 0;
    qint64 faultsInjected = 0;
    int maxConcurrent = 0; // 0: no limit
    int serviceTimeMs = 0;
    int inProgress = 0;
    int peakInProgress = 0;
    qint64 capacityRejections = 0;
    QMap<QString, qint64> requestsPerRoute;
    std::deque<RecordedRequest> recorded;

private:
    void onRequest(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void respond(const HttpRequest &request, const std::optional<FaultSpec> &fault,
                 QHttpServerResponder &responder, QTcpSocket *socket);
    std::optional<FaultSpec> takeFault(const HttpRequest &request); // mutex held
    void requestDone(); // a request that counted against the capacity was answered

    DemoServer *q;
    QMutex &mutex;
    WallabagApi &api;
    QHttpServer *http = nullptr; //!< the wallabag API: the listener an outage closes
    QTimer *upTimer = nullptr;
    std::atomic<bool> down { false }; //!< read from any thread
    struct Endpoint
    {
        QPointer<QTcpServer> server;
        QHostAddress address;
        quint16 port = 0;
    };
    QList<Endpoint> closedEndpoints; //!< server thread only
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_TRANSPORT_P_H
