// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "scriptoutput.h"

#include <QtCore/QDateTime>

#include <cstdio>

namespace ScriptOutput {

QString timestamp()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

void print(const QString &line)
{
    std::fputs(qPrintable(timestamp() + QLatin1Char(' ') + line + QLatin1Char('\n')), stdout);
    std::fflush(stdout);
}

} // namespace ScriptOutput
