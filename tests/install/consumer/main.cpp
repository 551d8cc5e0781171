// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Uses the installed KeepTrying::Network (and KeepTrying::Widgets when built with
// KT_CONSUMER_WIDGETS) without touching the network. Also built without CMake, through
// pkg-config (run_pkgconfig.cmake).

#include <KeepTrying/retryafter.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retrypolicy.h>

#ifdef KT_CONSUMER_WIDGETS
#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retrybannercontroller.h>

#include <QtWidgets/QApplication>
#else
#include <QtCore/QCoreApplication>
#endif

#include <cstdio>

int main(int argc, char *argv[])
{
#ifdef KT_CONSUMER_WIDGETS
    QApplication app(argc, argv);
#else
    QCoreApplication app(argc, argv);
#endif

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
#ifdef KT_CONSUMER_WIDGETS
    KeepTrying::RetryBanner banner;
    if (!banner.bind(&manager) || banner.controller() == nullptr) {
        std::fputs("consumer: the banner did not bind\n", stderr);
        return 1;
    }
    std::puts("consumer: banner bound");
#endif
    QNetworkAccessManager *base = &manager; // drop-in: usable as a plain manager
    std::printf("consumer ok: %s\n", base->metaObject()->className());
    return 0;
}
