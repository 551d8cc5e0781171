// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Uses the installed KeepTrying::Network (and KeepTrying::Widgets when built with
// KT_CONSUMER_WIDGETS) without touching the network. Also built without CMake, through
// pkg-config (run_pkgconfig.cmake).

#ifdef KT_CONSUMER_OFFLINECOPIES
#include <KeepTrying/offlinecopystore.h>
#endif
#ifdef KT_CONSUMER_OUTBOX
#include <KeepTrying/outbox.h>
#endif
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

#include <QtCore/QTemporaryDir>

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
#if defined(KT_CONSUMER_OFFLINECOPIES) || defined(KT_CONSUMER_OUTBOX)
    QTemporaryDir dir;
#endif
#ifdef KT_CONSUMER_OFFLINECOPIES
    auto *copies = new KeepTrying::OfflineCopyStore;
    if (!copies->open(dir.filePath(QStringLiteral("copies")))) {
        std::fputs("consumer: the offline-copy store did not open\n", stderr);
        return 1;
    }
    manager.setOfflineCopyStore(copies);
    if (!manager.isOfflineCopyStoreOpen() || copies->parent() != &manager) {
        std::fputs("consumer: the manager did not take the offline-copy store\n", stderr);
        return 1;
    }
    std::puts("consumer: offline copies kept");
#endif
#ifdef KT_CONSUMER_OUTBOX
    KeepTrying::Outbox outbox(dir.filePath(QStringLiteral("outbox.db")), &manager);
    if (!outbox.isUsable()) {
        std::fputs("consumer: the outbox is not usable\n", stderr);
        return 1;
    }
    std::puts("consumer: outbox usable");
#endif
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
