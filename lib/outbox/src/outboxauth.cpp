// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The Outbox and credentials that expire: a 401 that an Authenticator renews for is not a
// refusal; the item keeps its place and goes again once the renewal is done.

#include <KeepTrying/authenticator.h>

#include "outbox_p.h"

namespace KeepTrying {

namespace {

// The authenticator \a request names (Authenticator::AuthenticatorAttribute), else the
// manager's: what the manager itself asks (read through the public attribute).
Authenticator *authenticatorOf(const QNetworkRequest &request, Authenticator *fallback)
{
    const QVariant named = request.attribute(Authenticator::AuthenticatorAttribute);
    if (!named.isValid())
        return fallback;
    return qobject_cast<Authenticator *>(named.value<QObject *>());
}

} // namespace

std::optional<qint64> OutboxPrivate::credentialsRetry(const QNetworkReply *reply)
{
    Q_Q(Outbox);
    Authenticator *authenticator =
        authenticatorOf(reply->request(), manager ? manager->authenticator() : nullptr);
    if (!authenticator)
        return std::nullopt;
    const QString key = authenticator->accountKey(reply->request());
    if (key.isEmpty())
        return std::nullopt;
    if (!watchedAuthenticators.contains(authenticator)) {
        watchedAuthenticators.removeAll(nullptr);
        watchedAuthenticators.append(authenticator);
        // Credentials back after a refusal (the user signed in again): the items that wait
        // out their backoff go now, each in its place. After an ordinary renewal nothing
        // waits (they went again at once); flushing then would let two items that keep
        // getting 401 set off each other's renewals without end.
        QObject::connect(authenticator, &Authenticator::renewalFinished, q,
                         [this](const QString &account, Authenticator::Result result) {
                             if (result == Authenticator::Rejected)
                                 refusedAccounts.insert(account);
                             else if (result == Authenticator::Renewed &&
                                      refusedAccounts.remove(account))
                                 q_func()->flush();
                         });
    }
    if (authenticator->isRejected(key) && !authenticator->isRenewing(key))
        refusedAccounts.insert(key);
    // While the renewal runs, at once: the manager holds the item until it ends and signs
    // it anew. Otherwise (refused, or renewed and refused again) after the backoff.
    return authenticator->isRenewing(key) ? 0 : -1;
}

} // namespace KeepTrying
