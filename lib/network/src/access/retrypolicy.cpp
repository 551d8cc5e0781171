// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/retrypolicy.h>

#include <QtCore/QRandomGenerator>

#include <algorithm>
#include <cmath>
#include <limits>

namespace KeepTrying {

RetryPolicy::RetryPolicy() = default;

RetryPolicy RetryPolicy::never()
{
    RetryPolicy policy;
    policy.maxAttempts = 1;
    policy.maxConnectivityAttempts = 1;
    policy.maxTimeoutAttempts = 1;
    policy.waitForConnectivity = false; // exactly one attempt, never a wait without one
    return policy;
}

QSet<int> RetryPolicy::defaultRetryableStatusCodes()
{
    return { 408, 425, 429, 500, 502, 503, 504 };
}

FaultClass RetryPolicy::classify(QNetworkReply::NetworkError error, int httpStatus) const
{
    if (httpStatus > 0) {
        // A response arrived: the status decides, whatever Qt made of it.
        if (httpStatus < 400 && error == QNetworkReply::NoError)
            return FaultClass::None;
        if (retryableStatusCodes.contains(httpStatus) && httpStatus != 501 && httpStatus != 505)
            return FaultClass::Server;
        if (httpStatus >= 400)
            return FaultClass::Permanent;
        // A 1xx-3xx with a transport error: the body broke off; fall through on the error.
    }

    switch (error) {
    case QNetworkReply::NoError:
        return FaultClass::None;
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::TimeoutError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::UnknownNetworkError:
    case QNetworkReply::UnknownProxyError:
        return FaultClass::Connectivity;
    default:
        // TLS failures, user aborts, protocol errors, ContentReSend, redirects gone wrong.
        return FaultClass::Permanent;
    }
}

qint64 RetryPolicy::backoffDelay(int retry, qint64 previousDelayMs, QRandomGenerator *random) const
{
    QRandomGenerator *rng = random ? random : QRandomGenerator::global();
    const double cap = double(std::max<qint64>(0, maxDelayMs));
    const double initial = std::min(cap, double(std::max<qint64>(0, initialDelayMs)));
    const double growth = (std::isfinite(multiplier) && multiplier >= 1.0) ? multiplier : 1.0;
    const int exponent = std::max(0, retry - 1);

    // Stop multiplying once the cap is reached, so no power can overflow to inf or NaN.
    double base = initial;
    for (int i = 0; i < exponent && base < cap; ++i)
        base *= growth;
    base = std::min(base, cap);

    const auto uniform = [rng](double low, double high) {
        return high <= low ? low : low + rng->generateDouble() * (high - low);
    };

    double delay = base;
    switch (jitter) {
    case Jitter::None:
        break;
    case Jitter::Full:
        delay = uniform(0, base);
        break;
    case Jitter::Equal:
        delay = base / 2 + uniform(0, base / 2);
        break;
    case Jitter::Decorrelated: {
        const double previous = std::clamp(double(previousDelayMs), initial, cap);
        delay = std::min(cap, uniform(initial, std::min(cap, previous * 3)));
        break;
    }
    }
    delay = std::clamp(delay, 0.0, cap);
    // double(qint64 max) rounds up past qint64: at the cap, answer the cap itself.
    if (delay >= double(std::numeric_limits<qint64>::max()))
        return std::max<qint64>(0, maxDelayMs);
    return qint64(delay);
}

bool RetryPolicy::isIdempotentMethod(const QByteArray &method)
{
    static constexpr QByteArrayView idempotent[] = { "GET",   "HEAD", "OPTIONS",
                                                     "TRACE", "PUT",  "DELETE" };
    return std::any_of(std::begin(idempotent), std::end(idempotent), [&](QByteArrayView name) {
        return method.compare(name, Qt::CaseInsensitive) == 0;
    });
}

} // namespace KeepTrying
