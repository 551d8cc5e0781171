// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Uses the installed KeepTrying::Network without touching the network.

#include <KeepTrying/retryafter.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retrypolicy.h>

#include <QtCore/QCoreApplication>

#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);

    KeepTrying::RetryingNetworkAccessManager manager;
    KeepTrying::RetryPolicy policy;
    policy.maxAttempts = 3;
    policy.jitter = KeepTrying::Jitter::None;
    manager.setRetryPolicy(policy);

    if (manager.retryPolicy().maxAttempts != 3) {
        std::fputs("consumer: the policy was not kept\n", stderr);
        return 1;
    }
    if (KeepTrying::RetryAfter::parse(QByteArrayLiteral("120")) != 120000) {
        std::fputs("consumer: Retry-After: 120 is not 120000 ms\n", stderr);
        return 1;
    }
    QNetworkAccessManager *base = &manager; // drop-in: usable as a plain manager
    std::printf("consumer ok: %s\n", base->metaObject()->className());
    return 0;
}
