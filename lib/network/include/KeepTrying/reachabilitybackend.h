// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REACHABILITYBACKEND_H
#define KEEPTRYING_REACHABILITYBACKEND_H

#include <KeepTrying/keeptrying_network_export.h>

#include <QtCore/QObject>

namespace KeepTrying {

/*!
    A source of "is this machine online?" for Reachability. The library's own backend reads
    QNetworkInformation; tests and apps with a better source of truth (a VPN client, a
    platform API) give Reachability one of their own with Reachability::setBackend().

    Unknown means "we cannot tell", never "offline": many Linux machines have no
    QNetworkInformation backend at all.
*/
class KEEPTRYING_NETWORK_EXPORT ReachabilityBackend : public QObject
{
    Q_OBJECT
public:
    enum State {
        Unknown, //!< No information; requests are tried, and their faults tell.
        Online, //!< The network is up (a route to the internet or a local network).
        Offline //!< No network: requests wait instead of failing.
    };
    Q_ENUM(State)

    explicit ReachabilityBackend(QObject *parent = nullptr);
    ~ReachabilityBackend() override;

    /*! The current state. */
    virtual State state() const = 0;
    /*! True when a captive portal intercepts traffic (hotel and airport Wi-Fi). */
    virtual bool isBehindCaptivePortal() const { return false; }
    /*! A short name for logs, e.g. "networkmanager" or "fake". */
    virtual QString name() const = 0;

Q_SIGNALS:
    /*! Emit when state() has changed. */
    void stateChanged(KeepTrying::ReachabilityBackend::State state);
    /*! Emit when isBehindCaptivePortal() has changed. */
    void behindCaptivePortalChanged(bool behind);
};

} // namespace KeepTrying

#endif // KEEPTRYING_REACHABILITYBACKEND_H
