// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMOSERVERTHREAD_H
#define KEEPTRYING_DEMOSERVERTHREAD_H

#include <QtCore/QStringList>
#include <QtCore/QThread>
#include <QtNetwork/QHostAddress>

namespace KeepTrying::Demo {
class DemoServer;
}

namespace KeepTrying::Test {

/*!
    A DemoServer that lives on a QThread of its own, so that it does not share the client's
    event loop: a test or benchmark that blocks or floods its own loop does not slow the
    server down, as with a real server.

    The constructor starts the thread and creates the server in it (stopped); listen() makes
    it listen, from that thread. The members DemoServer documents as callable from any
    thread (faults, goDown(), stats(), baseUrl()...) may be called on server() directly.
    The destructor deletes the server in its thread and stops the thread.
*/
class DemoServerThread
{
public:
    DemoServerThread();
    ~DemoServerThread();
    DemoServerThread(const DemoServerThread &) = delete;
    DemoServerThread &operator=(const DemoServerThread &) = delete;

    /*! DemoServer::listen() run in the server's thread; waits for it. */
    quint16 listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0,
                   quint16 adminPort = 0);

    Demo::DemoServer *server() const { return m_server; }
    Demo::DemoServer *operator->() const { return m_server; }
    QThread *thread() { return &m_thread; }

    /*! The Idempotency-Keys of the writes the server applied to entry \a entry, in the
        order it applied them (its stats' \c entry_writes). */
    QStringList appliedKeys(int entry) const;

private:
    QThread m_thread;
    QObject *m_context = nullptr; // lives in m_thread: runs the calls made there
    Demo::DemoServer *m_server = nullptr;
};

} // namespace KeepTrying::Test

#endif // KEEPTRYING_DEMOSERVERTHREAD_H
