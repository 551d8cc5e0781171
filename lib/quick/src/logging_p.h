// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_QUICK_LOGGING_P_H
#define KEEPTRYING_QUICK_LOGGING_P_H

#include <QtCore/QLoggingCategory>

namespace KeepTrying {

Q_DECLARE_LOGGING_CATEGORY(lcQuick)

} // namespace KeepTrying

#endif // KEEPTRYING_QUICK_LOGGING_P_H
