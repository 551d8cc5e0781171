// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_LOGGING_P_H
#define KEEPTRYING_DEMO_LOGGING_P_H

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcDemoServer)

#endif // KEEPTRYING_DEMO_LOGGING_P_H
