// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "logging_p.h"

namespace KeepTrying {

Q_LOGGING_CATEGORY(lcNetwork, "keeptrying.network", QtWarningMsg)
Q_LOGGING_CATEGORY(lcReachability, "keeptrying.reachability", QtWarningMsg)
Q_LOGGING_CATEGORY(lcBreaker, "keeptrying.breaker", QtWarningMsg)
// The banner's state (RetryBannerController), shared by the widget and QML banners.
Q_LOGGING_CATEGORY(lcBanner, "keeptrying.banner", QtWarningMsg)

} // namespace KeepTrying
