// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "library/builtinserver.h"

#include <KeepTrying/Demo/demoserver.h>

BuiltInServer::BuiltInServer(QObject *parent) : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("demo-server"));
}

BuiltInServer::~BuiltInServer()
{
    stop();
}

bool BuiltInServer::start(quint16 preferredPort, QString *errorMessage)
{
    if (m_server)
        return true;
    m_thread.start();
    m_context = new QObject;
    m_context->moveToThread(&m_thread);

    // The server and its sockets must be made in the thread that will run them.
    quint16 port = 0;
    QMetaObject::invokeMethod(
        m_context,
        [this, &port, preferredPort] {
            m_server = new KeepTrying::Demo::DemoServer;
            port = m_server->listen(QHostAddress::LocalHost, preferredPort);
            if (port == 0 && preferredPort != 0) {
                // Taken (another reader, or anything else): a fresh server, any port.
                delete m_server;
                m_server = new KeepTrying::Demo::DemoServer;
                port = m_server->listen(QHostAddress::LocalHost, 0);
            }
        },
        Qt::BlockingQueuedConnection);
    if (port == 0) {
        if (errorMessage)
            *errorMessage = tr("The built-in demo server could not listen on 127.0.0.1.");
        stop();
        return false;
    }
    m_baseUrl = m_server->baseUrl();
    m_adminUrl = m_server->adminUrl();
    return true;
}

void BuiltInServer::stop()
{
    if (!m_thread.isRunning())
        return;
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
    m_context = nullptr;
    m_baseUrl.clear();
    m_adminUrl.clear();
}

bool BuiltInServer::addFault(const QString &spec, QString *errorMessage)
{
    if (!m_server) {
        if (errorMessage)
            *errorMessage = tr("The built-in demo server is not running.");
        return false;
    }
    return m_server->addFault(spec, errorMessage);
}

void BuiltInServer::clearFaults()
{
    if (m_server)
        m_server->clearFaults();
}

QStringList BuiltInServer::faults() const
{
    return m_server ? m_server->faults() : QStringList();
}

void BuiltInServer::goDown(int ms)
{
    if (m_server)
        m_server->goDown(ms);
}

bool BuiltInServer::isDown() const
{
    return m_server && m_server->isDown();
}

bool BuiltInServer::isValidFault(const QString &spec, QString *errorMessage)
{
    // A server that never listens, only to run the real parser on the spec.
    KeepTrying::Demo::DemoServer scratch;
    return scratch.addFault(spec, errorMessage);
}
