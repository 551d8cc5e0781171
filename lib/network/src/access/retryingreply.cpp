// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/retryafter.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingreply.h>

#include "attemptgate_p.h"
#include "concurrencylimiter_p.h"
#include "contentrange_p.h"
#include "logging_p.h"
#include "oneshotbody_p.h"
#include "redirectrules_p.h"
#include "retrydelay_p.h"
#include "retryingnetworkaccessmanager_p.h"
#include "retryingreply_p.h"

#include <QtCore/QBuffer>
#include <QtCore/QMetaMethod>
#include <QtCore/QRandomGenerator>
#include <QtCore/QTimerEvent>
#include <QtCore/QUuid>

#include <algorithm>
#include <climits>
#include <cstring>
#include <utility>

namespace KeepTrying {

RetryingReply::RetryingReply(RetryingNetworkAccessManagerPrivate *owner,
                             QNetworkAccessManager::Operation op, const QNetworkRequest &request,
                             QIODevice *outgoingData,
                             std::shared_ptr<const RetryPolicy> sharedPolicy)
    : QNetworkReply(owner->q_func()), d_ptr(new RetryingReplyPrivate(this, std::move(sharedPolicy)))
{
    Q_D(RetryingReply);
    const RetryPolicy &policy = d->policy;
    RetryingNetworkAccessManager *manager = owner->q_func();
    const AttemptGate::Monitors &monitors = owner->attemptMonitors();
    d->manager = owner->self;
    d->managerPrivate = owner;
    d->gate = std::make_unique<AttemptGate>(this, monitors, [d] { d->startAttempt(); });
    d->gate->setWaitChangedHandler([d] { d->syncWaitSignals(); });
    d->gate->setTarget(request.url(), policy);
    d->hop.emplace(op, request, outgoingData, policy, manager->redirectPolicy(),
                   manager->transferTimeout());
    d->bindAuthenticator(request);
    if (d->authenticator)
        d->hop->keepRedirectsOurs(); // each attempt carries credentials

    setRequest(request);
    setOperation(op);
    setUrl(request.url());
    // Unbuffered: every read() reaches readData(), which is where room is made for the
    // next bytes of the attempt when a read buffer size applies.
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);

    if (d->hop->needsApproval()) {
        connect(this, &QNetworkReply::redirectAllowed, this, [d] {
            if (std::exchange(d->awaitingRedirectApproval, false))
                d->goToRedirect();
        });
    }

    d->elapsed.start();
    d->offline = OfflineCopyOffer::forRequest(op, request, owner->offlineCopyStore(),
                                              owner->offlineCopySettings.accountKey);
    if (d->offline) {
        d->offline->setOfferAfterMs(owner->offlineCopySettings.offerAfterMs);
        d->forwarder.keepBody(owner->offlineCopyStore()->maximumCopySize());
        if (d->offline->mayOffer())
            d->offerTimer.start(std::max(0, d->offline->offerAfterMs()), this);
    }
    if (policy.deadlineMs > 0)
        d->deadlineTimer.start(int(std::min<qint64>(policy.deadlineMs, INT_MAX)), Qt::PreciseTimer,
                               this);
    d->startAttempt();
}

void RetryingReply::timerEvent(QTimerEvent *event)
{
    Q_D(RetryingReply);
    const int id = event->timerId();
    if (d->gate && d->gate->handleTimer(id))
        return; // the gate's wait is over: it asked for the next attempt
    if (id == d->retryTimer.timerId()) {
        d->retryTimer.stop();
        d->state = RetryingReplyPrivate::State::Idle; // backoff over: to the gate
        if (d->syncWaitSignals())
            d->startAttempt();
    } else if (id == d->deadlineTimer.timerId()) {
        d->deadlineTimer.stop();
        d->onDeadline();
    } else if (id == d->offlineTimer.timerId()) {
        d->offlineTimer.stop();
        d->onSimulatedOfflineAttempt();
    } else if (id == d->offerTimer.timerId()) {
        d->offerTimer.stop();
        d->offerStaleCopy();
    } else if (id == d->queueTimer.timerId()) {
        d->onQueueTimeout();
    } else if (id == d->hopTimer.timerId()) {
        d->hopTimer.stop();
        d->startAttempt(); // the next hop of a redirect
    } else {
        QNetworkReply::timerEvent(event);
    }
}

RetryingReply::~RetryingReply()
{
    Q_D(RetryingReply);
    d->stopTimers();
    d->gate.reset(); // gives back what it holds, stops any wait
    // A running attempt is cancelled; nothing of it may reach us any more.
    for (QNetworkReply *attempt : { d->current, d->held, d->lastAttempt }) {
        if (attempt)
            d->dispose(attempt);
    }
}

int RetryingReply::attemptCount() const
{
    Q_D(const RetryingReply);
    return d->attempt;
}

bool RetryingReply::isWaitingForConnectivity() const
{
    Q_D(const RetryingReply);
    return d->waitingForConnectivity;
}

bool RetryingReply::isWaitingToRetry() const
{
    Q_D(const RetryingReply);
    return d->waitingToRetry;
}

RetryPolicy RetryingReply::retryPolicy() const
{
    Q_D(const RetryingReply);
    return d->policy;
}

QByteArray RetryingReply::idempotencyKey() const
{
    Q_D(const RetryingReply);
    return d->hop->idempotencyKey();
}

qint64 RetryingReply::requestBodySize() const
{
    Q_D(const RetryingReply);
    return d->hop->bodySize();
}

void RetryingReplyPrivate::startAttempt()
{
    Q_Q(RetryingReply);
    if (done || waitForCredentials())
        return;

    switch (gate->acquire(pendingServerRetry)) {
    case AttemptGate::Result::Granted:
        break;
    case AttemptGate::Result::Waiting:
        // While the request cannot succeed, it waits: no attempt is made, none is spent.
        state = State::WaitingForGate;
        syncQueueClock();
        if (gate->waiting() == AttemptGate::Wait::Connectivity ||
            gate->waiting() == AttemptGate::Wait::Breaker)
            offerStaleCopySoon();
        syncWaitSignals();
        return;
    case AttemptGate::Result::Refused: {
        const Outcome outcome = Outcome::breakerOpen(gate->origin(), gate->msUntilProbe());
        offerStaleCopySoon();
        state = State::Idle;
        if (!syncWaitSignals())
            return;
        // Never finish on the caller's stack: the first attempt starts inside get().
        QMetaObject::invokeMethod(
            q,
            [this, outcome] {
                if (done)
                    return;
                giveUp(GiveUpReason::BreakerOpen);
                finishWithLastAnswer(outcome, QStringLiteral("circuit breaker open"));
            },
            Qt::QueuedConnection);
        return;
    }
    }
    pendingServerRetry = false;
    state = State::Attempting;
    if (queueTimer.isActive())
        queueTimer.stop();
    if (!syncWaitSignals())
        return;
    // The last failed answer stays until a newer one arrives: a deadline during any wait
    // above, or before this attempt's response, still delivers it.

    ++attempt;
    forwarder.beginAttempt();
    qtRedirected = false;
    abortingCurrent = false;

    qCDebug(lcNetwork).nospace() << "attempt " << attempt << ": " << hop->method() << ' '
                                 << loggableUrl(hop->url());
    const QPointer<RetryingReply> alive(q);
    Q_EMIT q->attemptStarted(attempt);
    if (!alive || done)
        return;
    if (owner())
        owner()->attemptStarted(q, attempt);
    if (!alive || done || !owner())
        return;

    if (gate->isSimulatedOffline()) {
        // Fail as an unreachable network would, but never on the caller's stack.
        offerStaleCopySoon();
        offlineTimer.start(0, q);
        return;
    }

    QNetworkRequest r = hop->request();
    QIODevice *upload =
        hop->prepare(r, attempt, forwarder.handedOver(), forwarder.validator(), policy, q);
    signAttempt(r);
    // A device made for this attempt lives exactly as long as the attempt that reads it.
    QIODevice *ours = upload && upload->parent() == q ? upload : nullptr;
    if (offline)
        offline->addValidators(r, forwarder.handedOver());
    attemptClock.start();
    QNetworkReply *reply = owner()->createAttempt(hop->operation(), r, upload);
    reply->setParent(q);
    if (ours)
        ours->setParent(reply);
    if (readBufferSize > 0)
        reply->setReadBufferSize(readBufferSize);
#if QT_CONFIG(ssl)
    if (ignoreAllSslErrors)
        reply->ignoreSslErrors();
    else if (!ignoredSslErrors.isEmpty())
        reply->ignoreSslErrors(ignoredSslErrors);
#endif
    current = reply;
    forwarder.connectAttempt(reply);
    gate->attemptStarted(reply);
}

void RetryingReplyPrivate::onMetaDataChanged(bool signalled)
{
    if (!current || forwarder.mode == Mode::Holding || forwarder.mode == Mode::Redirecting)
        return;
    if (forwarder.mode == Mode::Forwarding) {
        // A later update of the same response.
        if (forwarder.attemptOffset == 0)
            forwarder.forward(current);
        return;
    }

    const int status = current->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status <= 0)
        return; // Qt announces failed connections too: nothing to decide or forward yet
    if (RedirectRules::isRedirect(status) && hop->qtFollowsRedirects() && !current->isFinished()) {
        // A redirect Qt follows (or, finished, refuses: then it is the answer).
        qtRedirected = true;
        if (signalled)
            showRedirect();
        return;
    }
    if (RedirectRules::isRedirect(status) && qtRedirected && !signalled) {
        // A redirect Qt refused at its end (too many, less safe), shown already: the answer.
        forwarder.forwardShown();
        return;
    }
    const FaultClass fault = policy.classify(QNetworkReply::NoError, status);
    // The server has answered: the window counts requests it is working on, not bodies on
    // their way. A long download or an event stream must not hold a slot (with a window of
    // one, every other request to the origin) until it ends.
    gate->answered(fault);
    if (status == 304 && offline && offline->revalidates()) {
        forwarder.mode = Mode::Holding; // our copy is confirmed: it becomes the answer
        return;
    }
    if (RedirectRules::isRedirect(status) && hop->followsRedirects() &&
        current->hasRawHeader("Location")) {
        forwarder.mode = Mode::Redirecting; // followed once it has finished
        showRedirect();
        return;
    }
    const bool is2xx = status >= 200 && status < 300;
    // A resume (bytes were handed over) answered with anything but the rest of the body:
    // that answer never joins the caller's stream; the accessors keep it.
    const bool resuming = forwarder.attemptOffset > 0;
    if (resuming && !is2xx)
        forwarder.recordResumeAnswer(current);
    const bool customDecides = policy.shouldRetry && status >= 400;
    if (mayRenewCredentials(status) ||
        ((fault == FaultClass::Server || customDecides) &&
         mayRetry(fault == FaultClass::Server ? fault : FaultClass::Permanent,
                  QNetworkReply::NoError))) {
        // Perhaps sent again: the caller sees this response only if it turns out to be the last.
        forwarder.mode = Mode::Holding;
        return;
    }

    if (resuming && is2xx) {
        if (forwarder.continueBody(current))
            return;
        // The server sent something else than the rest of the same body (the whole
        // resource again, another range, another version).
        forwarder.recordResumeAnswer(current);
        const Outcome outcome = Outcome::resumeRefused(forwarder.handedOver(), current);
        releaseAttempt(current);
        finish(outcome, false, QString());
        return;
    }
    if (resuming) {
        // A final status (404, 410, 416, a last 503) ends the request, and not as the answer:
        // the caller's bytes stay those of the first response (finish() says so).
        forwarder.mode = Mode::Holding;
        return;
    }

    // The answer the caller gets.
    if (offline && offline->wasOffered() && status < 400)
        q_func()->setAttribute(OfflineCopy::IsStaleAttribute, false);
    forwarder.mode = Mode::Forwarding;
    forwarder.forward(current);
}

void RetryingReplyPrivate::showRedirect()
{
    Q_Q(RetryingReply);
    forwarder.copyMetaData(current);
    Q_EMIT q->metaDataChanged();
}

void RetryingReplyPrivate::onReadyRead()
{
    if (forwarder.mode == Mode::Undecided) {
        const QPointer<RetryingReply> alive(q_func());
        onMetaDataChanged(false); // its metaDataChanged() may end in a slot that deletes us
        if (!alive)
            return;
    }
    if (current)
        forwarder.readyRead(current);
}

QNetworkReply *RetryingReplyPrivate::goneOffline()
{
    if (done || state != State::Attempting || !current)
        return nullptr;
    // A write without a key that may have reached the server is left to finish: cutting it
    // would make resending it unsafe (and not resending it lose the answer).
    if (!hop->maySendAgain(QNetworkReply::UnknownNetworkError, false, true, forwarder.uploaded()))
        return current;
    forwarder.attemptFailed(); // keeps what was handed over and not yet read
    releaseAttempt(current); // cancelled, and nothing taught to the monitors
    attemptEnded(Outcome::simulatedOffline());
    return nullptr;
}

void RetryingReplyPrivate::onSimulatedOfflineAttempt()
{
    gate->giveBack(); // nothing was sent
    attemptEnded(Outcome::simulatedOffline());
}

void RetryingReplyPrivate::onFinished()
{
    if (!current)
        return;
    if (forwarder.mode == Mode::Undecided) {
        const QPointer<RetryingReply> alive(q_func());
        onMetaDataChanged(false); // its metaDataChanged() may end in a slot that deletes us
        if (!alive)
            return;
    }
    if (!current)
        return; // onMetaDataChanged() ended the request

    if (forwarder.mode == Mode::Redirecting) {
        // The redirect was answered whole enough: its headers say where to go.
        Outcome answer;
        answer.httpStatus = current->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        teachMonitors(answer, FaultClass::None);
        followRedirect();
        return;
    }
    AttemptOutcome::Facts facts;
    facts.aborted = abortingCurrent;
    facts.oneShotBody = hop->isOneShot();
    facts.method = hop->method();
    facts.forwarded = forwarder.mode == Mode::Forwarding;
    facts.bodyEnd = forwarder.bodyEndOf(current);
    facts.expectedEnd = forwarder.attemptEnd;
    facts.redirectedByQt = qtRedirected;
    const Outcome outcome = AttemptOutcome::of(current, facts);
    attemptEnded(outcome);
}

bool RetryingReplyPrivate::mayRetry(FaultClass fault, QNetworkReply::NetworkError error,
                                    bool neverProcessed) const
{
    if (deadlineReached || done)
        return false;
    switch (fault) {
    case FaultClass::None:
        return false;
    case FaultClass::Connectivity:
        if (policy.maxConnectivityAttempts > 0 &&
            connectivityFaultAttempts + 1 >= policy.maxConnectivityAttempts)
            return false;
        break;
    case FaultClass::Server:
    case FaultClass::Permanent: // only reached when a custom shouldRetry() asks for it
        if (serverFaultAttempts + 1 >= std::max(1, policy.maxAttempts))
            return false;
        break;
    }

    // A simulated offline attempt has no reply and sent nothing.
    return hop->maySendAgain(error, neverProcessed, current != nullptr, forwarder.uploaded());
}

void RetryingReplyPrivate::teachMonitors(const Outcome &outcome, FaultClass fault)
{
    // What this attempt learnt about its origin serves every request to it.
    if (!current)
        return;
    AttemptGate::Lesson lesson;
    lesson.httpStatus = outcome.httpStatus;
    lesson.fault = fault;
    lesson.neverProcessed = outcome.neverProcessed;
    lesson.error = current->error();
    if (qtRedirected && !RedirectRules::isSameOrigin(current->url(), hop->url())) {
        // Qt followed a redirect to another origin: this one answered with the redirect,
        // what came after is not its own.
        lesson = AttemptGate::Lesson();
        lesson.httpStatus = 300;
        lesson.fault = FaultClass::None;
        lesson.error = QNetworkReply::NoError;
    }
    gate->release(lesson);
}

void RetryingReplyPrivate::attemptEnded(const Outcome &outcome)
{
    const FaultClass fault = outcome.neverProcessed
        ? FaultClass::Connectivity
        : policy.classify(outcome.error, outcome.httpStatus);
    teachMonitors(outcome, fault);
    if (outcome.httpStatus == 401 && credentialsRefused(outcome))
        return;
    if (fault == FaultClass::None) {
        if (outcome.httpStatus == 304 && offline && offline->revalidates()) {
            if (answerWithCopy())
                return;
            // A 304 for another version than ours: the caller asked without conditions, so
            // ask again without them rather than hand over a 304 (RFC 9111 §4.3.4).
            offline->dropCopy();
            releaseAttempt(current);
            forwarder.mode = Mode::Undecided;
            state = State::Idle;
            hopTimer.start(0, q_func());
            return;
        }
        finish(outcome, false, QString());
        return;
    }
    forwarder.attemptFailed();
    if (qtRedirected && current && current->url() != hop->url()) {
        // Qt followed redirects within the attempt: the retry goes to the hop that failed.
        const QUrl failedHop = current->url();
        hop->continueAt(failedHop);
        gate->setTarget(failedHop, policy);
        setReplyUrl(failedHop);
    }
    lastErrorString = outcome.errorString; // ours where Qt's misleads (a short body)
    lastFaultStatus = outcome.httpStatus;
    lastFaultError = outcome.error;

    RetryContext context;
    context.attempt = attempt;
    context.error = outcome.error;
    context.httpStatus = outcome.httpStatus;
    if (current)
        context.headers = current->rawHeaderPairs();
    context.fault = fault;
    context.method = hop->method();
    context.url = hop->url();
    context.elapsedMs = elapsed.elapsed();
    context.previousDelayMs = previousDelayMs;

    bool retryable = fault != FaultClass::Permanent;
    // A handshake Qt refused (a certificate error not ignored, no protocol or cipher in
    // common) comes back the same from the same server: only the caller's
    // ignoreSslErrors(), in answer to the sslErrors() it had, gets past it. Never retried,
    // whatever a custom shouldRetry() would say.
    const bool handshakeRefused = outcome.error == QNetworkReply::SslHandshakeFailedError;
    if (policy.shouldRetry && outcome.error != QNetworkReply::OperationCanceledError &&
        !handshakeRefused)
        retryable = policy.shouldRetry(context);
    // A custom "retry" of a permanent fault is counted against maxAttempts.
    const FaultClass limitClass =
        fault == FaultClass::Connectivity ? FaultClass::Connectivity : FaultClass::Server;
    const QString reason =
        AttemptOutcome::describe(outcome.error, outcome.httpStatus, gate->isSimulatedOffline());

    // The server accepted and sent nothing for the transfer timeout: the network is up, so
    // waiting does not help; a finite number of such attempts (not counted while the machine
    // is offline, when a timeout says nothing of the server).
    const bool timedOut = limitClass == FaultClass::Connectivity &&
        outcome.error == QNetworkReply::TimeoutError && !gate->isNetworkOffline();
    const bool timeoutsExhausted = timedOut && policy.maxTimeoutAttempts > 0 &&
        timeoutAttempts + 1 >= policy.maxTimeoutAttempts;
    if (retryable && forwarder.handedOver() > 0 && !forwarder.isResumable()) {
        // Body bytes already reached the caller and cannot be continued: never send them
        // twice. (The last answer of a spent limit is forwarded too: that limit is why.)
        const GiveUpReason::Kind limit = limitReached(limitClass, timeoutsExhausted);
        giveUp(limit == GiveUpReason::NotReplaySafe ? GiveUpReason::NotResumable : limit);
        finish(outcome, true, reason);
        return;
    }
    if (!retryable) {
        finish(outcome, false, reason);
        return;
    }
    if (!mayRetry(limitClass, outcome.error, outcome.neverProcessed) || timeoutsExhausted) {
        giveUp(limitReached(limitClass, timeoutsExhausted));
        finish(outcome, true, reason);
        return;
    }
    if (timedOut)
        ++timeoutAttempts;
    if (limitClass == FaultClass::Connectivity) {
        ++connectivityFaultAttempts;
    } else {
        ++serverFaultAttempts;
        pendingServerRetry = true;
    }
    scheduleRetry(context);
}

void RetryingReplyPrivate::scheduleRetry(const RetryContext &failed)
{
    Q_Q(RetryingReply);
    RetryContext context = failed;
    const qint64 left = policy.deadlineMs - elapsed.elapsed();
    // The failed attempts counted so far (this one included): a redirect's hops are not.
    const int retry = std::max(1, serverFaultAttempts + connectivityFaultAttempts);
    const qint64 delay = chooseRetryDelay(policy, context, retry, policy.deadlineMs > 0 ? left : -1,
                                          attemptClock.isValid() ? attemptClock.elapsed() : 0);
    const QString reason =
        AttemptOutcome::describe(context.error, context.httpStatus, gate->isSimulatedOffline());
    const bool mayWait = policy.waitForConnectivity || policy.deadlineMs > 0;
    if (!mayWait && gate->isBreakerOpen() && gate->msUntilProbe() > delay) {
        // The breaker would refuse this retry: end with the answer we have rather than
        // announce a retry that cannot come.
        giveUp(GiveUpReason::BreakerOpen);
        finish(lastAnswer(context), true, QStringLiteral("circuit breaker open"));
        return;
    }
    if (policy.deadlineMs > 0 && delay >= left) {
        // Waiting would end past the deadline (a Retry-After beyond it, or no time left for
        // an attempt): stop now rather than sleep to fail.
        const Outcome outcome = context.httpStatus == 0
            ? Outcome::deadlineBeforeNextAttempt(policy.deadlineMs, attempt, reason)
            : lastAnswer(context);
        giveUp(GiveUpReason::DeadlineExceeded);
        finish(outcome, true, QStringLiteral("deadline"));
        return;
    }

    // Keep a held error response: if the deadline strikes while we wait, it is the answer.
    if (current && forwarder.mode == Mode::Holding) {
        releaseAttempt(held);
        held = current;
        forwarder.keepAnswer();
        current = nullptr; // finished: it emits nothing more
    } else {
        releaseAttempt(current);
    }
    previousDelayMs = delay;
    // Made before the timer starts, so the timer never fires before the announced end.
    const bool serverAsked = context.retryAfterMs >= 0 && delay == context.retryAfterMs;
    backoffReason = (serverAsked ? WaitReason::retryAfter(gate->originUrl(), delay)
                                 : WaitReason::backoff(gate->originUrl(), delay))
                        .withFault(lastFaultStatus, lastFaultError);
    qCInfo(lcNetwork).nospace() << "attempt " << attempt << " of " << hop->method() << ' '
                                << loggableUrl(hop->url()) << " failed (" << reason
                                << "), retrying in " << delay << " ms";

    retryTimer.start(int(std::min<qint64>(delay, INT_MAX)), Qt::PreciseTimer, q);
    state = State::BackingOff;
    const QPointer<RetryingReply> alive(q);
    if (!syncWaitSignals() || done)
        return;
    Q_EMIT q->retryScheduled(attempt, delay, reason);
    if (alive && !done && owner())
        owner()->retryScheduled(q, attempt, delay, reason);
}

void RetryingReplyPrivate::onDeadline()
{
    if (done)
        return;
    deadlineReached = true;
    giveUp(GiveUpReason::DeadlineExceeded); // with what it was waiting for, if anything
    retryTimer.stop();
    offlineTimer.stop();
    gate->stopWaiting();
    state = State::Idle;
    if (!syncWaitSignals())
        return;

    const Outcome outcome = Outcome::deadlinePassed(policy.deadlineMs, attempt);
    if (current && forwarder.mode == Mode::Forwarding) {
        // The caller has this attempt's answer already: it ends with the deadline's error.
        releaseAttempt(held);
        releaseAttempt(current);
    } else if (held) {
        // The last complete answer is the answer; one still arriving is not yet.
        releaseAttempt(current);
    } else if (current && forwarder.mode == Mode::Holding) {
        // The only answer is still arriving: it is the answer, with what came of its body.
        const int status = current->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        QObject::disconnect(current, nullptr, q_func(), nullptr);
        abortingCurrent = true;
        current->abort(); // the caller gets the held part of its body, nothing more
        finish(Outcome::deadlineWhileAnswering(policy.deadlineMs, status), true,
               QStringLiteral("deadline"));
        return;
    }
    finishWithLastAnswer(outcome, QStringLiteral("deadline"));
}

void RetryingReplyPrivate::finishWithLastAnswer(Outcome outcome, const QString &reason)
{
    if (held && !current) {
        // The last attempt's error response is a better answer than a bare error of ours.
        current = std::exchange(held, nullptr);
        forwarder.restoreAnswer();
        outcome = Outcome::answerOf(current);
    } else {
        releaseAttempt(current);
    }
    finish(outcome, true, reason);
}

void RetryingReplyPrivate::finish(const Outcome &decided, bool gaveUp, const QString &reason)
{
    Q_Q(RetryingReply);
    if (done)
        return;
    Outcome outcome = streamOutcome(decided);
    done = true;
    stopTimers();
    gate->stopWaiting();
    if (!current || current->isFinished())
        gate->giveBack(); // reserved, never used
    state = State::Finished;
    // Every signal below may end in a slot that deletes this reply, or that aborts it, which
    // ends it at once: stop if either happens.
    if (!syncWaitSignals() || q->isFinished())
        return;

    // No response ended the request: the headers of one discarded on the way (a 200 whose
    // body broke off before any of it was handed over) are not its answer.
    if (outcome.httpStatus == 0 && outcome.error != QNetworkReply::OperationCanceledError &&
        !forwarder.clearUnanswered())
        return;
    if (outcome.transferTimedOut && policy.attemptTimeoutMs <= 0) {
        // The caller's own transfer timeout ends the request as it ends under plain Qt.
        outcome.error = QNetworkReply::OperationCanceledError;
        outcome.errorString = outcome.qtErrorString;
    }
    if (current) {
        if (!current->isFinished())
            QObject::disconnect(current, nullptr, q, nullptr);
        lastAttempt = std::exchange(current, nullptr);
        if (!forwarder.deliver(lastAttempt, outcome.httpStatus > 0))
            return;
    }
    releaseAttempt(held);
    announceEnd(outcome, gaveUp, reason);
}

RetryingReplyPrivate::Outcome RetryingReplyPrivate::streamOutcome(const Outcome &outcome) const
{
    // Once bytes of a 2xx were handed over, the reply describes them: an answer that ended
    // a resume (a 410, a last 503, one the deadline or the breaker stopped at) is not the
    // reply's status, and its body never follows those bytes.
    const int stream = forwarder.streamStatus();
    const bool answerOfAResume = outcome.httpStatus > 0 &&
        (outcome.httpStatus < 200 || outcome.httpStatus >= 300) && stream >= 200 && stream < 300;
    if (!answerOfAResume || outcome.error == QNetworkReply::OperationCanceledError)
        return outcome;
    const auto *answer = forwarder.resumeAnswer();
    Outcome cut = Outcome::resumeAnswered(
        forwarder.handedOver(), forwarder.completeLength(), outcome.httpStatus,
        answer && answer->status == outcome.httpStatus ? answer->reason : QByteArray());
    cut.httpStatus = stream;
    return cut;
}

void RetryingReplyPrivate::announceEnd(const Outcome &outcome, bool gaveUp, const QString &reason)
{
    Q_Q(RetryingReply);
    const QPointer<RetryingReply> alive(q);
    // A slot below may abort the reply, which announces the end itself: then nothing more.
    const auto over = [&] { return !alive || q->isFinished(); };
    if (offline && outcome.httpStatus > 0)
        keepOfflineCopy(outcome.error == QNetworkReply::NoError);
    if (owner() && !std::exchange(endCounted, true))
        owner()->ended(outcome.error == QNetworkReply::NoError, gaveUp, elapsed.elapsed());

    if (gaveUp) {
        qCInfo(lcNetwork).nospace()
            << "gave up on " << hop->method() << ' ' << loggableUrl(hop->url()) << " after "
            << attempt << (attempt == 1 ? " attempt: " : " attempts: ") << reason;
        Q_EMIT q->gaveUp(reason);
        if (alive && !q->isFinished() && owner())
            owner()->gaveUp(q, reason);
        if (over())
            return;
    }
    // An abort() inside errorOccurred() finishes the reply with the error it announced.
    if (outcome.error != QNetworkReply::NoError && !std::exchange(errorAnnounced, true)) {
        q->setError(outcome.error, outcome.errorString);
        Q_EMIT q->errorOccurred(outcome.error);
        if (over())
            return;
    }
    // Qt closes a reply's upload progress with (0, 0); the failed attempts' were held back.
    if (forwarder.uploadClosed() && outcome.error != QNetworkReply::OperationCanceledError) {
        Q_EMIT q->uploadProgress(0, 0);
        if (over())
            return;
    }
    q->setFinished(true);
    Q_EMIT q->finished();
}

void RetryingReply::abort()
{
    Q_D(RetryingReply);
    if (isFinished())
        return;
    if (d->done && d->errorAnnounced) {
        // From a slot of errorOccurred(): the reply has its answer and its error; it
        // finishes now, keeping both (the caller may still read the body).
        d->announceEnd(RetryingReplyPrivate::Outcome::canceled(), false, QString());
        return;
    }
    // Qt's own replies close the device and finish synchronously, before abort() returns;
    // so do we, from a slot of a signal the reply emits while it finishes too.
    d->forwarder.forget(nullptr);
    d->releaseAttempt(d->current);
    d->releaseAttempt(d->held);
    QNetworkReply::close();
    if (d->done)
        d->announceEnd(RetryingReplyPrivate::Outcome::canceled(), false, QString());
    else
        d->finish(RetryingReplyPrivate::Outcome::canceled(), false, QString());
}

void RetryingReply::close()
{
    Q_D(RetryingReply);
    if (d->done) {
        QNetworkReply::close();
        return;
    }
    abort();
}

} // namespace KeepTrying
