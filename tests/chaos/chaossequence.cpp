// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "chaossequence.h"

#include <random>

namespace KeepTrying::Chaos {

using Kind = Test::ScriptedFaultServer::Kind;
using ScriptedFaultServer = Test::ScriptedFaultServer;

namespace {

const char *methodName(Method method)
{
    switch (method) {
    case Method::Get:
        return "GET";
    case Method::Head:
        return "HEAD";
    case Method::Put:
        return "PUT";
    case Method::PostKeyless:
        return "POST without Idempotency-Key";
    case Method::PostCallerKey:
        return "POST with the caller's Idempotency-Key";
    case Method::PostPolicyKey:
        return "POST with the policy's Idempotency-Key";
    }
    return "?";
}

const char *momentName(Moment moment)
{
    switch (moment) {
    case Moment::AttemptStarted:
        return "attemptStarted";
    case Moment::RetryScheduled:
        return "retryScheduled (backoff)";
    case Moment::ReadyRead:
        return "readyRead";
    case Moment::MetaDataChanged:
        return "metaDataChanged";
    case Moment::ErrorOccurred:
        return "errorOccurred";
    case Moment::Finished:
        return "finished";
    case Moment::Timer:
        return "timer";
    }
    return "?";
}

} // namespace

QString Sequence::describe() const
{
    QStringList lines;
    lines << QStringLiteral("seed %1: %2, resource %3 bytes, request body %4 bytes")
                 .arg(seed)
                 .arg(QLatin1String(methodName(method)))
                 .arg(resource.size())
                 .arg(requestBody.size());
    lines << QStringLiteral("  policy: maxAttempts %1, maxConnectivityAttempts %2, delay %3..%4 ms "
                            "jitter %5, Retry-After cap %6 ms, waitForConnectivity %7, deadline "
                            "%8 ms, held body %9 B")
                 .arg(policy.maxAttempts)
                 .arg(policy.maxConnectivityAttempts)
                 .arg(policy.initialDelayMs)
                 .arg(policy.maxDelayMs)
                 .arg(int(policy.jitter))
                 .arg(policy.maxRetryAfterMs)
                 .arg(policy.waitForConnectivity)
                 .arg(policy.deadlineMs)
                 .arg(policy.maxHeldBodyBytes);
    QString caller = readInReadyRead
        ? QStringLiteral("  caller: reads %1 B per readyRead").arg(chunk)
        : QStringLiteral("  caller: reads at finished only");
    if (watchProgress)
        caller += QStringLiteral(", watches progress");
    if (cancel != Cancel::None) {
        caller += QStringLiteral(", %1 ").arg(cancel == Cancel::Abort ? QStringLiteral("abort")
                                                                      : QStringLiteral("delete"));
        if (moment == Moment::Timer)
            caller += QStringLiteral("at %1 ms").arg(cancelAtMs);
        else
            caller +=
                QStringLiteral("in %1 #%2").arg(QLatin1String(momentName(moment))).arg(momentIndex);
    }
    for (const auto &o : offline)
        caller += QStringLiteral(", offline at %1 ms for %2 ms").arg(o.first).arg(o.second);
    lines << caller;
    for (qsizetype i = 0; i < script.size(); ++i)
        lines << QStringLiteral("  step %1: %2").arg(i).arg(script.at(i).describe());
    lines << QStringLiteral("  then: plain 200");
    return lines.join(QLatin1Char('\n'));
}

namespace {

QByteArray randomBytes(std::mt19937 &random, qsizetype size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    for (char &c : bytes)
        c = char(random() & 0xff);
    return bytes;
}

// A size: mostly small (cheap under ASan), sometimes several reads' worth.
qsizetype randomSize(std::mt19937 &random, qsizetype max)
{
    switch (random() % 4) {
    case 0:
        return qsizetype(random() % 16);
    case 1:
    case 2:
        return qsizetype(random() % 2048);
    default:
        return qsizetype(random() % max);
    }
}

} // namespace

Sequence generate(quint32 seed)
{
    std::mt19937 random(seed);
    const auto chance = [&random](int percent) { return int(random() % 100) < percent; };
    const auto between = [&random](int low, int high) {
        return low + int(random() % unsigned(high - low + 1));
    };
    Sequence s;
    s.seed = seed;
    s.resource = randomBytes(random, randomSize(random, 48 * 1024));

    const int method = int(random() % 100);
    s.method = method < 40 ? Method::Get
        : method < 50      ? Method::Head
        : method < 65      ? Method::Put
        : method < 78      ? Method::PostKeyless
        : method < 89      ? Method::PostCallerKey
                           : Method::PostPolicyKey;
    if (s.method != Method::Get && s.method != Method::Head)
        s.requestBody = randomBytes(random, randomSize(random, 8 * 1024));

    const bool ranges = chance(60);
    const int steps = between(0, 6);
    for (int i = 0; i < steps; ++i) {
        Behaviour b;
        const int kind = int(random() % 100);
        b.kind = kind < 8 ? Kind::Ok
            : kind < 38   ? Kind::Status
            : kind < 50   ? Kind::ResetBeforeHeaders
            : kind < 62   ? Kind::ResetAfterHeaders
            : kind < 90   ? Kind::ResetMidBody
                          : Kind::Refuse;
        b.acceptRanges = chance(80) ? ranges : !ranges;
        b.honourRange = chance(80);
        if (b.kind == Kind::Status) {
            const int status = int(random() % 3);
            b.status = status == 0 ? 503 : status == 1 ? 429 : 500;
            b.errorBodyBytes = randomSize(random, 4096);
            const int retryAfter = int(random() % 3);
            b.retryAfter = ScriptedFaultServer::RetryAfter(retryAfter);
            b.retryAfterSeconds = retryAfter == 2 ? between(-5, 2) : between(0, 2);
        }
        if (b.kind == Kind::ResetMidBody)
            b.cutAt = s.resource.isEmpty() ? 0 : qint64(random() % quint32(s.resource.size()));
        if (b.kind == Kind::Refuse)
            b.refuseMs = between(5, 40);
        if (chance(20))
            b.latencyMs = between(1, 15);
        if ((b.kind == Kind::Ok || b.kind == Kind::ResetMidBody || b.kind == Kind::Status) &&
            chance(15)) {
            b.dripBytes = std::max(256, int(s.resource.size() / 8));
            b.dripIntervalMs = between(1, 3);
        }
        s.script.append(b);
    }
    Behaviour last;
    last.acceptRanges = ranges;
    s.script.append(last);

    s.readInReadyRead = chance(70);
    s.chunk = chance(50) ? between(1, 512) : between(513, 65536);
    s.watchProgress = chance(50);
    const int cancel = int(random() % 100);
    s.cancel = cancel < 60 ? Cancel::None : cancel < 80 ? Cancel::Abort : Cancel::Delete;
    s.moment = Moment(random() % 7);
    s.momentIndex = between(1, 3);
    if (s.moment == Moment::MetaDataChanged || s.moment == Moment::ErrorOccurred ||
        s.moment == Moment::Finished)
        s.momentIndex = 1;
    if (s.moment == Moment::ReadyRead && !s.readInReadyRead)
        s.moment = Moment::MetaDataChanged; // connecting readyRead would change the reading
    s.cancelAtMs = between(0, 60);
    if (chance(15)) {
        const int toggles = between(1, 2);
        int at = 0;
        for (int i = 0; i < toggles; ++i) {
            at += between(0, 40);
            const int length = between(5, 40);
            s.offline.append({ at, length });
            at += length;
        }
    }

    RetryPolicy &p = s.policy;
    p.maxAttempts = between(1, 6);
    p.maxConnectivityAttempts = between(1, 8);
    p.initialDelayMs = between(0, 4);
    p.multiplier = 1.5;
    p.maxDelayMs = between(int(p.initialDelayMs), 10);
    p.jitter = Jitter(random() % 4);
    p.maxRetryAfterMs = between(0, 20);
    p.waitForConnectivity = chance(25);
    p.deadlineMs = chance(20) ? between(50, 400) : 0;
    p.maxHeldBodyBytes = chance(50) ? between(1, 512) : 64 * 1024;
    p.reconnectStaggerMs = 5;
    p.addIdempotencyKey = s.method == Method::PostPolicyKey;
    return s;
}

} // namespace KeepTrying::Chaos
