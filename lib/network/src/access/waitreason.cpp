// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/giveupreason.h>
#include <KeepTrying/waitreason.h>

#include <QtCore/QDebug>
#include <QtCore/QMetaEnum>

namespace KeepTrying {

WaitReason::WaitReason(Kind kind, const QUrl &origin, qint64 inMs)
    : m_kind(kind), m_origin(originOf(origin))
{
    if (inMs >= 0) {
        m_deadline = QDeadlineTimer(inMs, Qt::PreciseTimer);
        m_until = QDateTime::currentDateTimeUtc().addMSecs(inMs);
    }
}

QUrl WaitReason::originOf(const QUrl &url)
{
    // Already an origin (as the manager passes it): shared, not rebuilt.
    if (!url.hasQuery() && !url.hasFragment() && url.path().isEmpty() && url.userInfo().isEmpty())
        return url;
    QUrl origin;
    origin.setScheme(url.scheme());
    origin.setHost(url.host());
    origin.setPort(url.port());
    return origin;
}

bool WaitReason::isProxyError(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::UnknownProxyError:
        return true;
    default:
        return false;
    }
}

WaitReason WaitReason::offline(const QUrl &origin)
{
    return WaitReason(Offline, origin, -1);
}

WaitReason WaitReason::unreachable(const QUrl &origin)
{
    return WaitReason(Unreachable, origin, -1);
}

WaitReason WaitReason::retryAfter(const QUrl &origin, qint64 inMs)
{
    return WaitReason(RetryAfter, origin, inMs);
}

WaitReason WaitReason::breakerOpen(const QUrl &origin, qint64 inMs)
{
    return WaitReason(BreakerOpen, origin, inMs);
}

WaitReason WaitReason::budgetExhausted(const QUrl &origin, qint64 inMs)
{
    return WaitReason(BudgetExhausted, origin, inMs);
}

WaitReason WaitReason::windowFull(const QUrl &origin, int queuedBehind)
{
    WaitReason reason(WindowFull, origin, -1);
    reason.m_queuedBehind = qMax(0, queuedBehind);
    return reason;
}

WaitReason WaitReason::backoff(const QUrl &origin, qint64 inMs)
{
    return WaitReason(Backoff, origin, inMs);
}

WaitReason WaitReason::authenticating(const QUrl &origin)
{
    return WaitReason(Authenticating, origin, -1);
}

WaitReason WaitReason::withFault(int httpStatus, QNetworkReply::NetworkError error) const
{
    WaitReason reason = *this;
    reason.m_httpStatus = httpStatus;
    reason.m_networkError = error;
    return reason;
}

qint64 WaitReason::remainingMs() const
{
    return m_deadline.isForever() ? -1 : m_deadline.remainingTime();
}

QDebug operator<<(QDebug debug, const WaitReason &reason)
{
    const QDebugStateSaver saver(debug);
    debug.nospace().noquote() << QMetaEnum::fromType<WaitReason::Kind>().valueToKey(reason.kind());
    if (!reason.isWaiting())
        return debug;
    if (reason.remainingMs() >= 0)
        debug << " for " << reason.remainingMs() << " ms";
    if (reason.kind() == WaitReason::WindowFull)
        debug << ", " << reason.queuedBehind() << " ahead";
    if (reason.httpStatus() > 0)
        debug << " (HTTP " << reason.httpStatus() << ')';
    else if (reason.networkError() != QNetworkReply::NoError)
        debug << " ("
              << QMetaEnum::fromType<QNetworkReply::NetworkError>().valueToKey(
                     reason.networkError())
              << ')';
    debug << " to " << reason.origin().toString();
    return debug;
}

GiveUpReason::GiveUpReason(Kind kind, int attempts, int httpStatus,
                           QNetworkReply::NetworkError error, WaitReason::Kind waitingFor)
    : m_kind(kind), m_attempts(attempts), m_httpStatus(httpStatus), m_networkError(error),
      m_waitingFor(waitingFor)
{
}

QDebug operator<<(QDebug debug, const GiveUpReason &reason)
{
    const QDebugStateSaver saver(debug);
    debug.nospace().noquote() << QMetaEnum::fromType<GiveUpReason::Kind>().valueToKey(
        reason.kind());
    if (reason.kind() == GiveUpReason::None)
        return debug;
    debug << " after " << reason.attempts() << (reason.attempts() == 1 ? " attempt" : " attempts");
    if (reason.httpStatus() > 0)
        debug << " (HTTP " << reason.httpStatus() << ')';
    else if (reason.networkError() != QNetworkReply::NoError)
        debug << " ("
              << QMetaEnum::fromType<QNetworkReply::NetworkError>().valueToKey(
                     reason.networkError())
              << ')';
    if (reason.waitingFor() != WaitReason::None)
        debug << ", waiting: "
              << QMetaEnum::fromType<WaitReason::Kind>().valueToKey(reason.waitingFor());
    return debug;
}

} // namespace KeepTrying
