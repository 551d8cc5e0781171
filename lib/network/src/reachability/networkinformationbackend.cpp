// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "networkinformationbackend_p.h"

#include <QtNetwork/QNetworkInformation>

namespace KeepTrying {

ReachabilityBackend::ReachabilityBackend(QObject *parent) : QObject(parent) { }
ReachabilityBackend::~ReachabilityBackend() = default;

NetworkInformationBackend *NetworkInformationBackend::create(QObject *parent)
{
    // Loading is process-wide and idempotent; without NetworkManager/D-Bus none loads.
    if (!QNetworkInformation::instance() && !QNetworkInformation::loadDefaultBackend())
        QNetworkInformation::loadBackendByFeatures(QNetworkInformation::Feature::Reachability);
    QNetworkInformation *info = QNetworkInformation::instance();
    if (!info || !info->supports(QNetworkInformation::Feature::Reachability))
        return nullptr;
    return new NetworkInformationBackend(parent);
}

NetworkInformationBackend::NetworkInformationBackend(QObject *parent) : ReachabilityBackend(parent)
{
    QNetworkInformation *info = QNetworkInformation::instance();
    connect(info, &QNetworkInformation::reachabilityChanged, this,
            [this] { Q_EMIT stateChanged(state()); });
    connect(info, &QNetworkInformation::isBehindCaptivePortalChanged, this,
            &ReachabilityBackend::behindCaptivePortalChanged);
}

ReachabilityBackend::State NetworkInformationBackend::state() const
{
    QNetworkInformation *info = QNetworkInformation::instance();
    if (!info)
        return Unknown;
    switch (info->reachability()) {
    case QNetworkInformation::Reachability::Disconnected:
        return Offline;
    case QNetworkInformation::Reachability::Local:
    case QNetworkInformation::Reachability::Site:
    case QNetworkInformation::Reachability::Online:
        return Online;
    case QNetworkInformation::Reachability::Unknown:
        break;
    }
    return Unknown;
}

bool NetworkInformationBackend::isBehindCaptivePortal() const
{
    QNetworkInformation *info = QNetworkInformation::instance();
    return info && info->isBehindCaptivePortal();
}

QString NetworkInformationBackend::name() const
{
    QNetworkInformation *info = QNetworkInformation::instance();
    return info ? info->backendName() : QString();
}

} // namespace KeepTrying
