// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_CONTENTRANGE_P_H
#define KEEPTRYING_CONTENTRANGE_P_H

#include <QtCore/QByteArray>

namespace KeepTrying {

// "Content-Range: bytes FIRST-LAST/COMPLETE" of a 206 (RFC 9110 §14.4); COMPLETE may be
// "*" (unknown, -1). Anything else, or a range that makes no sense, is invalid.
struct ContentRange
{
    qint64 first = -1;
    qint64 last = -1;
    qint64 complete = -1;

    bool isValid() const { return first >= 0 && last >= first; }
    static ContentRange parse(const QByteArray &value);
};

} // namespace KeepTrying

#endif // KEEPTRYING_CONTENTRANGE_P_H
