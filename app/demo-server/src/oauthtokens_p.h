// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_OAUTHTOKENS_P_H
#define KEEPTRYING_DEMO_OAUTHTOKENS_P_H

#include "httpmessage_p.h"

#include <QtCore/QHash>

#include <optional>

namespace KeepTrying::Demo {

/*!
    The demo server's OAuth 2 side, as wallabag's (friendsofsymfony/oauth2-php 1.3.1 behind
    FOSOAuthServerBundle): the token endpoint's password and refresh-token grants, and the
    check of the bearer token in front of \c{/api/}. Access tokens expire after
    lifetimeSeconds (wallabag's default 3600); a refresh token works once: a successful
    refresh deletes it (OAuth2::createAccessToken unsets the old one), so using it again is
    400 \c invalid_grant. The access token it replaced lives on until it expires.

    Two users can sign in: the demo user (id 1) and a second one (id 2,
    DemoServer::otherUsername()), so that another user's entry can be asked for, as
    wallabag's own tests do with their users admin and bob. Each token names its user.

    Not thread-safe: guarded by the server's mutex, as the WallabagApi that holds it.
*/
class OAuthTokens
{
public:
    /*! Answers \c{POST /oauth/v2/token} with \a params (form or JSON body, or query). */
    HttpResponse grant(const std::optional<QHash<QString, QString>> &params);
    /*! Checks the \c Authorization of an \c{/api/} request: nothing when it may go on
        (a valid token, or none on an \a anonymous path), else the 401 to answer. */
    std::optional<HttpResponse> check(const HttpRequest &request, bool anonymous) const;
    /*! The user id (1 or 2) the valid bearer token of \a request names; 0 without one. */
    int userOf(const HttpRequest &request) const;

    /*! Makes every access token issued so far expired (for tests: no waiting an hour). */
    void expireAll();

    int lifetimeSeconds = 3600;
    qint64 grants = 0; //!< tokens issued

private:
    struct Issued
    {
        qint64 expiry = 0; // ms since the epoch
        int user = 0;
    };
    QHash<QByteArray, Issued> m_accessTokens;
    QHash<QByteArray, int> m_refreshTokens; // token -> user
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_OAUTHTOKENS_P_H
