// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_TESTHELPERS_H
#define KEEPTRYING_TESTHELPERS_H

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QRandomGenerator>
#include <QtCore/QSemaphore>
#include <QtCore/QThread>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QTcpServer>
#include <QtTest/QSignalSpy>

#include <memory>
#include <vector>

namespace KeepTrying::Test {

// Short, deterministic schedules: the tests measure behaviour, not time.
inline RetryPolicy fastPolicy()
{
    RetryPolicy policy;
    policy.initialDelayMs = 10;
    policy.maxDelayMs = 50;
    policy.jitter = Jitter::None;
    return policy;
}

// For tests of something else (the window, a deadline): no circuit breaker, no retry budget.
inline void switchOffBreakerAndBudget(RetryingNetworkAccessManager &manager)
{
    CircuitBreaker::Settings breaker;
    breaker.enabled = false;
    manager.circuitBreaker()->setSettings(breaker);
    RetryBudget::Settings budget;
    budget.enabled = false;
    manager.retryBudget()->setSettings(budget);
}

// Reads the body as it is announced (so every byte counts as handed over) until finished();
// "<timeout>" if it does not finish in time.
inline QByteArray waitForBody(QNetworkReply *reply, int timeoutMs = 10000)
{
    QByteArray body;
    QObject::connect(reply, &QIODevice::readyRead, reply, [&] { body += reply->readAll(); });
    if (!reply->isFinished()) {
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!finished.wait(timeoutMs))
            return "<timeout>";
    }
    body += reply->readAll();
    QObject::disconnect(reply, &QIODevice::readyRead, reply, nullptr);
    return body;
}

using Headers = QList<QPair<QByteArray, QByteArray>>;

// A loopback port nothing listens on (it was free a moment ago): connections are refused.
// Taken below the kernel's ephemeral range (32768 and up on Linux), where every client
// socket and every listen(0) of the tests running beside this one take their ports: a test
// that later listens on this port itself then finds it still free.
inline quint16 closedPort()
{
    for (int tries = 0; tries < 1000; ++tries) {
        const auto port = quint16(QRandomGenerator::global()->bounded(20000, 32000));
        QTcpServer probe;
        if (probe.listen(QHostAddress::LocalHost, port))
            return port; // closed again when probe goes
    }
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost);
    return probe.serverPort();
}

// Runs job(i) for i in [0, count) on count threads (each with a Qt event dispatcher) that
// all start it at the same moment, and returns when every one has finished.
template<typename Job>
void runAtOnce(int count, Job job)
{
    QSemaphore ready;
    QSemaphore go;
    std::vector<std::unique_ptr<QThread>> threads;
    for (int i = 0; i < count; ++i) {
        threads.emplace_back(QThread::create([&ready, &go, &job, i] {
            ready.release();
            go.acquire();
            job(i);
        }));
        threads.back()->start();
    }
    ready.acquire(count);
    go.release(count);
    for (const auto &thread : threads)
        thread->wait();
}

} // namespace KeepTrying::Test

#endif // KEEPTRYING_TESTHELPERS_H
