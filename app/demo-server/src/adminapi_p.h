// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_ADMINAPI_P_H
#define KEEPTRYING_DEMO_ADMINAPI_P_H

#include "httpmessage_p.h"

#include <QtCore/QMutex>
#include <QtNetwork/QHostAddress>

QT_BEGIN_NAMESPACE
class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponder;
QT_END_NAMESPACE

namespace KeepTrying::Demo {

class DemoServer;
class Transport;

/*!
    The admin API (faults, down, up, stats) on a listener of its own on loopback, so that it
    keeps answering while the Transport's listener is down. It answers loopback clients
    only, and its requests are never counted, recorded or faulted.

    Its listener is a child of the DemoServer and runs in its thread; address and port are
    guarded by the server's one mutex.
*/
class AdminApi
{
public:
    AdminApi(DemoServer *q, QMutex &mutex, Transport &transport);

    /*! Where the admin API listens for an API on \a apiAddress: that address when it is a
        loopback address, else 127.0.0.1. */
    static QHostAddress addressFor(const QHostAddress &apiAddress);

    /*! Listens; returns the bound port or 0. */
    quint16 listen(const QHostAddress &address, quint16 port);
    /*! Closes the listener and its connections while the handlers they call still exist. */
    void deleteListener();

    QHostAddress address;
    quint16 port = 0;

private:
    void onRequest(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    /*! The answer to \a request; sets \a downMs for an outage to start once it is written. */
    HttpResponse handle(const HttpRequest &request, int *downMs);

    DemoServer *q;
    QMutex &mutex;
    Transport &transport;
    QHttpServer *http = nullptr; //!< on a port of its own: it stays up
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_ADMINAPI_P_H
