// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Why a request waits, and why it gave up: typed values kept in step with the state.

#include "logging_p.h"
#include "retryingreply_p.h"

#include <algorithm>
#include <climits>

namespace KeepTrying {

WaitReason RetryingReply::waitReason() const
{
    Q_D(const RetryingReply);
    return d->waitReason;
}

GiveUpReason RetryingReply::giveUpReason() const
{
    Q_D(const RetryingReply);
    return d->giveUpReason;
}

WaitReason RetryingReplyPrivate::currentWaitReason() const
{
    if (state == State::BackingOff)
        return backoffReason;
    if (state == State::Authenticating && gate)
        return WaitReason::authenticating(gate->originUrl())
            .withFault(lastFaultStatus, lastFaultError);
    if (state != State::WaitingForGate || !gate)
        return WaitReason();
    const QUrl &url = gate->originUrl();
    WaitReason reason;
    switch (gate->waiting()) {
    case AttemptGate::Wait::None:
        return reason; // granted from the queue: the attempt starts from the event loop
    case AttemptGate::Wait::Connectivity:
        reason = gate->isNetworkOffline() ? WaitReason::offline(url) : WaitReason::unreachable(url);
        break;
    case AttemptGate::Wait::Limit:
        reason = WaitReason::windowFull(url, gate->queuedAhead());
        break;
    case AttemptGate::Wait::Breaker:
        // Half-open: a probe is in flight, and its answer (not a clock) ends the wait.
        reason = WaitReason::breakerOpen(url, gate->isBreakerOpen() ? gate->msUntilProbe() : -1);
        break;
    case AttemptGate::Wait::Budget:
        reason = WaitReason::budgetExhausted(url, std::max<qint64>(1, gate->msUntilBudget()));
        break;
    }
    return reason.withFault(lastFaultStatus, lastFaultError);
}

bool RetryingReplyPrivate::syncWaitSignals()
{
    Q_Q(RetryingReply);
    // Both properties and the reason follow from the state and the gate's wait; say each
    // change once, ends before starts, the reason last. waitReason() is current in every
    // slot. Any signal may end in a slot that deletes this reply.
    if ((state == State::Attempting || state == State::Idle || state == State::Finished) &&
        !waitingForConnectivity && !waitingToRetry && !waitReason.isWaiting() &&
        !announcedWaitReason.isWaiting())
        return true; // not waiting, and nothing was said: most calls (an attempt starts)
    const AttemptGate::Wait wait = gate ? gate->waiting() : AttemptGate::Wait::None;
    const bool toRetry = state == State::BackingOff ||
        (state == State::WaitingForGate &&
         (wait == AttemptGate::Wait::Breaker || wait == AttemptGate::Wait::Budget));
    const bool forConnectivity =
        state == State::WaitingForGate && wait == AttemptGate::Wait::Connectivity;
    if (state == State::BackingOff || state == State::WaitingForGate ||
        state == State::Authenticating || waitReason.isWaiting())
        waitReason = currentWaitReason();
    if (waitingForConnectivity == forConnectivity && waitingToRetry == toRetry &&
        announcedWaitReason == waitReason)
        return true; // nothing to say (most calls: an attempt starts, a request ends)
    const QPointer<RetryingReply> alive(q);
    for (bool starting : { false, true }) {
        if (waitingForConnectivity != forConnectivity && forConnectivity == starting) {
            waitingForConnectivity = forConnectivity;
            if (starting) {
                qCInfo(lcNetwork).nospace()
                    << hop->method() << ' ' << loggableUrl(hop->url()) << " waits for connectivity";
            }
            Q_EMIT q->waitingForConnectivityChanged(starting);
            if (alive && owner())
                owner()->waitingForConnectivity(q, starting);
            if (!alive)
                return false;
        }
        if (waitingToRetry != toRetry && toRetry == starting) {
            waitingToRetry = toRetry;
            if (starting && wait == AttemptGate::Wait::Breaker) {
                qCInfo(lcNetwork).nospace() << hop->method() << ' ' << loggableUrl(hop->url())
                                            << " waits behind the open circuit breaker";
            }
            Q_EMIT q->waitingToRetryChanged(starting);
            if (!alive)
                return false;
        }
    }
    // A slot above may have changed the state again (an abort) and announced that already.
    if (announcedWaitReason != waitReason) {
        announcedWaitReason = waitReason;
        const WaitReason reason = waitReason; // a slot may change the member
        qCDebug(lcNetwork).nospace()
            << hop->method() << ' ' << loggableUrl(hop->url()) << " wait reason: " << reason;
        Q_EMIT q->waitReasonChanged(reason);
        if (alive && owner())
            owner()->waitReasonChanged(q, reason);
        if (!alive)
            return false;
    }
    return true;
}

void RetryingReplyPrivate::giveUp(GiveUpReason::Kind kind)
{
    giveUpReason = GiveUpReason(kind, attempt, lastFaultStatus, lastFaultError, waitReason.kind());
}

GiveUpReason::Kind RetryingReplyPrivate::limitReached(FaultClass limitClass,
                                                      bool timeoutsExhausted) const
{
    if (deadlineReached)
        return GiveUpReason::DeadlineExceeded;
    if (timeoutsExhausted)
        return GiveUpReason::TimeoutsExhausted;
    if (limitClass == FaultClass::Connectivity) {
        if (policy.maxConnectivityAttempts > 0 &&
            connectivityFaultAttempts + 1 >= policy.maxConnectivityAttempts)
            return GiveUpReason::AttemptsExhausted;
    } else if (serverFaultAttempts + 1 >= std::max(1, policy.maxAttempts)) {
        return GiveUpReason::AttemptsExhausted;
    }
    // mayRetry() said no for none of the limits: the request must not be sent again.
    return GiveUpReason::NotReplaySafe;
}

void RetryingReplyPrivate::syncQueueClock()
{
    const AttemptGate::Wait wait = gate->waiting();
    const bool behindOthers = state == State::WaitingForGate &&
        (wait == AttemptGate::Wait::Limit || wait == AttemptGate::Wait::Breaker);
    if (!behindOthers) {
        queueTimer.stop();
        return;
    }
    if (queueTimer.isActive())
        return; // still waiting: its clock runs on
    // The attempt's transfer timeout: the policy's, else the request's, else the manager's
    // (as Qt applies them).
    qint64 timeoutMs = policy.attemptTimeoutMs;
    if (timeoutMs <= 0)
        timeoutMs = q_func()->request().transferTimeout();
    if (timeoutMs <= 0 && manager)
        timeoutMs = manager->transferTimeout();
    if (timeoutMs > 0 && policy.maxTimeoutAttempts > 0)
        queueTimer.start(int(std::min<qint64>(timeoutMs, INT_MAX)), Qt::PreciseTimer, q_func());
}

void RetryingReplyPrivate::onQueueTimeout()
{
    queueTimer.stop();
    if (done || state != State::WaitingForGate)
        return;
    // While the machine is offline a timeout says nothing of the server (as for attempts).
    if (!gate->isNetworkOffline()) {
        if (timeoutAttempts + 1 >= policy.maxTimeoutAttempts) {
            giveUp(GiveUpReason::TimeoutsExhausted);
            finishWithLastAnswer(AttemptOutcome::timedOutWaiting(), QStringLiteral("timed out"));
            return;
        }
        ++timeoutAttempts;
    }
    syncQueueClock();
}

} // namespace KeepTrying
