// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "syncfixture.h"

#include "testhelpers.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QFile>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

using KeepTrying::Demo::DemoServer;

bool SyncFixture::start()
{
    if (!m_dir.isValid())
        return false;
    QFile::remove(m_dir.filePath(QStringLiteral("outbox.sqlite")));
    m_server = std::make_unique<KeepTrying::Test::DemoServerThread>();
    if (m_server->listen() == 0)
        return false;
    m_store = std::make_unique<LocalStore>();
    if (!m_store->open(QStringLiteral(":memory:")))
        return false;
    m_manager = std::make_unique<KeepTrying::RetryingNetworkAccessManager>();
    m_manager->setRetryPolicy(KeepTrying::Test::fastPolicy());
    KeepTrying::Test::switchOffBreakerAndBudget(*m_manager);
    m_client = std::make_unique<WallabagClient>(m_manager.get());
    m_client->setServer((*m_server)->baseUrl(),
                        { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                          DemoServer::demoUsername(), DemoServer::demoPassword() });
    m_queue = std::make_unique<OutboxChangeQueue>(m_client.get(), m_manager.get(),
                                                  m_dir.filePath(QStringLiteral("outbox.sqlite")));
    makeEngine();
    return true;
}

void SyncFixture::makeEngine()
{
    m_engine.reset();
    m_engine = std::make_unique<SyncEngine>(m_client.get(), m_store.get(), m_queue.get());
    m_engine->setPageSize(10);
    m_engine->setPrefetchContent(false);
}

void SyncFixture::stop()
{
    m_engine.reset();
    m_queue.reset();
    m_client.reset();
    m_manager.reset();
    m_store.reset();
    m_server.reset();
}

bool SyncFixture::refresh(int timeoutMs)
{
    QSignalSpy done(m_engine.get(), &SyncEngine::refreshed);
    QSignalSpy failed(m_engine.get(), &SyncEngine::refreshFailed);
    m_engine->refresh();
    const bool ended =
        QTest::qWaitFor([&] { return !done.isEmpty() || !failed.isEmpty(); }, timeoutMs);
    if (!failed.isEmpty())
        qWarning() << "refresh failed:" << failed.constFirst().constFirst().toString();
    return ended && !done.isEmpty();
}
