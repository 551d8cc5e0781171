// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "retrydelay_p.h"

#include <KeepTrying/retryafter.h>

#include <algorithm>

namespace KeepTrying {

qint64 chooseRetryDelay(const RetryPolicy &policy, RetryContext &context, int retry, qint64 msLeft,
                        qint64 lastAttemptMs)
{
    context.backoffMs = policy.backoffDelay(retry, context.previousDelayMs);

    qint64 retryAfter = -1;
    for (const auto &header : std::as_const(context.headers)) {
        if (header.first.compare("Retry-After", Qt::CaseInsensitive) == 0) {
            retryAfter = RetryAfter::parse(header.second);
            break;
        }
    }
    const qint64 retryAfterCap = std::max<qint64>(0, policy.maxRetryAfterMs);
    retryAfter = std::min(retryAfter, retryAfterCap);
    context.retryAfterMs = retryAfter;

    qint64 delay = policy.delay ? policy.delay(context) : -1;
    if (delay < 0)
        delay = retryAfter >= 0 ? retryAfter : context.backoffMs;
    delay =
        std::min(delay, retryAfter >= 0 ? retryAfterCap : std::max<qint64>(0, policy.maxDelayMs));

    if (msLeft >= 0 && delay >= msLeft && retryAfter < 0 && msLeft - lastAttemptMs > 0)
        delay = msLeft - lastAttemptMs - 1;
    return delay;
}

} // namespace KeepTrying
