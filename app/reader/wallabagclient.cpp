// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "wallabagclient.h"

#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

WallabagClient::WallabagClient(QNetworkAccessManager *manager, QObject *parent)
    : QObject(parent), m_manager(manager)
{
}

WallabagClient::~WallabagClient()
{
    // Replies still running belong to the manager; stop them so none calls back into us.
    for (const QPointer<QNetworkReply> &reply : std::as_const(m_replies)) {
        if (reply) {
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
        }
    }
}

void WallabagClient::setServer(const QUrl &server, const Credentials &credentials)
{
    m_server = server;
    m_credentials = credentials;
    m_accessToken.clear();
    m_refreshToken.clear();
}

QUrl WallabagClient::apiUrl(const QString &path) const
{
    // Keeps a path prefix such as https://host/wallabag/ in front of the API path.
    QUrl url = m_server;
    QString base = url.path();
    if (!base.endsWith(QLatin1Char('/')))
        base += QLatin1Char('/');
    url.setPath(base + path);
    return url;
}

QNetworkRequest WallabagClient::userRequest(const QUrl &url) const
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    if (!m_accessToken.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_accessToken);
    // The user is waiting for this one: the retry banner watches it, and the manager keeps
    // trying it (at the manager's pace, capped, behind its breaker and budget) until it
    // succeeds, meets a permanent error, or is aborted because the user moved on. Giving up
    // after a few server faults would leave the user with nothing to do but wait for
    // nothing: the reader has no retry button, and must not need one.
    KeepTrying::RetryBannerController::markUserWaiting(request);
    if (auto *retrying = qobject_cast<KeepTrying::RetryingNetworkAccessManager *>(m_manager)) {
        KeepTrying::RetryPolicy policy = retrying->retryPolicy();
        policy.maxAttempts = UserWaitingMaxAttempts;
        request.setAttribute(QNetworkRequest::Attribute(
                                 KeepTrying::RetryingNetworkAccessManager::RetryPolicyAttribute),
                             QVariant::fromValue(policy));
    }
    return request;
}

void WallabagClient::watch(QNetworkReply *reply, std::function<void(QNetworkReply *)> done)
{
    m_replies.removeAll(nullptr);
    m_replies << reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply, done = std::move(done)] {
        m_replies.removeAll(reply);
        reply->deleteLater();
        done(reply);
    });
}

QString WallabagClient::serverName() const
{
    // As a user would write it: the host, and the port when the address names one.
    QUrl server;
    server.setHost(m_server.host());
    server.setPort(m_server.port());
    return server.authority();
}

QString WallabagClient::describeError(QNetworkReply *reply, Request what) const
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0) {
        // No answer at all, and not one the manager retries (those never end here): TLS,
        // a scheme Qt cannot speak, a redirect loop. Qt's own words say which.
        return tr("The connection to %1 failed: %2. Check the server address.")
            .arg(serverName(), reply->errorString());
    }
    // OAuth errors (RFC 6749 §5.2) name themselves in the body, whatever the status.
    const QString oauthError = what == Request::SignIn ? QJsonDocument::fromJson(reply->readAll())
                                                             .object()
                                                             .value(QLatin1String("error"))
                                                             .toString()
                                                       : QString();
    if (oauthError == QLatin1String("invalid_grant"))
        return tr("The server did not accept the user name “%1” or its password. Check "
                  "them, then start KeepTrying Reader again with the right ones.")
            .arg(m_credentials.username);
    if (oauthError == QLatin1String("invalid_client") ||
        oauthError == QLatin1String("unauthorized_client"))
        return tr("The server did not accept the reader's client ID or secret. Check the "
                  "API client you created in wallabag, then start KeepTrying Reader again "
                  "with its ID and secret.");
    if (status == 401)
        return tr("%1 no longer accepts this sign-in, even after signing in again. Check "
                  "the user name and password, then start KeepTrying Reader again.")
            .arg(serverName());
    if (status == 403)
        return tr("%1 does not let this account read its articles through the API. Ask "
                  "the server's administrator to allow it.")
            .arg(serverName());
    if (status == 404 && what == Request::Entry)
        return tr("This article is no longer on the server: it may have been deleted. "
                  "Choose another one from your list.");
    if (status == 404 || status == 405)
        return tr("%1 has no wallabag API at this address. Check the server address: it "
                  "is the one you open wallabag at in a browser.")
            .arg(serverName());
    const QString reason =
        reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString().trimmed();
    if (status >= 500)
        return tr("%1 failed with an error of its own (%2 %3) that trying again cannot "
                  "fix. Tell the server's administrator.")
            .arg(serverName())
            .arg(status)
            .arg(reason);
    return tr("%1 refused the request (%2 %3). Check the server address, or tell the "
              "server's administrator.")
        .arg(serverName())
        .arg(status)
        .arg(reason);
}

void WallabagClient::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    Q_EMIT loadingChanged(loading);
}

void WallabagClient::fail(const QString &message)
{
    setLoading(false);
    Q_EMIT failed(message);
}

void WallabagClient::signIn(std::function<void()> then)
{
    // OAuth2 password grant, form-encoded as wallabag's documentation shows.
    QUrlQuery form;
    const bool refresh = !m_refreshToken.isEmpty();
    if (refresh) {
        form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("refresh_token"));
        form.addQueryItem(QStringLiteral("refresh_token"), QString::fromLatin1(m_refreshToken));
    } else {
        form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("password"));
        form.addQueryItem(QStringLiteral("username"), m_credentials.username);
        form.addQueryItem(QStringLiteral("password"), m_credentials.password);
    }
    form.addQueryItem(QStringLiteral("client_id"), m_credentials.clientId);
    form.addQueryItem(QStringLiteral("client_secret"), m_credentials.clientSecret);

    m_accessToken.clear();
    QNetworkRequest request = userRequest(apiUrl(QStringLiteral("oauth/v2/token")));
    request.setHeader(QNetworkRequest::ContentTypeHeader,
                      QByteArrayLiteral("application/x-www-form-urlencoded"));
    QNetworkReply *reply = m_manager->post(request, form.toString(QUrl::FullyEncoded).toLatin1());
    watch(reply, [this, then = std::move(then), refresh](QNetworkReply *reply) {
        if (reply->error() != QNetworkReply::NoError) {
            if (refresh) {
                // The refresh token expired: sign in again with the password.
                m_refreshToken.clear();
                signIn(then);
                return;
            }
            fail(describeError(reply, Request::SignIn));
            return;
        }
        const QJsonObject token = QJsonDocument::fromJson(reply->readAll()).object();
        m_accessToken = token.value(QLatin1String("access_token")).toString().toLatin1();
        m_refreshToken = token.value(QLatin1String("refresh_token")).toString().toLatin1();
        if (m_accessToken.isEmpty()) {
            fail(tr("The server sent no access token."));
            return;
        }
        Q_EMIT signedIn();
        then();
    });
}

void WallabagClient::loadEntries(int perPage)
{
    if (m_loading)
        return;
    m_perPage = qBound(1, perPage, 500);
    m_pending.clear();
    m_retriedAfterUnauthorized = false;
    setLoading(true);
    if (m_accessToken.isEmpty())
        signIn([this] { fetchPage(1); });
    else
        fetchPage(1);
}

void WallabagClient::fetchPage(int page)
{
    QUrl url = apiUrl(QStringLiteral("api/entries.json"));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("archive"), QStringLiteral("0"));
    query.addQueryItem(QStringLiteral("sort"), QStringLiteral("created"));
    query.addQueryItem(QStringLiteral("order"), QStringLiteral("desc"));
    query.addQueryItem(QStringLiteral("page"), QString::number(page));
    query.addQueryItem(QStringLiteral("perPage"), QString::number(m_perPage));
    url.setQuery(query);

    watch(m_manager->get(userRequest(url)), [this, page](QNetworkReply *reply) {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 401 && !m_retriedAfterUnauthorized) {
            // The access token expired: get a new one and ask again, once.
            m_retriedAfterUnauthorized = true;
            signIn([this, page] { fetchPage(page); });
            return;
        }
        if (reply->error() != QNetworkReply::NoError) {
            fail(describeError(reply, Request::List));
            return;
        }
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(reply->readAll(), &parseError);
        if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
            // Not an empty list: something else answers at this address.
            fail(tr("%1 did not answer like a wallabag server. Check the server address.")
                     .arg(serverName()));
            return;
        }
        const QJsonObject body = document.object();
        const QJsonArray items = body.value(QLatin1String("_embedded"))
                                     .toObject()
                                     .value(QLatin1String("items"))
                                     .toArray();
        for (const QJsonValue &item : items)
            m_pending << Article::fromJson(item.toObject(), m_server);
        const int pages = qMax(1, body.value(QLatin1String("pages")).toInt(1));
        Q_EMIT pageLoaded(page, pages);
        if (page < pages && !items.isEmpty()) {
            fetchPage(page + 1);
            return;
        }
        setLoading(false);
        Q_EMIT entriesLoaded(std::exchange(m_pending, {}));
    });
}

void WallabagClient::loadEntry(int id)
{
    // The user moved on to another article: the previous one is not waited for any more,
    // and a request that keeps trying must not keep trying for nobody.
    if (m_entryReply) {
        m_entryReply->disconnect(this);
        m_replies.removeAll(m_entryReply);
        m_entryReply->abort();
        m_entryReply->deleteLater();
    }
    const QUrl url = apiUrl(QStringLiteral("api/entries/%1.json").arg(id));
    m_entryReply = m_manager->get(userRequest(url));
    watch(m_entryReply, [this, id](QNetworkReply *reply) {
        if (reply->error() != QNetworkReply::NoError) {
            Q_EMIT entryFailed(id, describeError(reply, Request::Entry));
            return;
        }
        Q_EMIT entryLoaded(
            Article::fromJson(QJsonDocument::fromJson(reply->readAll()).object(), m_server));
    });
}

QNetworkReply *WallabagClient::getImage(const QUrl &url)
{
    QNetworkRequest request(url);
    const bool sameOrigin = url.scheme() == m_server.scheme() && url.host() == m_server.host() &&
        url.port(-1) == m_server.port(-1);
    if (sameOrigin && !m_accessToken.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_accessToken);
    return m_manager->get(request);
}
