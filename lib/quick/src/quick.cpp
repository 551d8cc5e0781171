// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/qmlnetworkaccessmanagerfactory.h>
#include <KeepTrying/quick.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/waitreason.h>

#include "logging_p.h"

#include <QtCore/QMutex>
#include <QtCore/QUrl>
#include <QtQml/QQmlEngine>
#include <QtQml/qqml.h>

// Outside any namespace, as Q_INIT_RESOURCE requires (a static library's resources are not
// registered by themselves).
static void initQuickResources()
{
    Q_INIT_RESOURCE(keeptrying_quick);
}

namespace KeepTrying {

namespace {

constexpr char Uri[] = "KeepTrying";
constexpr char ControllerProperty[] = "_keeptrying_bannerState";

// Deletes the factory with the engine: the engine does not own its factory, and the factory
// must live as long as the engine's threads may ask it for managers.
class FactoryKeeper : public QObject
{
public:
    FactoryKeeper(QmlNetworkAccessManagerFactory *factory, QObject *parent)
        : QObject(parent), factory(factory)
    {
    }
    ~FactoryKeeper() override { delete factory; }
    QmlNetworkAccessManagerFactory *factory;
};

} // namespace

void registerQmlTypes()
{
    static QBasicMutex mutex;
    static bool registered = false;
    const QMutexLocker lock(&mutex);
    if (registered)
        return;
    registered = true;
    initQuickResources();
    qRegisterMetaType<WaitReason>();
    qmlRegisterUncreatableType<RetryBannerController>(
        Uri, 1, 0, "RetryBannerController",
        QStringLiteral("Use BannerState, the engine's RetryBannerController"));
    qmlRegisterUncreatableMetaObject(WaitReason::staticMetaObject, Uri, 1, 0, "WaitReason",
                                     QStringLiteral("WaitReason values come from C++"));
    qmlRegisterSingletonType<RetryBannerController>(
        Uri, 1, 0, "BannerState", [](QQmlEngine *engine, QJSEngine *) -> QObject * {
            auto *controller = bannerState(engine);
            if (!controller) {
                // No setUpQmlEngine(): a controller bound to nothing, so bindings still work.
                qCWarning(lcQuick) << "BannerState used without KeepTrying::setUpQmlEngine(): "
                                      "it watches no manager";
                controller = new RetryBannerController(engine);
                engine->setProperty(ControllerProperty, QVariant::fromValue(controller));
            }
            QQmlEngine::setObjectOwnership(controller, QQmlEngine::CppOwnership);
            return controller;
        });
    qmlRegisterType(QUrl(QStringLiteral("qrc:/KeepTrying/RetryBanner.qml")), Uri, 1, 0,
                    "RetryBanner");
}

QmlNetworkAccessManagerFactory *setUpQmlEngine(QQmlEngine *engine,
                                               RetryingNetworkAccessManager *manager)
{
    Q_ASSERT(engine && manager);
    registerQmlTypes();
    auto *controller = new RetryBannerController(engine);
    controller->setManager(manager);
    engine->setProperty(ControllerProperty, QVariant::fromValue(controller));
    auto *factory = new QmlNetworkAccessManagerFactory(manager);
    factory->setBannerController(controller);
    new FactoryKeeper(factory, engine);
    engine->setNetworkAccessManagerFactory(factory);
    return factory;
}

RetryBannerController *bannerState(QQmlEngine *engine)
{
    return engine ? engine->property(ControllerProperty).value<RetryBannerController *>() : nullptr;
}

} // namespace KeepTrying
