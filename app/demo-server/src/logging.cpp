#include "logging_p.h"

Q_LOGGING_CATEGORY(lcDemoServer, "keeptrying.demoserver", QtWarningMsg)
