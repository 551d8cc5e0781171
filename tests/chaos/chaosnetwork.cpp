// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Randomised fault sequences through RetryingNetworkAccessManager. Each sequence is drawn
// from one seed: a script for the ScriptedFaultServer (per request: a 200 or a 206 that
// honours Range, an error status with or without Retry-After, a reset before the headers,
// after them or mid-body, latency, a slow drip, a listener closed for a moment) and the
// caller's behaviour (method, key, how it reads, when it aborts or deletes the reply,
// simulated offline). The invariants below are checked against the server's record.
//
//   chaos_network --count N [--seed S] [--verbose]
//       runs N sequences, seeds S, S+1, … (S: KEEPTRYING_CHAOS_SEED, else random), prints
//       each failure with its seed and script, then "N passed, M failed"; exit code 1 when
//       any failed.
//   chaos_network --seed S            replays the one sequence S, with its script.
//
// The invariants, per sequence:
//  1. finished() exactly once; never for a reply the caller deleted before it.
//  2. errorOccurred() at most once, exactly when the reply ends with an error, and before
//     finished().
//  3. A success carries the exact resource (nothing for HEAD). Whatever the end, the
//     caller's bytes are a prefix of exactly one response's full body (the resource, or
//     one error response's body; never a mix, never a byte twice: the resource is random
//     bytes, so a repeated byte breaks the prefix), and the reply's status and
//     Content-Length are those of that response.
//  4. downloadProgress() never goes backwards.
//  5. After abort() or delete no attempt starts, and at most the request of the attempt
//     in flight then still reaches the server (or of one simulated offline cut while in
//     flight: Qt's HTTP thread may have been writing it as the cut was made).
//  6. A POST without Idempotency-Key reaches the server at most once.
//  7. Every request of a keyed write carries the same key; every request whose body
//     arrived whole carries the caller's body.
//  8. The final answer is what the server last did. Checked when the sequence has no
//     deadline, no simulated offline while the reply ran and no cancel before it ended (a
//     deadline ends with the last *real* answer, and offline or a cancel stop the client
//     on its own account). Breaker and budget are off, so only RetryPolicy limits stop the
//     retries, and they stop right after an attempt: the reply ends with that attempt. So:
//       - the listener closed after the last request (or before any): either
//         ConnectionRefusedError, or the last request's answer;
//       - the last request got an error status S whole: error, status S, its body; but
//         when it was a resume (a Range request: bytes of the 200 were handed over),
//         RemoteHostClosedError, the 200's status, those bytes, and S only through
//         lastResumeStatus() and the error text;
//       - it got the resource whole (200 or a 206 continuing it): success, unless it was a
//         200 to a Range request after bytes were handed over (resume refused:
//         RemoteHostClosedError, by design: those bytes cannot be handed over twice);
//       - a reset before the headers: RemoteHostClosedError;
//       - a reset after the headers or mid-body: RemoteHostClosedError with that response's
//         status (its headers arrived whole; plain Qt does the same). A HEAD's response is
//         whole with its headers, so there a success is right too.
//     Where a fault left no status of its own, the reply has none, unless body bytes were
//     handed over: they come with their response's headers (200 or 206), which stay.
//  9. No hang: every sequence ends within its watchdog.
// 10. No request reaches the server after finished().
// 11. Every waiting moment has a reason, and it is true: whenever the reply says it waits
//     (waitingToRetryChanged(true), waitingForConnectivity(true)) its waitReason() is not
//     None, and no attempt starts while it is not None. An Offline reason comes only while
//     the network is offline (simulated here). A Backoff or RetryAfter wait that ends by
//     itself (not by the deadline, a cancel or the end) ends no earlier than its announced
//     deadline() and at most lateToleranceMs after it.
// A sanitizer report aborts the process; its death callback prints the sequence first.

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include "chaossequence.h"
#include "scriptedfaultserver.h"
#include "testhelpers.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QMetaEnum>
#include <QtCore/QPointer>
#include <QtCore/QRandomGenerator>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>

#include <cstdio>
#include <random>

#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>) &&                                    \
    (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__))
#include <sanitizer/common_interface_defs.h>
#define KEEPTRYING_CHAOS_DEATH_CALLBACK 1
#endif
#endif

using namespace KeepTrying;
using namespace KeepTrying::Test;
using Kind = ScriptedFaultServer::Kind;

using namespace KeepTrying::Chaos;

namespace {
// Qt's HTTP layer sends an idempotent request again by itself, on a new connection, when
// the connection closed before the response was whole (each request has a few reconnect
// attempts inside QHttpNetworkConnectionChannel; plain QNetworkAccessManager does the same
// and no API turns it off). Such a repeat is the very request before it (method, target,
// Range), which broke off; it can reach the server after the reply has ended with that
// breakage. Qt never does it for a POST (not idempotent, RFC 9110 section 9.2.2).
bool isQtResend(const QList<ScriptedFaultServer::Record> &records, qsizetype i)
{
    if (i <= 0 || i >= records.size())
        return false;
    const auto &previous = records.at(i - 1);
    const auto &record = records.at(i);
    static const QList<QByteArray> idempotent = { "GET", "HEAD", "PUT", "DELETE", "OPTIONS" };
    return idempotent.contains(record.method) && record.method == previous.method &&
        record.target == previous.target && record.header("Range") == previous.header("Range") &&
        !previous.complete && previous.behaviour.kind != Kind::Status;
}

// Requests from index \a from on, less Qt's own repeats among them.
int requestsFrom(const QList<ScriptedFaultServer::Record> &records, int from)
{
    int count = 0;
    for (qsizetype i = qMax(from, 0); i < records.size(); ++i)
        count += isQtResend(records, i) ? 0 : 1;
    return count;
}

bool isPrefix(const QByteArray &part, const QByteArray &whole)
{
    return part.size() <= whole.size() && whole.startsWith(part);
}

// Invariant 3: the response whose body \a o.body is a prefix of (a non-empty one belongs to
// one only: error bodies start with "E<status>#<index>"), and whether the reply's status and
// Content-Length are that response's. Empty when they are, else what is wrong.
QString oneResponse(const QByteArray &body, int status, qint64 contentLength,
                    const QByteArray &resource, const QList<ScriptedFaultServer::Record> &records)
{
    if (body.isEmpty())
        return QString();
    QStringList mismatches;
    if (isPrefix(body, resource)) {
        if (status == 200 && contentLength == resource.size())
            return QString();
        mismatches << QStringLiteral("the resource's (200, %1 bytes)").arg(resource.size());
    }
    for (qsizetype i = 0; i < records.size(); ++i) {
        const auto &rec = records.at(i);
        if (rec.behaviour.kind != Kind::Status)
            continue;
        const QByteArray full = ScriptedFaultServer::errorBody(int(i), rec.behaviour.status,
                                                               rec.behaviour.errorBodyBytes);
        if (!isPrefix(body, full))
            continue;
        if (status == rec.sentStatus && contentLength == full.size())
            return QString();
        mismatches << QStringLiteral("request %1's (%2, %3 bytes)")
                          .arg(i)
                          .arg(rec.sentStatus)
                          .arg(full.size());
    }
    if (mismatches.isEmpty())
        return QStringLiteral("%1 body bytes that are a prefix of no response's body (first "
                              "bytes %2)")
            .arg(body.size())
            .arg(QString::fromLatin1(body.left(24).toHex()));
    return QStringLiteral("%1 body bytes of %2, but status %3 and Content-Length %4")
        .arg(body.size())
        .arg(mismatches.join(QStringLiteral(" or ")))
        .arg(status)
        .arg(contentLength);
}

QString errorName(QNetworkReply::NetworkError error)
{
    return QString::fromLatin1(
        QMetaEnum::fromType<QNetworkReply::NetworkError>().valueToKey(error));
}

// What the caller saw of the sequence.
// How late a backoff may end and still count as "when it said": timers under ASan on a
// loaded machine run late, but never this late without a wait of another kind in between.
constexpr qint64 lateToleranceMs = 500;

struct Observed
{
    int finished = 0;
    int errors = 0;
    bool errorAfterFinished = false;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QString errorString;
    int status = 0;
    qint64 contentLength = -1;
    int lastResumeStatus = 0;
    QByteArray body;
    bool handedOver = false; // a readyRead announced bytes
    qint64 lastProgress = -1;
    QString progressBack;
    int readyReads = 0;
    int metaDataChanges = 0;
    int attemptsStarted = 0;
    int retriesScheduled = 0;
    bool inFlight = false;
    // Simulated offline cut an attempt in flight; the server had seen this many requests
    // then. The cut is a queued abort to Qt's HTTP thread, which may be writing the request
    // at that very moment (strace of seed 1289048913: the request's write() came 0.2 ms
    // after the abort was posted, before the HTTP thread ran it; no re-send, one
    // connection): like bytes already on the wire when a cable is pulled, it can still
    // arrive, once. The library treats it so too: a keyless write is never cut.
    bool cutInFlight = false;
    int serverCountAtCut = 0;
    bool cancelled = false;
    bool cancelledBeforeFinish = false;
    bool deleted = false;
    bool deletedBeforeFinish = false;
    int serverCountAtCancel = 0;
    int mayArriveAtCancel = 0; // requests on their way at the cancel, at most
    int attemptsAfterCancel = 0;
    bool offlineWhileRunning = false;
    int serverCountAtFinish = -1;
    int mayArriveAtFinish = 0;
    qint64 finishedAtMs = -1;
    QByteArray key;
    // Invariant 11.
    int waitReasons = 0;
    QStringList dishonest; // what the reasons said that was not so
    KeepTrying::WaitReason timedWait; // the last Backoff/RetryAfter, while it lasts
    QElapsedTimer timedWaitClock; // since it was announced
    qint64 timedWaitMs = 0; // its announced length
};

// What is left to read at finished(). abort() closes the reply before it finishes, as Qt's
// own replies do: there is nothing to read then, and reading a closed device only makes
// QIODevice warn "device not open".
QByteArray readRest(QNetworkReply *reply)
{
    return reply->isOpen() ? reply->readAll() : QByteArray();
}

QString g_current; // the sequence running, for the sanitizer's death callback

#ifdef KEEPTRYING_CHAOS_DEATH_CALLBACK
void printCurrent()
{
    std::fprintf(stderr, "chaos: the sanitizer stopped the process during\n%s\n",
                 g_current.toLocal8Bit().constData());
}
#endif

QStringList run(const Sequence &s, bool verbose)
{
    QStringList violations;
    ScriptedFaultServer server;
    server.setResource(s.resource, "\"r" + QByteArray::number(s.seed) + '"');
    server.setScript(s.script);
    if (!server.listen())
        return { QStringLiteral("the server cannot listen") };

    RetryingNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy);
    KeepTrying::Test::switchOffBreakerAndBudget(manager);
    manager.setRetryPolicy(s.policy);

    Observed o;
    QPointer<QNetworkReply> reply;
    QNetworkReply *replyAddress = nullptr; // compared only, never dereferenced
    QEventLoop loop;
    bool offlineDone = s.offline.isEmpty();
    // The attempt in flight, and one cut by simulated offline whose request has not arrived.
    const auto mayStillArrive = [&] {
        const bool cutOnItsWay = o.cutInFlight && server.requestCount() == o.serverCountAtCut;
        return (o.inFlight ? 1 : 0) + (cutOnItsWay ? 1 : 0);
    };

    const auto cancelNow = [&] {
        if (o.cancelled || !reply)
            return;
        o.cancelled = true;
        // Inside errorOccurred() the reply has ended already: finished() follows whatever
        // the slot does, and an abort() there changes nothing.
        o.cancelledBeforeFinish = o.finished == 0 && o.errors == 0;
        o.serverCountAtCancel = server.requestCount();
        o.mayArriveAtCancel = mayStillArrive();
        if (s.cancel == Cancel::Abort) {
            reply->abort();
        } else {
            o.deleted = true;
            o.deletedBeforeFinish = o.finished == 0;
            delete reply.data();
            loop.quit();
        }
    };

    QObject::connect(&manager, &RetryingNetworkAccessManager::attemptStarted, &loop,
                     [&](QNetworkReply *r, int) {
                         if (replyAddress && r != replyAddress)
                             return;
                         ++o.attemptsStarted;
                         o.inFlight = true;
                         if (auto *retrying = qobject_cast<RetryingReply *>(r);
                             retrying && retrying->waitReason().isWaiting())
                             o.dishonest << QStringLiteral("an attempt started while waiting");
                         if (o.cancelled)
                             ++o.attemptsAfterCancel;
                         if (s.cancel != Cancel::None && s.moment == Moment::AttemptStarted &&
                             o.attemptsStarted == s.momentIndex) {
                             if (!reply) {
                                 // Inside get(): the caller has no pointer to delete yet; an
                                 // abort through the signal's argument is what it can do.
                                 o.cancelled = true;
                                 o.cancelledBeforeFinish = true;
                                 o.serverCountAtCancel = server.requestCount();
                                 o.mayArriveAtCancel = 1;
                                 r->abort();
                             } else {
                                 cancelNow();
                             }
                         }
                     });
    QObject::connect(&manager, &RetryingNetworkAccessManager::retryScheduled, &loop,
                     [&](QNetworkReply *r, int, qint64, const QString &) {
                         if (r != replyAddress)
                             return;
                         ++o.retriesScheduled;
                         o.inFlight = false;
                         if (o.cancelled)
                             violations << QStringLiteral("retryScheduled after the cancel");
                         if (s.cancel != Cancel::None && s.moment == Moment::RetryScheduled &&
                             o.retriesScheduled == s.momentIndex)
                             cancelNow();
                     });
    QObject::connect(&manager, &RetryingNetworkAccessManager::waitingForConnectivity, &loop,
                     [&](QNetworkReply *r, bool waiting) {
                         if (r == replyAddress && waiting)
                             o.inFlight = false;
                         auto *retrying = qobject_cast<RetryingReply *>(r);
                         if (waiting && retrying && !retrying->waitReason().isWaiting())
                             o.dishonest << QStringLiteral("waits for connectivity, no reason");
                     });
    QObject::connect(
        &manager, &RetryingNetworkAccessManager::waitReasonChanged, &loop,
        [&](QNetworkReply *r, const KeepTrying::WaitReason &reason) {
            using KeepTrying::WaitReason;
            if (replyAddress && r != replyAddress)
                return;
            ++o.waitReasons;
            auto *retrying = qobject_cast<RetryingReply *>(r);
            if (reason.kind() == WaitReason::Offline && !manager.isSimulatedOffline() &&
                manager.reachability()->state() != KeepTrying::Reachability::State::Offline)
                o.dishonest << QStringLiteral("Offline announced while online");
            if (o.timedWait.isWaiting()) {
                // A timed wait ends: by itself, on time; or the request ended it.
                const bool endedByRequest = o.cancelled || o.finished > 0 ||
                    (retrying && retrying->giveUpReason().kind() != KeepTrying::GiveUpReason::None);
                const qint64 late = o.timedWaitClock.elapsed() - o.timedWaitMs;
                if (!endedByRequest && !o.timedWait.deadline().hasExpired()) {
                    o.dishonest << QStringLiteral("a wait announced for %1 ms ended %2 ms early")
                                       .arg(o.timedWaitMs)
                                       .arg(o.timedWait.deadline().remainingTime());
                } else if (!endedByRequest && late > lateToleranceMs) {
                    o.dishonest << QStringLiteral("a wait announced for %1 ms ended %2 ms late")
                                       .arg(o.timedWaitMs)
                                       .arg(late);
                }
            }
            o.timedWait = WaitReason();
            if (reason.kind() == WaitReason::Backoff || reason.kind() == WaitReason::RetryAfter) {
                o.timedWait = reason;
                o.timedWaitMs = reason.remainingMs();
                o.timedWaitClock.start();
            }
        });

    QNetworkRequest request(server.url());
    if (s.method == Method::PostCallerKey)
        request.setRawHeader("Idempotency-Key", "chaos-" + QByteArray::number(s.seed));
    QElapsedTimer clock;
    clock.start();
    switch (s.method) {
    case Method::Get:
        reply = manager.get(request);
        break;
    case Method::Head:
        reply = manager.head(request);
        break;
    case Method::Put:
        reply = manager.put(request, s.requestBody);
        break;
    case Method::PostKeyless:
    case Method::PostCallerKey:
    case Method::PostPolicyKey:
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/octet-stream"));
        reply = manager.post(request, s.requestBody);
        break;
    }
    replyAddress = reply.data();
    if (auto *retrying = qobject_cast<RetryingReply *>(reply.data()))
        o.key = retrying->idempotencyKey();
    else
        violations << QStringLiteral("the manager did not return a RetryingReply");
    if (s.method == Method::PostCallerKey && o.key != "chaos-" + QByteArray::number(s.seed))
        violations << QStringLiteral("the caller's Idempotency-Key was replaced: %1")
                          .arg(QString::fromLatin1(o.key));
    if (s.method == Method::PostPolicyKey && o.key.isEmpty())
        violations << QStringLiteral("addIdempotencyKey gave the POST no key");

    QNetworkReply *r = reply.data();
    // An abort inside get() has ended it already: the signals below never come.
    if (r->isFinished()) {
        o.finished = 1; // emitted inside get(), before a slot could be connected
        o.error = r->error();
        o.errors = o.error == QNetworkReply::NoError ? 0 : 1;
        o.status = r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        o.body = readRest(r);
    }
    if (auto *retrying = qobject_cast<RetryingReply *>(r)) {
        QObject::connect(retrying, &RetryingReply::waitingToRetryChanged, &loop,
                         [&, retrying](bool waiting) {
                             if (waiting && !retrying->waitReason().isWaiting())
                                 o.dishonest << QStringLiteral("waits to retry, no reason");
                         });
    }
    if (s.readInReadyRead) {
        QObject::connect(r, &QIODevice::readyRead, &loop, [&, r] {
            ++o.readyReads;
            if (r->bytesAvailable() > 0)
                o.handedOver = true;
            o.body += r->read(s.chunk);
            if (s.cancel != Cancel::None && s.moment == Moment::ReadyRead &&
                o.readyReads == s.momentIndex)
                cancelNow();
        });
    }
    QObject::connect(r, &QNetworkReply::metaDataChanged, &loop, [&] {
        ++o.metaDataChanges;
        if (s.cancel != Cancel::None && s.moment == Moment::MetaDataChanged &&
            o.metaDataChanges == s.momentIndex)
            cancelNow();
    });
    QObject::connect(r, &QNetworkReply::errorOccurred, &loop, [&](QNetworkReply::NetworkError) {
        ++o.errors;
        if (o.finished > 0)
            o.errorAfterFinished = true;
        if (s.cancel != Cancel::None && s.moment == Moment::ErrorOccurred)
            cancelNow();
    });
    if (s.watchProgress) {
        QObject::connect(r, &QNetworkReply::downloadProgress, &loop, [&](qint64 received, qint64) {
            if (received < o.lastProgress && o.progressBack.isEmpty())
                o.progressBack = QStringLiteral("%1 after %2").arg(received).arg(o.lastProgress);
            o.lastProgress = std::max(o.lastProgress, received);
        });
    }
    QObject::connect(r, &QNetworkReply::finished, &loop, [&, r] {
        ++o.finished;
        o.serverCountAtFinish = server.requestCount();
        o.mayArriveAtFinish = mayStillArrive();
        o.inFlight = false;
        o.finishedAtMs = server.elapsed();
        o.error = r->error();
        o.errorString = r->errorString();
        o.status = r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QVariant length = r->header(QNetworkRequest::ContentLengthHeader);
        o.contentLength = length.isValid() ? length.toLongLong() : -1;
        if (auto *retrying = qobject_cast<RetryingReply *>(r))
            o.lastResumeStatus = retrying->lastResumeStatus();
        o.body += readRest(r);
        if (s.cancel != Cancel::None && s.moment == Moment::Finished)
            cancelNow();
        if (offlineDone)
            loop.quit();
    });

    QTimer cancelTimer;
    if (s.cancel != Cancel::None && s.moment == Moment::Timer) {
        cancelTimer.setSingleShot(true);
        QObject::connect(&cancelTimer, &QTimer::timeout, &loop, cancelNow);
        cancelTimer.start(s.cancelAtMs);
    }
    for (qsizetype i = 0; i < s.offline.size(); ++i) {
        const auto [at, length] = s.offline.at(i);
        const bool last = i + 1 == s.offline.size();
        QTimer::singleShot(at, &loop, [&] {
            if (o.finished == 0 && !o.deleted)
                o.offlineWhileRunning = true;
            if (o.inFlight && !manager.isSimulatedOffline()) {
                o.cutInFlight = true;
                o.serverCountAtCut = server.requestCount();
            }
            manager.setSimulatedOffline(true);
        });
        QTimer::singleShot(at + length, &loop, [&, last] {
            manager.setSimulatedOffline(false);
            if (last) {
                offlineDone = true;
                if (o.finished > 0 || o.deleted)
                    loop.quit();
            }
        });
    }
    QTimer watchdog;
    bool hung = false;
    watchdog.setSingleShot(true);
    QObject::connect(&watchdog, &QTimer::timeout, &loop, [&] {
        hung = true;
        loop.quit();
    });
    watchdog.start(10000);
    if (!(o.finished > 0 && offlineDone) && !o.deleted)
        loop.exec();
    if (hung) {
        violations << QStringLiteral("hang: not finished after 10 s (%1 attempts, %2 requests)")
                          .arg(o.attemptsStarted)
                          .arg(server.requestCount());
    }
    // Settle: anything a stopped reply would still do (a retry timer, a late signal) shows.
    QTimer::singleShot(int(std::max(s.policy.maxDelayMs, s.policy.maxRetryAfterMs)) + 30, &loop,
                       &QEventLoop::quit);
    loop.exec();
    const qint64 elapsed = clock.elapsed();
    const int finishedBeforeDelete = o.finished;
    delete reply.data();
    server.shutDown();
    const QList<ScriptedFaultServer::Record> records = server.records();

    // 1. finished() once.
    if (o.deletedBeforeFinish) {
        if (o.finished != 0)
            violations << QStringLiteral("finished() for a reply deleted before it");
    } else if (!hung && finishedBeforeDelete != 1) {
        violations << QStringLiteral("finished() %1 times").arg(finishedBeforeDelete);
    }
    // 2. errorOccurred() at most once, before finished(), exactly for an error.
    if (o.errors > 1)
        violations << QStringLiteral("errorOccurred() %1 times").arg(o.errors);
    if (o.errorAfterFinished)
        violations << QStringLiteral("errorOccurred() after finished()");
    if (o.finished == 1 && (o.error != QNetworkReply::NoError) != (o.errors == 1))
        violations << QStringLiteral("ended with %1 after %2 errorOccurred()")
                          .arg(errorName(o.error))
                          .arg(o.errors);
    // 3. The body.
    const bool head = s.method == Method::Head;
    const bool success = o.finished == 1 && o.error == QNetworkReply::NoError;
    if (head && !o.body.isEmpty())
        violations << QStringLiteral("a HEAD gave %1 body bytes").arg(o.body.size());
    if (!head && success && !o.cancelledBeforeFinish && o.body != s.resource) {
        violations << QStringLiteral("success with a body of %1 bytes that is not the resource "
                                     "(%2 bytes; a prefix: %3)")
                          .arg(o.body.size())
                          .arg(s.resource.size())
                          .arg(isPrefix(o.body, s.resource));
    }
    if (!head && o.finished == 1) {
        const QString wrong = oneResponse(o.body, o.status, o.contentLength, s.resource, records);
        if (!wrong.isEmpty())
            violations << QStringLiteral("not one response: %1").arg(wrong);
    }
    // 4. Progress.
    if (!o.progressBack.isEmpty())
        violations << QStringLiteral("downloadProgress went backwards: %1").arg(o.progressBack);
    // 5. Nothing after a cancel.
    if (o.cancelled) {
        if (o.attemptsAfterCancel > 0)
            violations << QStringLiteral("%1 attempts started after the cancel")
                              .arg(o.attemptsAfterCancel);
        const int late = requestsFrom(records, o.serverCountAtCancel);
        if (late > o.mayArriveAtCancel)
            violations << QStringLiteral("%1 requests reached the server after the cancel "
                                         "(requests on their way then: %2)")
                              .arg(late)
                              .arg(o.mayArriveAtCancel);
        if (s.cancel == Cancel::Abort && o.cancelledBeforeFinish && o.finished == 1 &&
            o.error != QNetworkReply::OperationCanceledError)
            violations << QStringLiteral("aborted, but ended with %1").arg(errorName(o.error));
    }
    // 10. Nothing after finished(). A reply that ends on its own has had its last
    // request answered (or refused); one cut short by the caller, the deadline or
    // simulated offline may have had one on its way, which still arrives.
    if (o.serverCountAtFinish >= 0) {
        const bool cutShort =
            o.cancelledBeforeFinish || s.policy.deadlineMs > 0 || o.offlineWhileRunning;
        const int late = requestsFrom(records, o.serverCountAtFinish);
        if (late > (cutShort ? o.mayArriveAtFinish : 0))
            violations
                << QStringLiteral("%1 requests reached the server after finished()").arg(late);
    }
    // 6. A keyless POST at most once.
    if (s.method == Method::PostKeyless && records.size() > 1)
        violations << QStringLiteral("a POST without Idempotency-Key reached the server %1 times")
                          .arg(records.size());
    // 7. Same key, same body.
    for (qsizetype i = 0; i < records.size(); ++i) {
        const auto &rec = records.at(i);
        if (s.hasKey() && rec.header("Idempotency-Key") != o.key)
            violations << QStringLiteral("request %1 carried the key '%2', not '%3'")
                              .arg(i)
                              .arg(QString::fromLatin1(rec.header("Idempotency-Key")),
                                   QString::fromLatin1(o.key));
        if (!s.hasKey() && !rec.header("Idempotency-Key").isEmpty())
            violations << QStringLiteral("request %1 carried a key nobody asked for").arg(i);
        if (rec.bodyComplete && rec.body != s.requestBody)
            violations << QStringLiteral("request %1 carried a body of %2 bytes, not the "
                                         "caller's %3")
                              .arg(i)
                              .arg(rec.body.size())
                              .arg(s.requestBody.size());
    }
    // 8. The final answer is what the server last did.
    if (o.finished == 1 && !o.cancelledBeforeFinish && !o.offlineWhileRunning &&
        s.policy.deadlineMs == 0) {
        const auto expect = [&](bool ok, const QString &what) {
            if (!ok)
                violations << QStringLiteral("ended with %1, status %2 (%3), but %4")
                                  .arg(errorName(o.error))
                                  .arg(o.status)
                                  .arg(o.errorString, what);
        };
        // What the reply saw last: Qt's own repeats that came after it ended do not count.
        QList<ScriptedFaultServer::Record> seen = records;
        while (seen.size() > o.serverCountAtFinish && isQtResend(seen, seen.size() - 1))
            seen.removeLast();
        const bool refusedLast = seen.isEmpty() ? server.refusedFirst() : seen.last().refusedAfter;
        // Bytes handed over come with the headers of their response: the caller keeps them.
        const bool handedOverStatus = o.handedOver && (o.status == 200 || o.status == 206);
        if (o.error == QNetworkReply::ConnectionRefusedError) {
            expect(refusedLast && (o.status == 0 || handedOverStatus),
                   QStringLiteral("the listener was not closed last"));
        } else if (seen.isEmpty()) {
            expect(false, QStringLiteral("no request reached the server"));
        } else {
            const auto &last = seen.last();
            const QString was = QStringLiteral("the last request (%1 of %2) got: %3")
                                    .arg(seen.size() - 1)
                                    .arg(seen.size())
                                    .arg(last.behaviour.describe());
            switch (last.behaviour.kind) {
            case Kind::Status:
                if (!last.header("Range").isEmpty()) {
                    // A resume's answer: the caller keeps the 200's bytes and metadata.
                    const QString got =
                        QStringLiteral("resuming got %1 Scripted").arg(last.sentStatus);
                    expect(o.error == QNetworkReply::RemoteHostClosedError && o.status == 200 &&
                               o.lastResumeStatus == last.sentStatus &&
                               o.errorString.endsWith(got) && isPrefix(o.body, s.resource),
                           was +
                               QStringLiteral(" (a resume), %1 body bytes read, last resume "
                                              "status %2")
                                   .arg(o.body.size())
                                   .arg(o.lastResumeStatus));
                    break;
                }
                expect(o.error != QNetworkReply::NoError && o.status == last.sentStatus &&
                           (head || o.body == last.sentBody),
                       was + QStringLiteral(", %1 body bytes read").arg(o.body.size()));
                break;
            case Kind::Ok:
                if (!last.header("Range").isEmpty() && last.rangeStart == 0 && o.handedOver)
                    expect(o.error == QNetworkReply::RemoteHostClosedError,
                           was + QStringLiteral(" (a 200 to a Range request)"));
                else
                    expect(o.error == QNetworkReply::NoError &&
                               (o.status == 200 || o.status == 206),
                           was);
                break;
            case Kind::ResetBeforeHeaders:
                expect(o.error == QNetworkReply::RemoteHostClosedError &&
                           (o.status == 0 || handedOverStatus),
                       was);
                break;
            case Kind::ResetAfterHeaders:
            case Kind::ResetMidBody:
                // A response with no body to send (a HEAD, an empty resource) is whole with
                // its headers: the reset after them cuts nothing.
                if (last.payloadBytes == 0 && o.error == QNetworkReply::NoError)
                    break;
                // The response broke off: its own headers arrived whole, and they are what the
                // request ends with (as with plain Qt), unless an earlier one handed bytes over.
                expect(o.error == QNetworkReply::RemoteHostClosedError &&
                           (o.status == last.sentStatus || handedOverStatus),
                       was);
                break;
            case Kind::Refuse:
                break; // never a request's behaviour
            }
        }
    }
    if (verbose) {
        std::printf("seed %u: %s, status %d, %lld body bytes, %d attempts, %d requests, %d probes, "
                    "%lld ms%s\n",
                    s.seed, qPrintable(errorName(o.error)), o.status, qint64(o.body.size()),
                    o.attemptsStarted, int(records.size()), server.probeCount(), elapsed,
                    o.deleted         ? " (deleted)"
                        : o.cancelled ? " (aborted)"
                                      : "");
        for (qsizetype i = 0; i < records.size(); ++i) {
            const auto &rec = records.at(i);
            std::printf("  request %d at %lld ms: %s %s%s%s -> %d, %lld body bytes%s\n", int(i),
                        rec.arrivedAtMs, rec.method.constData(), rec.target.constData(),
                        rec.header("Range").isEmpty() ? "" : " Range ",
                        rec.header("Range").constData(), rec.sentStatus,
                        qint64(rec.sentBody.size()), rec.complete ? "" : " (reset)");
        }
        std::printf("  finished at %lld ms\n", o.finishedAtMs);
        std::fflush(stdout);
    }
    // 11. Every wait has a true reason.
    o.dishonest.removeDuplicates();
    for (const QString &lie : std::as_const(o.dishonest))
        violations << QStringLiteral("wait reason: %1").arg(lie);
    return violations;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Randomised fault sequences through RetryingNetworkAccessManager."));
    parser.addHelpOption();
    const QCommandLineOption seedOption(QStringLiteral("seed"),
                                        QStringLiteral("first seed (default: "
                                                       "KEEPTRYING_CHAOS_SEED, else random)"),
                                        QStringLiteral("n"));
    const QCommandLineOption countOption(
        QStringLiteral("count"), QStringLiteral("sequences (default 1 with --seed, else 500)"),
        QStringLiteral("n"));
    const QCommandLineOption verboseOption(QStringLiteral("verbose"),
                                           QStringLiteral("one line per sequence"));
    parser.addOptions({ seedOption, countOption, verboseOption });
    parser.process(app);

    quint32 seed = 0;
    if (parser.isSet(seedOption))
        seed = parser.value(seedOption).toUInt();
    else if (qEnvironmentVariableIsSet("KEEPTRYING_CHAOS_SEED"))
        seed = qEnvironmentVariable("KEEPTRYING_CHAOS_SEED").toUInt();
    else
        seed = QRandomGenerator::global()->generate();
    const int count = parser.isSet(countOption) ? parser.value(countOption).toInt()
        : parser.isSet(seedOption)              ? 1
                                                : 500;
    const bool verbose = parser.isSet(verboseOption) || count == 1;
    std::printf("chaos: %d sequences from seed %u (replay one: --seed N)\n", count, seed);
    std::fflush(stdout);
#ifdef KEEPTRYING_CHAOS_DEATH_CALLBACK
    __sanitizer_set_death_callback(printCurrent);
#endif

    int passed = 0;
    int failed = 0;
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < count; ++i) {
        const Sequence sequence = generate(seed + quint32(i));
        g_current = sequence.describe();
        if (count == 1)
            std::printf("%s\n", qPrintable(g_current));
        const QStringList violations = run(sequence, verbose);
        if (violations.isEmpty()) {
            ++passed;
            continue;
        }
        ++failed;
        std::printf("FAIL %s\n  violated:\n    %s\n  replay: --seed %u\n", qPrintable(g_current),
                    qPrintable(violations.join(QStringLiteral("\n    "))), sequence.seed);
        std::fflush(stdout);
    }
    std::printf("chaos: %lld ms\n", clock.elapsed());
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
