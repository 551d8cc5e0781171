// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "oauthtokens_p.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QUuid>

namespace KeepTrying::Demo {

namespace {

QByteArray newToken()
{
    return QUuid::createUuid().toRfc4122().toHex() + QUuid::createUuid().toRfc4122().toHex();
}

// OAuth2AuthenticateException: the OAuth body, and the same error in WWW-Authenticate.
HttpResponse unauthorized(const QString &error, const QString &description)
{
    HttpResponse response = HttpResponse::oauthError(401, error, description);
    response.headers.append({ QByteArrayLiteral("WWW-Authenticate"),
                              "Bearer realm=\"Service\", error=\"" + error.toLatin1() +
                                  "\", error_description=\"" + description.toLatin1() + '"' });
    return response;
}

} // namespace

HttpResponse OAuthTokens::grant(const std::optional<QHash<QString, QString>> &params)
{
    if (!params)
        return HttpResponse::oauthError(400, QStringLiteral("invalid_request"),
                                        QStringLiteral("The request body could not be parsed"));
    const QString grantType = params->value(QStringLiteral("grant_type"));
    // oauth2-php checks the grant type's form first: any unknown one is invalid_request.
    if (grantType != QLatin1String("password") && grantType != QLatin1String("refresh_token"))
        return HttpResponse::oauthError(
            400, QStringLiteral("invalid_request"),
            QStringLiteral("Invalid grant_type parameter or parameter missing"));
    if (params->value(QStringLiteral("client_id")) != DemoServer::demoClientId() ||
        params->value(QStringLiteral("client_secret")) != DemoServer::demoClientSecret())
        return HttpResponse::oauthError(400, QStringLiteral("invalid_client"),
                                        QStringLiteral("The client credentials are invalid"));
    int user = 0;
    if (grantType == QLatin1String("password")) {
        const QString username = params->value(QStringLiteral("username"));
        const QString password = params->value(QStringLiteral("password"));
        if (username == DemoServer::demoUsername() && password == DemoServer::demoPassword())
            user = 1;
        else if (username == DemoServer::otherUsername() && password == DemoServer::otherPassword())
            user = 2;
        else
            return HttpResponse::oauthError(
                400, QStringLiteral("invalid_grant"),
                QStringLiteral("Invalid username and password combination"));
    } else {
        // Single use: the refresh below deletes it, as wallabag's storage does.
        user = m_refreshTokens.take(params->value(QStringLiteral("refresh_token")).toLatin1());
        if (user == 0)
            return HttpResponse::oauthError(400, QStringLiteral("invalid_grant"),
                                            QStringLiteral("Invalid refresh token"));
    }

    const QByteArray accessToken = newToken();
    const QByteArray refreshToken = newToken();
    m_accessTokens.insert(
        accessToken,
        Issued { QDateTime::currentMSecsSinceEpoch() + qint64(lifetimeSeconds) * 1000, user });
    m_refreshTokens.insert(refreshToken, user);
    ++grants;
    HttpResponse response = HttpResponse::json(QJsonObject {
        { QStringLiteral("access_token"), QString::fromLatin1(accessToken) },
        { QStringLiteral("expires_in"), lifetimeSeconds },
        { QStringLiteral("token_type"), QStringLiteral("bearer") },
        { QStringLiteral("scope"), QJsonValue::Null },
        { QStringLiteral("refresh_token"), QString::fromLatin1(refreshToken) },
    });
    response.headers.append({ QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-store") });
    response.headers.append({ QByteArrayLiteral("Pragma"), QByteArrayLiteral("no-cache") });
    return response;
}

std::optional<HttpResponse> OAuthTokens::check(const HttpRequest &request, bool anonymous) const
{
    const QByteArray authorization = request.header("authorization").trimmed();
    const bool bearer = authorization.left(7).compare("bearer ", Qt::CaseInsensitive) == 0;
    // Without a token the anonymous paths pass; a token that is sent is checked all the
    // same, as FOSOAuthServerBundle's listener does behind wallabag's anonymous paths.
    if (!bearer && anonymous)
        return std::nullopt;
    if (!bearer)
        return unauthorized(QStringLiteral("access_denied"),
                            QStringLiteral("OAuth2 authentication required"));
    const auto it = m_accessTokens.constFind(authorization.mid(7).trimmed());
    if (it == m_accessTokens.constEnd())
        return unauthorized(QStringLiteral("invalid_grant"),
                            QStringLiteral("The access token provided is invalid."));
    if (it->expiry <= QDateTime::currentMSecsSinceEpoch())
        return unauthorized(QStringLiteral("invalid_grant"),
                            QStringLiteral("The access token provided has expired."));
    return std::nullopt;
}

int OAuthTokens::userOf(const HttpRequest &request) const
{
    const QByteArray authorization = request.header("authorization").trimmed();
    if (authorization.left(7).compare("bearer ", Qt::CaseInsensitive) != 0)
        return 0;
    const auto it = m_accessTokens.constFind(authorization.mid(7).trimmed());
    if (it == m_accessTokens.constEnd() || it->expiry <= QDateTime::currentMSecsSinceEpoch())
        return 0;
    return it->user;
}

void OAuthTokens::expireAll()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (auto it = m_accessTokens.begin(); it != m_accessTokens.end(); ++it)
        it->expiry = std::min(it->expiry, now);
}

} // namespace KeepTrying::Demo
