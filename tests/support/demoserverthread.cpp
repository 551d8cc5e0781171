// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

namespace KeepTrying::Test {

DemoServerThread::DemoServerThread()
{
    m_thread.setObjectName(QStringLiteral("demo-server"));
    m_thread.start();
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    // The server and its sockets must be made in the thread that will run them.
    QMetaObject::invokeMethod(
        m_context, [this] { m_server = new Demo::DemoServer; }, Qt::BlockingQueuedConnection);
}

DemoServerThread::~DemoServerThread()
{
    QMetaObject::invokeMethod(
        m_context,
        [this] {
            delete m_server;
            m_server = nullptr;
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    // The thread has ended, so nothing else can touch the context any more.
    delete m_context;
}

quint16 DemoServerThread::listen(const QHostAddress &address, quint16 port, quint16 adminPort)
{
    quint16 bound = 0;
    QMetaObject::invokeMethod(
        m_context, [&] { bound = m_server->listen(address, port, adminPort); },
        Qt::BlockingQueuedConnection);
    return bound;
}

QStringList DemoServerThread::appliedKeys(int entry) const
{
    QStringList keys;
    const QJsonArray writes = m_server->stats()
                                  .value(QLatin1String("entry_writes"))
                                  .toObject()
                                  .value(QString::number(entry))
                                  .toArray();
    for (const QJsonValue &write : writes)
        keys.append(write.toObject().value(QLatin1String("idempotency_key")).toString());
    return keys;
}

} // namespace KeepTrying::Test
