// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Letting go of an attempt: it is stopped if it still runs, and nothing of it reaches the
// reply again.

#include "retryingreply_p.h"

#include <QtCore/QMetaMethod>

#include <utility>

namespace KeepTrying {

void RetryingReplyPrivate::releaseAttempt(QNetworkReply *&reply)
{
    if (!reply)
        return;
    forwarder.forget(reply);
    if (reply == current)
        gate->giveBack(); // gone without an outcome
    if (!reply->isFinished())
        abortingCurrent = true;
    dispose(std::exchange(reply, nullptr));
}

namespace {

// Stops the transfer of an attempt nobody listens to any more. Qt's HTTP reply may have an
// error of its own queued already (a reset its HTTP thread saw before our abort reached
// it): after abort(), which sets OperationCanceledError, that second error makes Qt warn
// "QNetworkReplyImplPrivate::error: Internal problem, this method must only be called
// once." So an HTTP attempt is stopped the way its abort() and its destructor stop its
// HTTP thread, without the error; other replies (file:, data:) are aborted.
// The signal is looked up once per reply class (per thread: managers may live in several).
void stopTransfer(QNetworkReply *attempt)
{
    struct Lookup
    {
        const QMetaObject *meta = nullptr;
        QMetaMethod abortHttpRequest; // invalid: the class has none
    };
    thread_local Lookup last;
    const QMetaObject *meta = attempt->metaObject();
    if (meta != last.meta) {
        const int index = meta->indexOfSignal("abortHttpRequest()");
        last.meta = meta;
        last.abortHttpRequest = index < 0 ? QMetaMethod() : meta->method(index);
    }
    if (!last.abortHttpRequest.isValid() ||
        !last.abortHttpRequest.invoke(attempt, Qt::DirectConnection))
        attempt->abort();
}

} // namespace

void RetryingReplyPrivate::dispose(QNetworkReply *attempt)
{
    if (!attempt->isFinished()) {
        // Its cancellation must not reach us. (A finished attempt emits nothing more, and
        // ~QObject drops its connections to us: no disconnect for it, a cost per request.)
        QObject::disconnect(attempt, nullptr, q_func(), nullptr);
        stopTransfer(attempt);
    }
    // It may be emitting right now: deleting this reply (its parent) from a slot further
    // down must not delete it on that stack. Qt goes on using an attempt after a slot of
    // its own signals returns. Outside every such slot a finished attempt goes at once (a
    // deferred delete is an event more per request).
    if (AttemptSignalScope::depth == 0 && attempt->isFinished()) {
        delete attempt;
        return;
    }
    // Until then it stays the manager's: Qt's manager deletes its replies before its own
    // state and HTTP thread go, and an attempt left without it (made just now, its start
    // still queued) would later start against a manager that is gone, in a new HTTP thread
    // with its freed state: a quit in the middle of a retry crashed so.
    attempt->setParent(manager);
    attempt->deleteLater();
}

} // namespace KeepTrying
