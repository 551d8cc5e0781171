// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMOTOKEN_H
#define KEEPTRYING_DEMOTOKEN_H

#include <QtCore/QByteArray>
#include <QtCore/QUrl>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace KeepTrying::Demo {
class DemoServer;
}

namespace KeepTrying::Test {

/*!
    Signs in to the demo server at \a baseUrl with the demo client and user (the password
    grant at \c{/oauth/v2/token}) and returns the access token, to send as
    \c{Authorization: Bearer TOKEN}. Returns an empty token when the sign-in fails or has no
    answer within \a timeoutMs (0 or less: no limit).

    The request goes through \a manager, e.g. the manager under test; when it is null, through
    a plain QNetworkAccessManager without a proxy. Runs an event loop until the answer comes.
*/
QByteArray demoToken(const QUrl &baseUrl, QNetworkAccessManager *manager = nullptr,
                     int timeoutMs = 10000);
/*! The same for \a server's baseUrl(). */
QByteArray demoToken(const Demo::DemoServer &server, QNetworkAccessManager *manager = nullptr,
                     int timeoutMs = 10000);

} // namespace KeepTrying::Test

#endif // KEEPTRYING_DEMOTOKEN_H
