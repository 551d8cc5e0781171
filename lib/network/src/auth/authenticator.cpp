// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/authenticator.h>
#include <KeepTrying/waitreason.h>

#include "authenticator_p.h"
#include "logging_p.h"

#include <algorithm>

namespace KeepTrying {

std::atomic<int> AuthenticatorPrivate::live { 0 };

Authenticator::Authenticator(QObject *parent)
    : QObject(parent), d_ptr(std::make_unique<AuthenticatorPrivate>(this))
{
}

Authenticator::~Authenticator() = default;

QString Authenticator::accountKey(const QNetworkRequest &request) const
{
    const QUrl url = request.url();
    if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        return QString();
    return WaitReason::originOf(url).toString();
}

void Authenticator::requestRenewal(const QString &key)
{
    Q_D(Authenticator);
    if (key.isEmpty())
        return;
    // Waiting to try again after Unavailable is not a renewal running: asked now (a Sign In
    // button), it starts now.
    const auto *account = d->account(key);
    if (account && account->renewing && !(account->retry && account->retry->isActive()))
        return;
    d->start(key);
}

bool Authenticator::isRenewing(const QString &key) const
{
    Q_D(const Authenticator);
    const auto *account = d->account(key);
    return account && account->renewing;
}

bool Authenticator::isRejected(const QString &key) const
{
    Q_D(const Authenticator);
    const auto *account = d->account(key);
    return account && account->rejected;
}

quint64 Authenticator::generation(const QString &key) const
{
    Q_D(const Authenticator);
    const auto *account = d->account(key);
    return account ? account->generation : 0;
}

void Authenticator::setRenewalRetryDelays(qint64 initialMs, qint64 maximumMs)
{
    Q_D(Authenticator);
    d->initialRetryMs = std::max<qint64>(1, initialMs);
    d->maximumRetryMs = std::max(d->initialRetryMs, maximumMs);
}

void Authenticator::excludeRequest(QNetworkRequest &request)
{
    request.setAttribute(AuthenticatorAttribute, QVariant::fromValue<QObject *>(nullptr));
}

void Authenticator::useAuthenticator(QNetworkRequest &request, Authenticator *authenticator)
{
    request.setAttribute(AuthenticatorAttribute, QVariant::fromValue<QObject *>(authenticator));
}

void Authenticator::finishRenewal(const QString &key, Result result)
{
    Q_D(Authenticator);
    const auto it = d->accounts.find(key);
    if (it == d->accounts.end() || !it->renewing)
        return;
    const QPointer<Authenticator> alive(this);
    if (result == Unavailable) {
        // Nothing says the credentials are wrong: keep them, and the requests waiting; ask
        // again after a backoff.
        const int failures = it->failures++;
        qint64 delay = d->initialRetryMs;
        for (int i = 0; i < failures && delay < d->maximumRetryMs; ++i)
            delay *= 2;
        delay = std::min(delay, d->maximumRetryMs);
        if (!it->retry) {
            it->retry = new QTimer(this);
            it->retry->setSingleShot(true);
            connect(it->retry, &QTimer::timeout, this, [d, key] { d->start(key); });
        }
        it->retry->start(int(std::min<qint64>(delay, INT_MAX)));
        qCInfo(lcNetwork) << "credentials renewal unavailable; again in" << delay << "ms";
        Q_EMIT renewalFinished(key, result);
        return;
    }
    it->renewing = false;
    it->failures = 0;
    it->rejected = result == Rejected;
    if (result == Renewed)
        ++it->generation;
    const auto waiters = std::exchange(it->waiters, {});
    qCInfo(lcNetwork) << "credentials renewal" << (result == Renewed ? "done" : "rejected") << ";"
                      << waiters.size() << "requests waited";
    for (const auto &[context, waiter] : waiters) {
        if (!context)
            continue;
        // From the event loop: a reply goes on with its own state, never on our stack.
        QMetaObject::invokeMethod(
            context, [waiter = waiter, result] { waiter(result); }, Qt::QueuedConnection);
    }
    if (alive)
        Q_EMIT renewalFinished(key, result);
}

Authenticator *AuthenticatorPrivate::of(const QNetworkRequest &request, Authenticator *fallback)
{
    const QVariant named = request.attribute(Authenticator::AuthenticatorAttribute);
    if (!named.isValid())
        return fallback;
    return qobject_cast<Authenticator *>(named.value<QObject *>());
}

void AuthenticatorPrivate::wait(const QString &key, QObject *context, Waiter waiter)
{
    Account &account = accounts[key];
    // Replies that went meanwhile (aborted, deleted) leave nothing behind.
    account.waiters.removeIf([](const auto &entry) { return entry.first.isNull(); });
    account.waiters.append({ QPointer<QObject>(context), std::move(waiter) });
}

void AuthenticatorPrivate::start(const QString &key)
{
    Q_Q(Authenticator);
    Account &account = accounts[key];
    if (account.retry)
        account.retry->stop();
    account.renewing = true;
    qCDebug(lcNetwork) << "renewing credentials";
    const QPointer<Authenticator> alive(q);
    Q_EMIT q->renewalStarted(key);
    if (alive)
        q->renew(key);
}

} // namespace KeepTrying
