// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "simulatedofflineindicator.h"

#include <KeepTrying/retryingnetworkaccessmanager.h>

using KeepTrying::RetryingNetworkAccessManager;

SimulatedOfflineIndicator::SimulatedOfflineIndicator(RetryingNetworkAccessManager *manager,
                                                     QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("simulatedOfflineIndicator"));
    setText(tr("Offline (simulated)"));
    setToolTip(tr("The reader acts as if there were no network: changes wait on this "
                  "computer and are sent when Developer ▸ Simulate Offline is switched off."));
    setAccessibleName(text());
    // A pill in the warning colours of the banner, readable in light and dark palettes.
    setStyleSheet(QStringLiteral("QLabel { background: #f5c211; color: #1f2328; "
                                 "border-radius: 4px; padding: 1px 8px; font-weight: 600; }"));
    connect(manager, &RetryingNetworkAccessManager::simulatedOfflineChanged, this,
            &SimulatedOfflineIndicator::follow);
    follow(manager->isSimulatedOffline());
}

void SimulatedOfflineIndicator::follow(bool offline)
{
    setVisible(offline);
}
