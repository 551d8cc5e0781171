// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_TESTS_SYNCFIXTURE_H
#define KEEPTRYING_TESTS_SYNCFIXTURE_H

#include "demoserverthread.h"

#include "library/localstore.h"
#include "library/outboxchangequeue.h"
#include "library/syncengine.h"
#include "library/wallabagclient.h"

#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QTemporaryDir>

#include <memory>

/*
    The sync engine's floor as the tests of its reading and writing sides set it up: a demo
    server on loopback, a manager with a test's short delays (no breaker, no budget), a
    client signed in as the demo user, a library in memory, an outbox in a directory of its
    own, and an engine over them that lists ten articles a page and fetches no texts by
    itself. A test class derives from it and calls start() in init(), stop() in cleanup().
*/
class SyncFixture
{
protected:
    /*! Everything above; false when the server cannot listen or the store cannot open. */
    bool start();
    /*! A new engine on the same store, queue and client: as the reader after a restart. */
    void makeEngine();
    /*! Destroys everything, users before what they use. */
    void stop();
    /*! Refreshes and waits for the end; false when it failed (said on the log) or took
        longer than \a timeoutMs. */
    bool refresh(int timeoutMs = 10000);

    std::unique_ptr<KeepTrying::Test::DemoServerThread> m_server;
    std::unique_ptr<KeepTrying::RetryingNetworkAccessManager> m_manager;
    std::unique_ptr<WallabagClient> m_client;
    std::unique_ptr<LocalStore> m_store;
    std::unique_ptr<OutboxChangeQueue> m_queue;
    std::unique_ptr<SyncEngine> m_engine;
    QTemporaryDir m_dir;
};

#endif // KEEPTRYING_TESTS_SYNCFIXTURE_H
