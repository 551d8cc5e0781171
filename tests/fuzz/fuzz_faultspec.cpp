// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The demo server's fault-spec parser (FaultSpec::parse(), what POST /_admin/faults and
// --fault take) on any text: a fault or an error message, never a crash; a fault that
// parses holds only values the class comment allows.

#include "faultspec_p.h"

#include <QtCore/QString>

#include <cstdint>
#include <cstdlib>

using KeepTrying::Demo::FaultSpec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString spec = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    QString errorMessage;
    const std::optional<FaultSpec> fault = FaultSpec::parse(spec, &errorMessage);
    if (!fault) {
        if (errorMessage.isEmpty())
            std::abort();
        return 0;
    }
    if ((fault->status != 0 && (fault->status < 200 || fault->status > 599)) ||
        fault->latencyMs < 0 || fault->latencyMs > 600000 || fault->remaining == 0 ||
        fault->remaining < -1 || (fault->rate != -1 && (fault->rate < 0 || fault->rate > 1)) ||
        (fault->status == 0 && !fault->retryAfter.isEmpty()) || fault->describe().isEmpty())
        std::abort();
    // What the transport asks of every active fault for each request.
    fault->matches("GET", QStringLiteral("/api/entries.json"));
    fault->matches("PATCH", QStringLiteral("/api/entries/7.json"));
    fault->matches("POST", QStringLiteral("/oauth/v2/token"));
    return 0;
}
