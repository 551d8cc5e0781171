// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybudget.h>

#include <QtCore/QElapsedTimer>
#include <QtCore/QHash>
#include <QtCore/QMutex>

#include <algorithm>
#include <cmath>

namespace KeepTrying {

class RetryBudgetPrivate
{
public:
    struct Bucket
    {
        double tokens = 0;
        double floorTokens = 0;
        qint64 floorUpdated = 0;
    };

    Bucket &bucket(const QString &key)
    {
        if (lastBucket && lastKey == key)
            return *lastBucket;
        auto it = buckets.find(key);
        if (it == buckets.end()) {
            Bucket b;
            b.tokens = std::max(0.0, settings.maxTokens);
            b.floorTokens = floorCapacity();
            b.floorUpdated = clock();
            it = buckets.insert(key, b); // may move every bucket: lastBucket is set below
        }
        lastBucket = &*it;
        lastKey = key;
        return *it;
    }
    void clearBuckets()
    {
        buckets.clear();
        lastBucket = nullptr;
        lastKey.clear();
    }
    // The floor refills continuously; it holds at most one second's worth (and one retry).
    double floorCapacity() const { return std::max(1.0, settings.minRetriesPerSecond); }
    double floorNow(const Bucket &b) const
    {
        if (!(settings.minRetriesPerSecond > 0))
            return 0;
        const double refill =
            double(clock() - b.floorUpdated) / 1000.0 * settings.minRetriesPerSecond;
        return std::min(floorCapacity(), b.floorTokens + refill);
    }

    // Managers in other threads may share the budget (a QML engine's loader threads): every
    // public function holds the lock for its whole work. It never calls out while locked.
    mutable QMutex mutex;
    RetryBudget::Settings settings;
    std::function<qint64()> clock;
    QHash<QString, Bucket> buckets;
    // The bucket bucket() found last (a request asks for the same one several times; comparing
    // the key costs less than hashing it). Buckets move only when one is added or all go.
    Bucket *lastBucket = nullptr;
    QString lastKey;
};

RetryBudget::RetryBudget(QObject *parent) : QObject(parent), d_ptr(new RetryBudgetPrivate)
{
    Q_D(RetryBudget);
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    d->clock = [timer] { return timer->elapsed(); };
}

RetryBudget::~RetryBudget() = default;

RetryBudget::Settings RetryBudget::settings() const
{
    Q_D(const RetryBudget);
    const QMutexLocker lock(&d->mutex);
    return d->settings;
}

void RetryBudget::setSettings(const Settings &settings)
{
    Q_D(RetryBudget);
    const QMutexLocker lock(&d->mutex);
    d->settings = settings;
    if (!(d->settings.maxTokens > 0))
        d->settings.maxTokens = 1;
    if (!std::isfinite(d->settings.tokenRatio) || d->settings.tokenRatio < 0)
        d->settings.tokenRatio = 0;
    if (!std::isfinite(d->settings.minRetriesPerSecond) || d->settings.minRetriesPerSecond < 0)
        d->settings.minRetriesPerSecond = 0;
    d->clearBuckets();
}

void RetryBudget::setClock(std::function<qint64()> nowMs)
{
    Q_D(RetryBudget);
    const QMutexLocker lock(&d->mutex);
    if (nowMs)
        d->clock = std::move(nowMs);
}

void RetryBudget::recordSuccess(const QString &key)
{
    Q_D(RetryBudget);
    const QMutexLocker lock(&d->mutex);
    if (!d->settings.enabled)
        return;
    auto &b = d->bucket(key);
    b.tokens = std::min(d->settings.maxTokens, b.tokens + d->settings.tokenRatio);
}

void RetryBudget::recordSuccess(const QUrl &url)
{
    recordSuccess(Reachability::originOf(url));
}

void RetryBudget::recordFailure(const QString &key)
{
    Q_D(RetryBudget);
    const QMutexLocker lock(&d->mutex);
    if (!d->settings.enabled)
        return;
    auto &b = d->bucket(key);
    b.tokens = std::max(0.0, b.tokens - 1);
}

void RetryBudget::recordFailure(const QUrl &url)
{
    recordFailure(Reachability::originOf(url));
}

bool RetryBudget::tryRetry(const QString &key)
{
    Q_D(RetryBudget);
    const QMutexLocker lock(&d->mutex);
    if (!d->settings.enabled)
        return true;
    auto &b = d->bucket(key);
    if (b.tokens > d->settings.maxTokens / 2)
        return true;
    const double floor = d->floorNow(b);
    b.floorTokens = floor;
    b.floorUpdated = d->clock();
    if (floor >= 1) {
        b.floorTokens -= 1;
        return true;
    }
    return false;
}

bool RetryBudget::tryRetry(const QUrl &url)
{
    return tryRetry(Reachability::originOf(url));
}

qint64 RetryBudget::msUntilRetry(const QUrl &url) const
{
    Q_D(const RetryBudget);
    const QMutexLocker lock(&d->mutex);
    if (!d->settings.enabled)
        return 0;
    const auto it = d->buckets.constFind(Reachability::originOf(url));
    if (it == d->buckets.constEnd() || it->tokens > d->settings.maxTokens / 2)
        return 0;
    if (!(d->settings.minRetriesPerSecond > 0))
        return 1000; // only successes of other requests can reopen it: look again later
    const double missing = 1 - d->floorNow(*it);
    if (missing <= 0)
        return 0;
    return qint64(std::ceil(missing / d->settings.minRetriesPerSecond * 1000));
}

void RetryBudget::reset(const QString &key)
{
    Q_D(RetryBudget);
    const QMutexLocker lock(&d->mutex);
    d->buckets.remove(key); // recreated full on next use
    d->lastBucket = nullptr; // a removal may move other buckets too
    d->lastKey.clear();
}

void RetryBudget::reset(const QUrl &url)
{
    reset(Reachability::originOf(url));
}

double RetryBudget::tokens(const QUrl &url) const
{
    Q_D(const RetryBudget);
    const QMutexLocker lock(&d->mutex);
    const auto it = d->buckets.constFind(Reachability::originOf(url));
    return it == d->buckets.constEnd() ? d->settings.maxTokens : it->tokens;
}

} // namespace KeepTrying
