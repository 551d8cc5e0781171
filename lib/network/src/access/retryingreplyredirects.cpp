// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Redirects are followed by RetryingReply itself, hop by hop (RequestHop has the rules), so
// that a retry goes to the hop that failed.

#include <KeepTrying/retryingreply.h>

#include "retryingreply_p.h"

#include <QtCore/QPointer>

namespace KeepTrying {

void RetryingReplyPrivate::followRedirect()
{
    Q_Q(RetryingReply);
    redirectStatus = current->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    Outcome refusal;
    refusal.error = hop->checkRedirect(current, &redirectTarget, &refusal.errorString);
    if (refusal.error != QNetworkReply::NoError) {
        // The redirect is the answer, with the error Qt would give for it.
        refusal.httpStatus = redirectStatus;
        forwarder.mode = Mode::Holding; // hand its headers and body over in finish()
        finish(refusal, false, QString());
        return;
    }
    releaseAttempt(current);
    const QPointer<RetryingReply> alive(q);
    awaitingRedirectApproval = hop->needsApproval();
    // As plain Qt: in redirected(), url() is already where it goes.
    q->setUrl(redirectTarget);
    Q_EMIT q->redirected(redirectTarget);
    if (!alive || done || awaitingRedirectApproval)
        return; // UserVerifiedRedirectPolicy: redirectAllowed() goes on
    goToRedirect();
}

void RetryingReplyPrivate::goToRedirect()
{
    Q_Q(RetryingReply);
    if (done)
        return;
    hop->moveTo(redirectTarget, redirectStatus);
    gate->setTarget(redirectTarget, policy);
    q->setUrl(redirectTarget);
    // A new hop: its failures are its own, but the attempts count for the whole request.
    forwarder.mode = Mode::Undecided;
    pendingServerRetry = false;
    // Never start an attempt inside another's finished().
    hopTimer.start(0, q);
}

} // namespace KeepTrying
