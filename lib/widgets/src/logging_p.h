// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_WIDGETS_LOGGING_P_H
#define KEEPTRYING_WIDGETS_LOGGING_P_H

#include <QtCore/QLoggingCategory>

namespace KeepTrying {

Q_DECLARE_LOGGING_CATEGORY(lcWidgets)

} // namespace KeepTrying

#endif // KEEPTRYING_WIDGETS_LOGGING_P_H
