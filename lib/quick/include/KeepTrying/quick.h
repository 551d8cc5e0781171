// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_QUICK_H
#define KEEPTRYING_QUICK_H

#include <KeepTrying/keeptrying_quick_export.h>

#include <QtCore/qglobal.h>

QT_BEGIN_NAMESPACE
class QQmlEngine;
QT_END_NAMESPACE

namespace KeepTrying {

class QmlNetworkAccessManagerFactory;
class RetryBannerController;
class RetryingNetworkAccessManager;

/*!
    Registers the QML module "KeepTrying" 1.0 (import KeepTrying), from C++: nothing to
    install on a QML import path. Safe to call more than once; setUpQmlEngine() calls it.

    - RetryBanner: a banner item (RetryBanner.qml) that shows the banner state's text while
        its situation is not Hidden, slate while offline, blue otherwise, and slides open and
        closed. Properties: controller (default: BannerState), shown (read-only).
    - BannerState: a singleton, the engine's RetryBannerController (see setUpQmlEngine()):
        situation, text, offline, shouldShow, waitReason, unreachableServer, …
    - RetryBannerController: the type of BannerState, for its enums
        (RetryBannerController.Offline, …); not creatable in QML.
    - WaitReason: its enums (WaitReason.Offline, WaitReason.Backoff, …); the values QML
        receives (BannerState.waitReason) carry kind, origin, until (a Date), remainingMs,
        httpStatus, networkError and proxyFault.
*/
KEEPTRYING_QUICK_EXPORT void registerQmlTypes();

/*!
    Everything a QML application needs, in one call, before \a engine loads anything:
    registerQmlTypes(); a QmlNetworkAccessManagerFactory for \a manager set on \a engine (so
    images, XMLHttpRequest and remote QML go through managers that share \a manager's
    reachability, simulated-offline switch, breaker and budget); and a
    RetryBannerController bound to \a manager, and to the manager the engine makes for
    XMLHttpRequest, that is the engine's BannerState singleton.

    Returns the factory. The engine owns it and the controller (both are deleted with it).
    \a manager is not owned and must outlive \a engine.
*/
KEEPTRYING_QUICK_EXPORT QmlNetworkAccessManagerFactory *
setUpQmlEngine(QQmlEngine *engine, RetryingNetworkAccessManager *manager);

/*! The BannerState of \a engine: the controller setUpQmlEngine() made, else null. */
KEEPTRYING_QUICK_EXPORT RetryBannerController *bannerState(QQmlEngine *engine);

} // namespace KeepTrying

#endif // KEEPTRYING_QUICK_H
