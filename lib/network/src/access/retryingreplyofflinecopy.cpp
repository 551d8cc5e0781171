// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// RetryingReply's offline copy: a GET that opted in (OfflineCopy::ModeAttribute) offers its
// stored copy when it cannot be answered fresh soon, is answered with it after a 304 to its
// validators, and stores a fresh 2xx.

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/retryingreply.h>

#include "logging_p.h"
#include "retryingreply_p.h"

namespace KeepTrying {

bool RetryingReply::hasStaleCopy() const
{
    Q_D(const RetryingReply);
    return d->offline && d->offline->wasOffered();
}

QByteArray RetryingReply::staleCopyBody() const
{
    Q_D(const RetryingReply);
    return hasStaleCopy() ? d->offline->copy()->body : QByteArray();
}

int RetryingReply::staleCopyStatus() const
{
    Q_D(const RetryingReply);
    return hasStaleCopy() ? d->offline->copy()->status : 0;
}

QList<QNetworkReply::RawHeaderPair> RetryingReply::staleCopyHeaders() const
{
    Q_D(const RetryingReply);
    return hasStaleCopy() ? d->offline->copy()->headers : QList<RawHeaderPair>();
}

QDateTime RetryingReply::staleCopyStoredAt() const
{
    Q_D(const RetryingReply);
    return hasStaleCopy() ? d->offline->copy()->storedAt : QDateTime();
}

void RetryingReplyPrivate::offerStaleCopySoon()
{
    // Never on the caller's stack: the first attempt starts inside get().
    if (offline && offline->mayOffer())
        offerTimer.start(0, q_func());
}

void RetryingReplyPrivate::offerStaleCopy()
{
    Q_Q(RetryingReply);
    // A response being forwarded is the fresh answer arriving: nothing stale to offer.
    if (done || !offline || !offline->mayOffer() || forwarder.mode == Mode::Forwarding)
        return;
    const qint64 age = offline->offer();
    q->setAttribute(OfflineCopy::IsStaleAttribute, true);
    q->setAttribute(OfflineCopy::StoredAtAttribute, offline->copy()->storedAt);
    q->setAttribute(OfflineCopy::AgeAttribute, age);
    qCInfo(lcNetwork).nospace() << "offering the offline copy of " << loggableUrl(hop->url())
                                << ", " << age << " s old";
    Q_EMIT q->staleCopyOffered(age);
}

bool RetryingReplyPrivate::answerWithCopy()
{
    Q_Q(RetryingReply);
    const auto copy = offline->revalidated(offlineCopyStore(), offlineCopyAccount(), current);
    if (!copy)
        return false;
    releaseAttempt(current);
    if (offline->wasOffered())
        q->setAttribute(OfflineCopy::IsStaleAttribute, false);
    if (!forwarder.deliverCopy(copy->status, copy->headers, copy->body))
        return true;
    Outcome outcome;
    outcome.httpStatus = copy->status;
    finish(outcome, false, QString());
    return true;
}

void RetryingReplyPrivate::keepOfflineCopy(bool succeeded)
{
    Q_Q(RetryingReply);
    const int status = q->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 404 || status == 410) {
        offline->gone(offlineCopyStore(), offlineCopyAccount());
        return;
    }
    if (!succeeded || status < 200 || status >= 300 || status == 206)
        return; // a body cut short, or not the resource's
    if (const auto body = forwarder.wholeBody())
        offline->keep(offlineCopyStore(), offlineCopyAccount(), status, q->rawHeaderPairs(), *body);
}

} // namespace KeepTrying
