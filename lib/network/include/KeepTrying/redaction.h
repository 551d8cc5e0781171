// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REDACTION_H
#define KEEPTRYING_REDACTION_H

#include <KeepTrying/keeptrying_network_export.h>

#include <QtCore/QByteArray>
#include <QtCore/QStringView>
#include <QtCore/QUrl>

namespace KeepTrying {

/*!
    \file redaction.h
    What KeepTrying leaves out when it logs a request, in one place: the library's logging
    category and keeptrying-fetch's verbose output both follow these rules, and an
    application that prints requests itself can use them too.

    The rule is a list of names, so it can miss a credential sent under a name nobody
    would guess. Treat what it lets through as "probably harmless", never as "public".
*/

/*!
    True when a header field or a URL query parameter named \a name is taken to carry a
    credential. Case does not matter, and '_', '-' and '.' count as the same separator.

    These names do:

    - \c Authorization, \c Proxy-Authorization (RFC 9110 §11.6), \c Cookie,
        \c Set-Cookie (RFC 6265), and any name ending in \c -Authorization;
    - \c token, \c access_token (RFC 6750 §2.3), \c key, \c api_key, \c apikey,
        \c password, \c passwd, \c secret, \c signature, \c sig;
    - any name ending in \c -token, \c -secret, \c -password, \c -passwd, \c -signature,
        \c -credential, \c -api-key or \c -apikey: \c X-Api-Key, \c X-Auth-Token,
        \c refresh_token, \c client_secret, \c X-Amz-Signature...

    Names merely ending in \c -key (Idempotency-Key, Sec-WebSocket-Key) do not.
*/
KEEPTRYING_NETWORK_EXPORT bool isCredentialName(QStringView name);
/*! The same for a header field name as Qt hands it over (Latin-1). */
KEEPTRYING_NETWORK_EXPORT bool isCredentialName(const QByteArray &name);

/*!
    The value of header field \a name as it may be logged: `<redacted>` when
    isCredentialName(\a name); for \c Location and \c Content-Location (whose value is a
    URL, maybe relative), \a value with its query redacted as redactedUrl() does; otherwise
    \a value unchanged.
*/
KEEPTRYING_NETWORK_EXPORT QByteArray redactedHeaderValue(const QByteArray &name,
                                                         const QByteArray &value);

/*!
    \a url as it may be logged: without its password (the user name stays), and with the
    value of every query parameter that isCredentialName() replaced by \c REDACTED
    (`?page=2&access_token=REDACTED`); names and other values stay. A fragment in the
    shape of a query (`#access_token=...`, as the OAuth implicit grant returns it) is
    treated the same way.
*/
KEEPTRYING_NETWORK_EXPORT QUrl redactedUrl(const QUrl &url);

} // namespace KeepTrying

#endif // KEEPTRYING_REDACTION_H
