// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The Outbox under random kills during *replay* (tst_outboxdurability kills the writer while
// it enqueues): the writes are queued while the server is down, then replayed by writers
// killed with SIGKILL at random moments, one or two processes at a time on one database;
// and a database that fills up (Outbox::Settings::maxDatabaseBytes, SQLite's
// max_page_count) while writers are killed. Nothing acknowledged is lost, nothing is
// applied twice, each entry's writes arrive in order. The app is outboxwriter.cpp; the
// server is the demo server on loopback. KEEPTRYING_CHAOS_SEED repeats a run.

#include "demoserverthread.h"
#include "demotoken.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRandomGenerator>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>

#include <memory>

using KeepTrying::Test::DemoServerThread;

class tst_OutboxChaos : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void killNineDuringReplay();
    void databaseFillsUp();

private:
    QStringList arguments(const QString &prefix, int from, int count,
                          const QStringList &extra = {}) const;
    // Starts a writer; its stdout is read into \a output until it ends or \a killAfterMs.
    QByteArray runWriter(const QStringList &args, int killAfterMs, bool *endedByItself);
    // Every entry got exactly the writes [0, writes) meant for it, once each, in order.
    void verifyAppliedOnce(const QString &prefix, int writes, quint32 seed);

    std::unique_ptr<DemoServerThread> m_server;
    QByteArray m_token;
    std::unique_ptr<QTemporaryDir> m_dir;
    const QList<int> m_entries { 1, 2, 3, 4, 5 };
};

void tst_OutboxChaos::initTestCase()
{
    m_server = std::make_unique<DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    // The outbox's keys, which wallabag ignores: the demo honours them on request.
    (*m_server)->setIdempotencyKeysHonoured(true);
    m_token = KeepTrying::Test::demoToken(*m_server->server());
    QVERIFY(!m_token.isEmpty());
}

void tst_OutboxChaos::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_server->server()->comeUp();
    QTRY_VERIFY_WITH_TIMEOUT(!m_server->server()->isDown(), 5000);
    m_server->server()->resetStats();
    m_server->server()->setServiceTime(0);
}

QStringList tst_OutboxChaos::arguments(const QString &prefix, int from, int count,
                                       const QStringList &extra) const
{
    return QStringList { QStringLiteral("--db"),      m_dir->filePath(QStringLiteral("outbox.db")),
                         QStringLiteral("--url"),     m_server->server()->baseUrl().toString(),
                         QStringLiteral("--token"),   QString::fromLatin1(m_token),
                         QStringLiteral("--prefix"),  prefix,
                         QStringLiteral("--from"),    QString::number(from),
                         QStringLiteral("--count"),   QString::number(count),
                         QStringLiteral("--entries"), QStringLiteral("1,2,3,4,5") } +
        extra;
}

QByteArray tst_OutboxChaos::runWriter(const QStringList &args, int killAfterMs, bool *endedByItself)
{
    QProcess writer;
    writer.setProgram(QStringLiteral(KEEPTRYING_OUTBOX_WRITER));
    writer.setArguments(args);
    writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    writer.start();
    if (!writer.waitForStarted(5000))
        return "ERROR did not start";
    *endedByItself = writer.waitForFinished(killAfterMs);
    if (!*endedByItself) {
        writer.kill(); // SIGKILL
        writer.waitForFinished(5000);
    }
    return writer.readAllStandardOutput();
}

void tst_OutboxChaos::verifyAppliedOnce(const QString &prefix, int writes, quint32 seed)
{
    for (qsizetype e = 0; e < m_entries.size(); ++e) {
        QStringList expected;
        for (int n = int(e); n < writes; n += int(m_entries.size()))
            expected.append(QStringLiteral("%1-%2").arg(prefix).arg(n));
        const QStringList applied = m_server->appliedKeys(m_entries.at(e));
        QVERIFY2(applied == expected,
                 qPrintable(QStringLiteral("entry %1, seed %2: %3")
                                .arg(m_entries.at(e))
                                .arg(seed)
                                .arg(applied.join(QLatin1Char(' ')))));
    }
    QCOMPARE(m_server->server()->stats().value(QLatin1String("writes_applied")).toInt(), writes);
}

static quint32 chaosSeed()
{
    const quint32 seed = qEnvironmentVariableIsSet("KEEPTRYING_CHAOS_SEED")
        ? qEnvironmentVariable("KEEPTRYING_CHAOS_SEED").toUInt()
        : QRandomGenerator::global()->generate();
    qInfo("seed %u (set KEEPTRYING_CHAOS_SEED to repeat)", seed);
    return seed;
}

// All writes are queued while the server is down; then writers that only replay are
// killed at random moments, one or two at a time on the one database.
void tst_OutboxChaos::killNineDuringReplay()
{
    constexpr int writes = 60;
    constexpr int rounds = 25;
    const quint32 seed = chaosSeed();
    QRandomGenerator random(seed);

    m_server->server()->goDown(600000);
    QTRY_VERIFY_WITH_TIMEOUT(m_server->server()->isDown(), 5000);
    {
        // Enqueue everything; nothing can be sent. Killed once the last ACK is out.
        QProcess writer;
        writer.setProgram(QStringLiteral(KEEPTRYING_OUTBOX_WRITER));
        writer.setArguments(arguments(QStringLiteral("r"), 0, writes));
        writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer.start();
        QVERIFY(writer.waitForStarted(5000));
        const QByteArray lastAck = "ACK " + QByteArray::number(writes - 1);
        QByteArray output;
        QElapsedTimer clock;
        clock.start();
        while (!output.contains(lastAck) && clock.elapsed() < 20000 &&
               writer.state() == QProcess::Running) {
            writer.waitForReadyRead(100);
            output += writer.readAllStandardOutput();
        }
        QVERIFY2(output.contains(lastAck), output.right(200).constData());
        writer.kill();
        QVERIFY(writer.waitForFinished(5000));
    }
    QCOMPARE(m_server->server()->stats().value(QLatin1String("writes_applied")).toInt(), 0);

    m_server->server()->comeUp();
    QTRY_VERIFY_WITH_TIMEOUT(!m_server->server()->isDown(), 5000);
    m_server->server()->setServiceTime(10); // replays in flight when the kills land
    int pairs = 0;
    int endedByThemselves = 0;
    for (int round = 0; round < rounds; ++round) {
        const int killAfter = int(random.bounded(40, 400)); // start-up under ASan included
        if (random.bounded(3) == 0) {
            // Two processes on one database: one drains, the other waits for the lock (or
            // takes it over when the first dies).
            ++pairs;
            QProcess first;
            QProcess second;
            for (QProcess *p : { &first, &second }) {
                p->setProgram(QStringLiteral(KEEPTRYING_OUTBOX_WRITER));
                p->setArguments(arguments(QStringLiteral("r"), writes, writes));
                p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
                p->start();
            }
            QTest::qWait(killAfter);
            const int secondAfter = int(random.bounded(0, 200));
            // (waitForFinished() is false for a process that has ended already.)
            if (first.state() != QProcess::NotRunning) {
                first.kill();
                QVERIFY(first.waitForFinished(5000));
            }
            QTest::qWait(secondAfter);
            if (second.state() != QProcess::NotRunning) {
                second.kill();
                QVERIFY(second.waitForFinished(5000));
            }
            for (QProcess *p : { &first, &second })
                QVERIFY2(!p->readAllStandardOutput().contains("ERROR"), "a writer failed");
        } else {
            bool ended = false;
            const QByteArray output =
                runWriter(arguments(QStringLiteral("r"), writes, writes), killAfter, &ended);
            QVERIFY2(!output.contains("ERROR"), output.constData());
            if (ended)
                ++endedByThemselves;
        }
    }
    // The last one is left alone and must empty the outbox.
    bool ended = false;
    const QByteArray output =
        runWriter(arguments(QStringLiteral("r"), writes, writes), 30000, &ended);
    QVERIFY2(
        ended && output.contains("EMPTY"),
        qPrintable(
            QStringLiteral("seed %1: %2").arg(seed).arg(QString::fromUtf8(output.right(300)))));
    verifyAppliedOnce(QStringLiteral("r"), writes, seed);
    qInfo("%d rounds (%d with two processes), %d writers ended by themselves; %d replays "
          "answered from the key's record",
          rounds, pairs, endedByThemselves,
          m_server->server()->stats().value(QLatin1String("duplicate_writes_rejected")).toInt());
}

// A database bound to a few pages: enqueue() says DiskFull (the write is not
// acknowledged, and the writer tries it again later), replays free pages, writers are
// killed at random. Every acknowledged write is applied once; none that was refused and
// never acknowledged is applied.
void tst_OutboxChaos::databaseFillsUp()
{
    constexpr int writes = 40;
    constexpr int rounds = 12;
    const quint32 seed = chaosSeed();
    QRandomGenerator random(seed);
    const QStringList bounded { QStringLiteral("--max-db-bytes"), QStringLiteral("65536"),
                                QStringLiteral("--pad-bytes"), QStringLiteral("3000"),
                                QStringLiteral("--retry-when-full") };
    m_server->server()->setServiceTime(40); // the queue grows faster than it drains

    int next = 0; // the first write not seen acknowledged
    int full = 0;
    int killed = 0;
    QSet<int> acknowledged;
    for (int round = 0; round <= rounds; ++round) {
        const bool last = round == rounds;
        bool ended = false;
        const QByteArray output = runWriter(arguments(QStringLiteral("f"), next, writes, bounded),
                                            last ? 60000 : int(random.bounded(50, 400)), &ended);
        if (!ended)
            ++killed;
        for (const QByteArray &line : output.split('\n')) {
            QVERIFY2(!line.startsWith("ERROR"), line.constData());
            if (line.startsWith("ACK ")) {
                acknowledged.insert(line.mid(4).toInt());
                next = std::max(next, line.mid(4).toInt() + 1);
            }
            if (line.startsWith("FULL "))
                ++full;
        }
        if (last)
            QVERIFY2(ended && output.contains("EMPTY"),
                     qPrintable(QStringLiteral("seed %1: %2")
                                    .arg(seed)
                                    .arg(QString::fromUtf8(output.right(300)))));
    }
    QCOMPARE(int(acknowledged.size()), writes);
    QVERIFY2(full > 0, "the database never filled up: the test tested nothing");
    verifyAppliedOnce(QStringLiteral("f"), writes, seed);
    qInfo("%d of %d writers killed; %d enqueues refused as DiskFull, acknowledged later", killed,
          rounds + 1, full);
}

QTEST_GUILESS_MAIN(tst_OutboxChaos)
#include "tst_outboxchaos.moc"
