// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "contentrange_p.h"

namespace KeepTrying {

namespace {

// A run of digits only: no sign, no spaces, no "0x" (toLongLong would take some of them).
bool readNumber(const QByteArray &text, qint64 *value)
{
    if (text.isEmpty() || text.size() > 18)
        return false;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    *value = text.toLongLong();
    return true;
}

} // namespace

ContentRange ContentRange::parse(const QByteArray &value)
{
    ContentRange range;
    const QByteArray v = value.trimmed();
    if (!v.startsWith("bytes "))
        return range;
    const QByteArray spec = v.mid(6).trimmed();
    const qsizetype dash = spec.indexOf('-');
    const qsizetype slash = spec.indexOf('/');
    if (dash <= 0 || slash <= dash + 1)
        return range;
    qint64 first = -1;
    qint64 last = -1;
    qint64 complete = -1;
    if (!readNumber(spec.left(dash), &first) ||
        !readNumber(spec.mid(dash + 1, slash - dash - 1), &last))
        return range;
    const QByteArray completeText = spec.mid(slash + 1);
    if (completeText != "*" && (!readNumber(completeText, &complete) || last >= complete))
        return range;
    if (last < first)
        return range;
    range.first = first;
    range.last = last;
    range.complete = complete;
    return range;
}

} // namespace KeepTrying
