// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_NETWORKINFORMATIONBACKEND_P_H
#define KEEPTRYING_NETWORKINFORMATIONBACKEND_P_H

#include <KeepTrying/reachabilitybackend.h>

namespace KeepTrying {

// The production backend: QNetworkInformation, when the platform has one.
class NetworkInformationBackend : public ReachabilityBackend
{
    Q_OBJECT
public:
    // Returns nullptr when no QNetworkInformation backend with reachability loads.
    static NetworkInformationBackend *create(QObject *parent);

    State state() const override;
    bool isBehindCaptivePortal() const override;
    QString name() const override;

private:
    explicit NetworkInformationBackend(QObject *parent);
};

} // namespace KeepTrying

#endif
