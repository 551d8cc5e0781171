// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Deleting a reply with plain delete from a slot of any of its signals is safe: Qt goes on
// using the attempt's own reply after the slot returns, so the attempt is never deleted on
// that stack. ASan cannot see such a fault (the bad reads are inside uninstrumented Qt);
// this suite also runs under valgrind memcheck (the memcheck_ tests of the dev build).

#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "testhelpers.h"
#include "testserver.h"

#include <QtCore/QPointer>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <functional>
#include <memory>

using namespace KeepTrying;
using namespace KeepTrying::Test;

namespace {

enum class Signal {
    MetaDataChanged,
    ReadyRead,
    ReadyReadAfterRetry,
    DownloadProgressAtEnd,
    Finished,
    RetryScheduled
};

} // namespace

class tst_ReplyLifetime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deleteFromInsideASignal_data();
    void deleteFromInsideASignal();
};

void tst_ReplyLifetime::deleteFromInsideASignal_data()
{
    QTest::addColumn<Signal>("signal");
    QTest::addColumn<bool>("readFirst");
    QTest::addRow("metaDataChanged") << Signal::MetaDataChanged << false;
    QTest::addRow("readyRead, unread") << Signal::ReadyRead << false;
    QTest::addRow("readyRead, after reading") << Signal::ReadyRead << true;
    QTest::addRow("readyRead of a retried body") << Signal::ReadyReadAfterRetry << true;
    QTest::addRow("downloadProgress reporting the end") << Signal::DownloadProgressAtEnd << true;
    QTest::addRow("finished") << Signal::Finished << true;
    QTest::addRow("retryScheduled") << Signal::RetryScheduled << false;
}

void tst_ReplyLifetime::deleteFromInsideASignal()
{
    QFETCH(Signal, signal);
    QFETCH(bool, readFirst);
    const QByteArray body(256 * 1024, 'k');
    TestServer server;
    QVERIFY(server.listen());
    const bool retried = signal == Signal::ReadyReadAfterRetry || signal == Signal::RetryScheduled;
    server.setHandler([&](const TestServer::Request &, int index) {
        if (retried && index == 0)
            return TestServer::respond(503, "busy", { { "Retry-After", "0" } });
        return TestServer::respond(200, body);
    });
    RetryingNetworkAccessManager manager;
    manager.setRetryPolicy(fastPolicy());
    QPointer<QNetworkReply> reply = manager.get(QNetworkRequest(server.url()));
    auto *retrying = qobject_cast<RetryingReply *>(reply.data());
    QVERIFY(retrying);
    QNetworkReply *raw = reply.data();
    const auto kill = [raw, readFirst] {
        if (readFirst)
            raw->readAll();
        delete raw; // not deleteLater(): the caller's right, as with any QObject
    };
    switch (signal) {
    case Signal::MetaDataChanged:
        connect(raw, &QNetworkReply::metaDataChanged, this, kill);
        break;
    case Signal::ReadyRead:
    case Signal::ReadyReadAfterRetry:
        connect(raw, &QIODevice::readyRead, this, kill);
        break;
    case Signal::DownloadProgressAtEnd:
        connect(raw, &QIODevice::readyRead, this, [raw] { raw->readAll(); });
        connect(raw, &QNetworkReply::downloadProgress, this, [kill](qint64 received, qint64 total) {
            if (total > 0 && received == total)
                kill();
        });
        break;
    case Signal::Finished:
        connect(raw, &QNetworkReply::finished, this, kill);
        break;
    case Signal::RetryScheduled:
        connect(retrying, &RetryingReply::retryScheduled, this,
                [kill](int, qint64, const QString &) { kill(); });
        break;
    }
    QTRY_VERIFY_WITH_TIMEOUT(reply.isNull(), 5000);
    const int seen = server.requestCount();
    // Let every deferred deletion and queued signal of the attempt run.
    QTest::qWait(50);
    QCOMPARE(server.requestCount(), seen);
    QVERIFY(seen <= (retried ? 2 : 1));
}

QTEST_GUILESS_MAIN(tst_ReplyLifetime)
#include "tst_replylifetime.moc"
