// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "logging_p.h"

namespace KeepTrying {

Q_LOGGING_CATEGORY(lcNetwork, "keeptrying.network", QtWarningMsg)
Q_LOGGING_CATEGORY(lcReachability, "keeptrying.reachability", QtWarningMsg)
Q_LOGGING_CATEGORY(lcBreaker, "keeptrying.breaker", QtWarningMsg)

} // namespace KeepTrying
