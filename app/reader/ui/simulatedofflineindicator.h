// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SIMULATEDOFFLINEINDICATOR_H
#define KEEPTRYING_READER_SIMULATEDOFFLINEINDICATOR_H

#include <QtWidgets/QLabel>

namespace KeepTrying {
class RetryingNetworkAccessManager;
}

/*
    "Offline (simulated)" in the status bar for as long as the manager pretends to be
    offline (Developer ▸ Simulate Offline, --simulate-offline), from the moment it is
    switched on: the banner says so only once a request waits, and a tester who forgot the
    switch would otherwise read a quiet window as a broken one. Hidden otherwise.
*/
class SimulatedOfflineIndicator : public QLabel
{
    Q_OBJECT

public:
    explicit SimulatedOfflineIndicator(KeepTrying::RetryingNetworkAccessManager *manager,
                                       QWidget *parent = nullptr);

private:
    void follow(bool offline);
};

#endif // KEEPTRYING_READER_SIMULATEDOFFLINEINDICATOR_H
