// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_RETRYAFTER_H
#define KEEPTRYING_RETRYAFTER_H

#include <KeepTrying/keeptrying_network_export.h>

#include <QtCore/QByteArray>
#include <QtCore/QDateTime>

namespace KeepTrying {

/*!
    Parses the Retry-After response header (RFC 9110 §10.2.3), in both of its forms:
    delay-seconds ("120") and HTTP-date in any of the three formats RFC 9110 §5.6.7
    accepts (IMF-fixdate, obsolete RFC 850 and asctime). Date parsing is Qt's own.
*/
class KEEPTRYING_NETWORK_EXPORT RetryAfter
{
public:
    /*! Returns the delay in milliseconds that \a value asks for, measured from \a now
        (UTC), or -1 when the value is absent, negative, not a number, not a date, or
        does not fit. A date in the past gives 0 ("now"). Huge values are not capped
        here; the caller caps them (RetryPolicy::maxRetryAfterMs). */
    static qint64 parse(const QByteArray &value, const QDateTime &now);
    /*! The same, measured from the current time. */
    static qint64 parse(const QByteArray &value);
};

} // namespace KeepTrying

#endif // KEEPTRYING_RETRYAFTER_H
