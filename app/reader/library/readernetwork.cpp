// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "readernetwork.h"

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

namespace ReaderNetwork {

KeepTrying::RetryPolicy retryPolicy()
{
    KeepTrying::RetryPolicy policy;
    policy.initialDelayMs = 300;
    policy.maxDelayMs = 10000;
    policy.jitter = KeepTrying::Jitter::Full;
    policy.addIdempotencyKey = true;
    policy.attemptTimeoutMs = 20000;
    // A server that accepts and does not answer is kept trying, as the banner says: the
    // library's default (three timeouts, then the request ends) suits a drop-in, where a
    // call site must end as it did with plain Qt; a reader's list must not give up.
    policy.maxTimeoutAttempts = 0;
    return policy;
}

void configure(KeepTrying::RetryingNetworkAccessManager *manager)
{
    manager->setRetryPolicy(retryPolicy());
    // The requests the user waits for keep trying at most retryPolicy().maxDelayMs apart,
    // but they wait behind an open breaker, whose break doubles with every failed probe:
    // with the default cap of 60 s the list loaded 36 s after a 2-minute 503 storm ended
    // (6.6 s with this). A break no longer than the backoff cap keeps the breaker's
    // one-probe-at-a-time rule and bounds that wait.
    KeepTrying::CircuitBreaker::Settings breaker = manager->circuitBreaker()->settings();
    breaker.maxBreakDurationMs = retryPolicy().maxDelayMs;
    manager->circuitBreaker()->setSettings(breaker);
}

} // namespace ReaderNetwork
