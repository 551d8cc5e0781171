// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The banner's words, apart from its logic: this file is what translators' tools read (the
// reader's .ts lists it), in the "KeepTrying::RetryBanner" context the words have always had.

#include <KeepTrying/retrybannercontroller.h>

#include <QtCore/QCoreApplication>

namespace KeepTrying {

QString RetryBannerController::textFor(Situation situation, UnreachableReason reason)
{
    // Words for the person waiting: what happens, on whose side, and that we keep trying.
    // No server address or port: those are for the logs (keeptrying.*).
    switch (situation) {
    case Hidden:
        return QString();
    case Slow:
        return QCoreApplication::translate("KeepTrying::RetryBanner",
                                           "This is taking longer than usual. Please check "
                                           "your network connection while we keep trying.");
    case Offline:
        return QCoreApplication::translate("KeepTrying::RetryBanner",
                                           "You're offline. We'll keep trying and load this "
                                           "as soon as you're back.");
    case ServerBusy:
        return QCoreApplication::translate("KeepTrying::RetryBanner",
                                           "The server is busy right now. Your network is "
                                           "fine; we'll keep trying and load this as soon as "
                                           "it can answer.");
    case Unreachable:
        break;
    }
    switch (reason) {
    case ConnectionRefused:
        return QCoreApplication::translate("KeepTrying::RetryBanner",
                                           "The server isn't answering right now. Your "
                                           "network is fine; we'll keep trying and load this "
                                           "as soon as the server is back.");
    case HostNotFound:
        return QCoreApplication::translate("KeepTrying::RetryBanner",
                                           "The server can't be found right now. Please check "
                                           "your network connection while we keep trying.");
    case ProxyFailed:
        return QCoreApplication::translate("KeepTrying::RetryBanner",
                                           "The proxy this computer uses isn't answering. "
                                           "Please check the proxy settings while we keep "
                                           "trying.");
    case CannotConnect:
        break;
    }
    return QCoreApplication::translate("KeepTrying::RetryBanner",
                                       "The server can't be reached right now. Please check "
                                       "your network connection while we keep trying.");
}

} // namespace KeepTrying
