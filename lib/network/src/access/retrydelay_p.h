// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYDELAY_P_H
#define KEEPTRYING_RETRYDELAY_P_H

#include <KeepTrying/retrypolicy.h>

namespace KeepTrying {

/*
    The wait in milliseconds before the attempt after the failed one \a context describes;
    fills in its backoffMs and retryAfterMs. In order: the policy's delay() hook, else the
    response's Retry-After (RFC 9110 §10.2.3, capped at maxRetryAfterMs), else backoff with
    jitter (capped at maxDelayMs).

    With a deadline (\a msLeft >= 0: what is left of it) our own backoff is shortened so that
    one more attempt, as long as the last one took (\a lastAttemptMs), still fits; a server's
    Retry-After is never shortened. The backoff is that of retry \a retry (1 for the first):
    the hops of a redirect are attempts, not retries.
*/
qint64 chooseRetryDelay(const RetryPolicy &policy, RetryContext &context, int retry, qint64 msLeft,
                        qint64 lastAttemptMs);

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYDELAY_P_H
