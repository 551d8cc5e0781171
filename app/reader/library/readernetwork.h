// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_READERNETWORK_H
#define KEEPTRYING_READER_READERNETWORK_H

#include <KeepTrying/retrypolicy.h>

namespace KeepTrying {
class RetryingNetworkAccessManager;
}

/*
    How the reader sets up its one RetryingNetworkAccessManager, in one place so that the
    reader and the soak test (tests/soak) run the same settings.
*/
namespace ReaderNetwork {

/*! The reader's retry policy: first retry after 300 ms, backoff capped at 10 s, full jitter
    (many readers never retry in step), an Idempotency-Key on every write (so the token POST
    may be retried too) and 20 s per attempt. */
KeepTrying::RetryPolicy retryPolicy();

/*! Sets retryPolicy() on \a manager and caps its breaker's break at the policy's maximum
    backoff (see readernetwork.cpp for why). */
void configure(KeepTrying::RetryingNetworkAccessManager *manager);

} // namespace ReaderNetwork

#endif // KEEPTRYING_READER_READERNETWORK_H
