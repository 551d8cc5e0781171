// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Uses the installed KeepTrying::Quick without touching the network: one call sets up the
// engine, and QML finds `import KeepTrying` (RetryBanner, BannerState, WaitReason) with no
// import path, on the offscreen platform.

#include <KeepTrying/qmlnetworkaccessmanagerfactory.h>
#include <KeepTrying/quick.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtGui/QGuiApplication>
#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>

#include <cstdio>
#include <memory>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    KeepTrying::RetryingNetworkAccessManager manager;
    QQmlEngine engine;
    KeepTrying::QmlNetworkAccessManagerFactory *factory =
        KeepTrying::setUpQmlEngine(&engine, &manager);
    if (engine.networkAccessManagerFactory() != factory || !KeepTrying::bannerState(&engine)) {
        std::fputs("consumer: the engine was not set up\n", stderr);
        return 1;
    }
    QQmlComponent component(&engine);
    component.setData(QByteArrayLiteral("import QtQuick\nimport KeepTrying\n"
                                        "Item {\n"
                                        "    RetryBanner { id: banner }\n"
                                        "    property bool ok: banner.controller === BannerState\n"
                                        "        && !banner.shown && WaitReason.Offline === 1\n"
                                        "}\n"),
                      QUrl());
    const std::unique_ptr<QObject> root(component.create());
    if (!root || !root->property("ok").toBool()) {
        std::fprintf(stderr, "consumer: QML failed: %s\n", qPrintable(component.errorString()));
        return 1;
    }
    // The engine's own manager (XMLHttpRequest's) comes from the factory.
    QNetworkAccessManager *qmlManager = engine.networkAccessManager();
    std::printf("consumer ok: %s for QML\n", qmlManager->metaObject()->className());
    return 0;
}
