// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The Outbox and credentials that expire: a 401 that an Authenticator renews for is not a
// refusal; the item keeps its place and goes again once the renewal is done.

#include <KeepTrying/authenticator.h>

#include "authenticator_p.h"
#include "outbox_p.h"

namespace KeepTrying {

std::optional<qint64> OutboxPrivate::credentialsRetry(const QNetworkReply *reply)
{
    Q_Q(Outbox);
    Authenticator *authenticator =
        AuthenticatorPrivate::of(reply->request(), manager ? manager->authenticator() : nullptr);
    if (!authenticator)
        return std::nullopt;
    const QString key = authenticator->accountKey(reply->request());
    if (key.isEmpty())
        return std::nullopt;
    if (!watchedAuthenticators.contains(authenticator)) {
        watchedAuthenticators.removeAll(nullptr);
        watchedAuthenticators.append(authenticator);
        // New credentials: the items a 401 held back go now, each in its place.
        QObject::connect(authenticator, &Authenticator::renewalFinished, q,
                         [q](const QString &, Authenticator::Result result) {
                             if (result == Authenticator::Renewed)
                                 q->flush();
                         });
    }
    if (authenticator->isRejected(key) && !authenticator->isRenewing(key))
        return -1;
    return 0;
}

} // namespace KeepTrying
