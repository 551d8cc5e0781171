// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "logging_p.h"

namespace KeepTrying {

Q_LOGGING_CATEGORY(lcQuick, "keeptrying.quick", QtWarningMsg)

} // namespace KeepTrying
