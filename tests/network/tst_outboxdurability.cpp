// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The Outbox across processes (issue 10): an app killed with SIGKILL at random moments
// loses no acknowledged write and applies none twice; two processes on one database
// deliver each write once. The app is outboxwriter.cpp; the server is the demo server on
// loopback, in this process.

#include "demoserverthread.h"
#include "demotoken.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRandomGenerator>
#include <QtCore/QTemporaryDir>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QTest>

#include <memory>

using KeepTrying::Test::DemoServerThread;

class tst_OutboxDurability : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void killNineAtRandomMoments();
    void twoProcessesOneDatabase();

private:
    QStringList writerArguments(const QString &prefix, int from, int count, const QString &entries,
                                int intervalMs = 0) const;
    // The keys the server applied to \a entry, in order.
    QStringList appliedKeys(int entry) const;
    int itemsInDatabase(QString *states = nullptr) const;

    std::unique_ptr<DemoServerThread> m_server;
    QByteArray m_token;
    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_OutboxDurability::initTestCase()
{
    m_server = std::make_unique<DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    // The outbox's keys, which wallabag ignores: the demo honours them on request.
    (*m_server)->setIdempotencyKeysHonoured(true);
    m_token = KeepTrying::Test::demoToken(*m_server->server());
    QVERIFY(!m_token.isEmpty());
}

void tst_OutboxDurability::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_server->server()->resetStats();
    m_server->server()->setServiceTime(0);
}

QStringList tst_OutboxDurability::writerArguments(const QString &prefix, int from, int count,
                                                  const QString &entries, int intervalMs) const
{
    return { QStringLiteral("--db"),          m_dir->filePath(QStringLiteral("outbox.db")),
             QStringLiteral("--url"),         m_server->server()->baseUrl().toString(),
             QStringLiteral("--token"),       QString::fromLatin1(m_token),
             QStringLiteral("--prefix"),      prefix,
             QStringLiteral("--from"),        QString::number(from),
             QStringLiteral("--count"),       QString::number(count),
             QStringLiteral("--entries"),     entries,
             QStringLiteral("--interval-ms"), QString::number(intervalMs) };
}

QStringList tst_OutboxDurability::appliedKeys(int entry) const
{
    return m_server->appliedKeys(entry);
}

int tst_OutboxDurability::itemsInDatabase(QString *states) const
{
    int count = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"),
                                                    QStringLiteral("tst_outboxdurability"));
        db.setDatabaseName(m_dir->filePath(QStringLiteral("outbox.db")));
        if (db.open()) {
            QSqlQuery query(db);
            if (query.exec(QStringLiteral("SELECT count(*) FROM items")) && query.next())
                count = query.value(0).toInt();
            query.finish();
            if (states &&
                query.exec(QStringLiteral("SELECT id, state, attempts, next_attempt_at, "
                                          "last_error FROM items ORDER BY seq LIMIT 5"))) {
                while (query.next()) {
                    *states += QStringLiteral("[%1 state %2 attempts %3 next %4 error %5] ")
                                   .arg(query.value(0).toString(), query.value(1).toString(),
                                        query.value(2).toString(), query.value(3).toString(),
                                        query.value(4).toString());
                }
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("tst_outboxdurability"));
    return count;
}

void tst_OutboxDurability::killNineAtRandomMoments()
{
    constexpr int writes = 100;
    constexpr int kills = 50;
    const QList<int> entries { 1, 2, 3, 4, 5 };
    const QString entryList = QStringLiteral("1,2,3,4,5");
    const quint32 seed = qEnvironmentVariableIsSet("KEEPTRYING_TEST_SEED")
        ? qEnvironmentVariable("KEEPTRYING_TEST_SEED").toUInt()
        : QRandomGenerator::global()->generate();
    qInfo("seed %u (set KEEPTRYING_TEST_SEED to repeat)", seed);
    QRandomGenerator random(seed);
    // Spread the work over the runs: a write every 8 ms, each taking the server 10 ms, so
    // that kills land among enqueues and among replays in flight, not in an idle writer.
    m_server->server()->setServiceTime(10);
    constexpr int intervalMs = 8;

    int next = 0; // the first write not seen acknowledged
    int killedBeforeReady = 0;
    int endedByThemselves = 0;
    int roundsWithWritesLeft = 0;
    QElapsedTimer total;
    total.start();
    for (int round = 0; round < kills; ++round) {
        QProcess writer;
        writer.setProgram(QStringLiteral(KEEPTRYING_OUTBOX_WRITER));
        writer.setArguments(
            writerArguments(QStringLiteral("w"), next, writes, entryList, intervalMs));
        writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer.start();
        QVERIFY2(writer.waitForStarted(5000), qPrintable(writer.errorString()));
        // A quarter of the kills land while it starts (opening, resetting markers), the
        // rest while it enqueues and replays.
        QByteArray output;
        if (random.bounded(4) == 0) {
            QTest::qWait(int(random.bounded(60)));
            output += writer.readAllStandardOutput();
            if (!output.contains("READY"))
                ++killedBeforeReady;
        } else {
            QElapsedTimer ready;
            ready.start();
            while (!output.contains("READY") && ready.elapsed() < 10000 &&
                   writer.state() == QProcess::Running) {
                writer.waitForReadyRead(100);
                output += writer.readAllStandardOutput();
            }
            QVERIFY2(output.contains("READY"), qPrintable(QStringLiteral("seed %1").arg(seed)));
            QTest::qWait(int(random.bounded(200)));
        }
        if (writer.state() != QProcess::NotRunning) {
            writer.kill(); // SIGKILL
            QVERIFY(writer.waitForFinished(5000));
        } else {
            ++endedByThemselves;
            qInfo("run %d ended by itself: exit status %d, code %d", round,
                  int(writer.exitStatus()), writer.exitCode());
        }
        // Every ACK the writer wrote is in the pipe, even after the kill.
        output += writer.readAll();
        const QList<QByteArray> lines = output.split('\n');
        for (const QByteArray &line : lines) {
            QVERIFY2(!line.startsWith("ERROR"), line.constData());
            if (line.startsWith("ACK "))
                next = std::max(next, line.mid(4).toInt() + 1);
        }
        if (next < writes)
            ++roundsWithWritesLeft;
        if (round == kills / 2)
            qInfo("after %d runs, %d writes acknowledged", round + 1, next);
    }

    // The last run is left alone: it enqueues the rest and waits for the outbox to empty.
    QProcess writer;
    writer.setProgram(QStringLiteral(KEEPTRYING_OUTBOX_WRITER));
    writer.setArguments(writerArguments(QStringLiteral("w"), next, writes, entryList));
    writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    writer.start();
    if (!writer.waitForFinished(20000)) {
        writer.kill();
        writer.waitForFinished(5000);
        QFile lock(m_dir->filePath(QStringLiteral("outbox.db.lock")));
        lock.open(QIODevice::ReadOnly);
        QString states;
        const int left = itemsInDatabase(&states);
        QFAIL(qPrintable(QStringLiteral("the last run did not end (seed %1); it said: %2; "
                                        "items left: %3 %5; lock file: %4")
                             .arg(seed)
                             .arg(QString::fromUtf8(writer.readAll().right(300)).simplified())
                             .arg(left)
                             .arg(QString::fromUtf8(lock.readAll().toPercentEncoding()))
                             .arg(states)));
    }
    QCOMPARE(writer.exitStatus(), QProcess::NormalExit);
    QCOMPARE(writer.exitCode(), 0);
    QVERIFY(writer.readAllStandardOutput().contains("EMPTY"));

    // Every write applied exactly once, in order per entry; nothing left behind.
    for (int e = 0; e < entries.size(); ++e) {
        QStringList expected;
        for (int n = e; n < writes; n += int(entries.size()))
            expected.append(QStringLiteral("w-%1").arg(n));
        QVERIFY2(appliedKeys(entries.at(e)) == expected,
                 qPrintable(QStringLiteral("entry %1, seed %2: %3")
                                .arg(entries.at(e))
                                .arg(seed)
                                .arg(appliedKeys(entries.at(e)).join(QLatin1Char(' ')))));
    }
    const QJsonObject stats = m_server->server()->stats();
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), writes);
    QCOMPARE(itemsInDatabase(), 0);
    qInfo("%d runs: %d killed while starting, %d ended by themselves, %d with writes still to "
          "enqueue; %d replays answered from the key's record; %lld ms",
          kills, killedBeforeReady, endedByThemselves, roundsWithWritesLeft,
          stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), total.elapsed());
}

void tst_OutboxDurability::twoProcessesOneDatabase()
{
    constexpr int writes = 40;
    QProcess first;
    QProcess second;
    first.setProgram(QStringLiteral(KEEPTRYING_OUTBOX_WRITER));
    second.setProgram(QStringLiteral(KEEPTRYING_OUTBOX_WRITER));
    // Both write to entries 6 and 7, each in its own order.
    first.setArguments(writerArguments(QStringLiteral("a"), 0, writes, QStringLiteral("6,7")));
    second.setArguments(writerArguments(QStringLiteral("b"), 0, writes, QStringLiteral("7,6")));
    first.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    second.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    first.start();
    second.start();
    QVERIFY(first.waitForFinished(20000));
    QVERIFY(second.waitForFinished(20000));
    QCOMPARE(first.exitCode(), 0);
    QCOMPARE(second.exitCode(), 0);

    const QJsonObject stats = m_server->server()->stats();
    QCOMPARE(stats.value(QLatin1String("writes_applied")).toInt(), 2 * writes);
    // Not even a replay: one drainer at a time, each item sent once.
    QCOMPARE(stats.value(QLatin1String("duplicate_writes_rejected")).toInt(), 0);
    QCOMPARE(stats.value(QLatin1String("requests_per_route"))
                 .toObject()
                 .value(QLatin1String("PATCH /api/entries/{id}.json"))
                 .toInt(),
             2 * writes);
    for (const int entry : { 6, 7 }) {
        const QStringList keys = appliedKeys(entry);
        QCOMPARE(keys.size(), writes);
        // Each process's writes to the entry arrive in the order it made them.
        for (const QString &prefix : { QStringLiteral("a-"), QStringLiteral("b-") }) {
            int last = -1;
            for (const QString &key : keys) {
                if (!key.startsWith(prefix))
                    continue;
                const int n = key.mid(2).toInt();
                QVERIFY2(n > last, qPrintable(keys.join(QLatin1Char(' '))));
                last = n;
            }
        }
    }
    QCOMPARE(itemsInDatabase(), 0);
}

QTEST_GUILESS_MAIN(tst_OutboxDurability)
#include "tst_outboxdurability.moc"
