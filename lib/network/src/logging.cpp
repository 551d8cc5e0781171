#include "logging_p.h"

namespace KeepTrying {

Q_LOGGING_CATEGORY(lcNetwork, "keeptrying.network", QtWarningMsg)

} // namespace KeepTrying
