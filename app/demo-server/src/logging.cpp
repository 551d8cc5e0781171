// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "logging_p.h"

Q_LOGGING_CATEGORY(lcDemoServer, "keeptrying.demoserver", QtWarningMsg)
