// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Credentials that expire: every attempt signed by the request's Authenticator; a 401 held
// while the account's one renewal runs, then sent again once; requests about to start wait
// for a running renewal instead of spending an attempt on a stale token.

#include <KeepTrying/authenticator.h>

#include "authenticator_p.h"
#include "logging_p.h"
#include "retryingreply_p.h"

namespace KeepTrying {

namespace {

// The current hop goes to the account the request was made for (a redirect may lead
// elsewhere: a 401 there is not this account's).
bool sameAccount(const Authenticator &authenticator, const RequestHop &hop, const QString &key)
{
    return authenticator.accountKey(hop.request()) == key;
}

} // namespace

void RetryingReplyPrivate::bindAuthenticator(const QNetworkRequest &request)
{
    if (AuthenticatorPrivate::live.load(std::memory_order_relaxed) == 0)
        return;
    Authenticator *fallback = owner() ? owner()->authenticator.data() : nullptr;
    Authenticator *chosen = AuthenticatorPrivate::of(request, fallback);
    if (!chosen)
        return;
    authKey = chosen->accountKey(request);
    if (authKey.isEmpty())
        return;
    authenticator = chosen;
    // An authenticator that goes while the request waits for it: its 401 is the answer.
    QObject::connect(chosen, &QObject::destroyed, q_func(), [this] {
        if (state == State::Authenticating)
            credentialsRenewed(Authenticator::Rejected);
    });
}

bool RetryingReplyPrivate::waitForCredentials()
{
    if (!authenticator || state == State::Authenticating || !authenticator->isRenewing(authKey) ||
        !sameAccount(*authenticator, *hop, authKey))
        return state == State::Authenticating;
    // New credentials are on their way: an attempt now would carry the stale ones. A slot
    // the window reserved for it goes to the next request (the renewal's, perhaps).
    gate->giveBack();
    state = State::Authenticating;
    AuthenticatorPrivate::get(authenticator)
        ->wait(authKey, q_func(),
               [this](Authenticator::Result result) { credentialsRenewed(result); });
    syncWaitSignals();
    return true;
}

void RetryingReplyPrivate::signAttempt(QNetworkRequest &request)
{
    // After a redirect to another account's origin, the credentials stay behind.
    if (!authenticator || authenticator->accountKey(request) != authKey)
        return;
    signedGeneration = authenticator->generation(authKey);
    authenticator->sign(authKey, request);
}

bool RetryingReplyPrivate::mayRenewCredentials(int status) const
{
    if (status != 401 || !authenticator || authReplayed || done || deadlineReached ||
        !sameAccount(*authenticator, *hop, authKey))
        return false;
    // Renewing helps only when the answer can still be replaced by another.
    if (forwarder.handedOver() > 0 || forwarder.attemptOffset > 0)
        return false;
    if (authenticator->isRejected(authKey) && !authenticator->isRenewing(authKey) &&
        signedGeneration >= authenticator->generation(authKey))
        return false;
    // The replay rules of every retry: a write without an Idempotency-Key, or a body that
    // cannot be read again, is not sent twice; its 401 is the answer.
    return hop->maySendAgain(QNetworkReply::AuthenticationRequiredError, false, true,
                             forwarder.uploaded());
}

bool RetryingReplyPrivate::credentialsRefused(const Outcome &outcome)
{
    Q_Q(RetryingReply);
    if (!authenticator || authReplayed || !sameAccount(*authenticator, *hop, authKey))
        return false;
    const QPointer<Authenticator> auth = authenticator;
    const bool renewedSince = signedGeneration < auth->generation(authKey);
    if (!current || forwarder.mode != Mode::Holding || !mayRenewCredentials(401)) {
        // Delivered as it is (it must not be sent twice): the requests after it need the
        // renewal all the same.
        if (!renewedSince && !auth->isRejected(authKey) && !auth->isRenewing(authKey))
            auth->requestRenewal(authKey);
        return false;
    }
    forwarder.attemptFailed();
    lastErrorString = outcome.errorString;
    lastFaultStatus = outcome.httpStatus;
    lastFaultError = outcome.error;
    // Kept: if the renewal is refused, or the deadline comes first, this 401 is the answer.
    releaseAttempt(held);
    held = std::exchange(current, nullptr);
    forwarder.keepAnswer();
    qCInfo(lcNetwork).nospace() << hop->method() << ' ' << loggableUrl(hop->url())
                                << " was refused (HTTP 401)"
                                << (renewedSince ? "; new credentials are there" : "");
    if (renewedSince) {
        // Signed before the last renewal: the current credentials have not been tried.
        authReplayed = true;
        state = State::Idle;
        hopTimer.start(0, q);
        return true;
    }
    if (!auth->isRenewing(authKey))
        auth->requestRenewal(authKey);
    state = State::Authenticating;
    if (auth && auth->isRenewing(authKey)) {
        AuthenticatorPrivate::get(auth)->wait(
            authKey, q, [this](Authenticator::Result result) { credentialsRenewed(result); });
    } else {
        // The renewal ended before requestRenewal() returned.
        const auto result = auth && signedGeneration < auth->generation(authKey)
            ? Authenticator::Renewed
            : Authenticator::Rejected;
        QMetaObject::invokeMethod(
            q, [this, result] { credentialsRenewed(result); }, Qt::QueuedConnection);
    }
    syncWaitSignals();
    return true;
}

void RetryingReplyPrivate::credentialsRenewed(Authenticator::Result result)
{
    if (done || state != State::Authenticating)
        return;
    state = State::Idle;
    // One replay after a renewal; a request that waited before its first attempt has not
    // been refused yet, unless the renewal was: then its 401 is the answer too.
    if (held || result == Authenticator::Rejected)
        authReplayed = true;
    if (result == Authenticator::Rejected && held) {
        current = std::exchange(held, nullptr);
        forwarder.restoreAnswer();
        finish(Outcome::answerOf(current), false, QString());
        return;
    }
    if (syncWaitSignals())
        startAttempt();
}

} // namespace KeepTrying
