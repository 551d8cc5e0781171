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

QString WallabagClient::describeError(QNetworkReply *reply) const
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 401 || status == 403)
        return tr("The server did not accept the user name or password.");
    if (status >= 400)
        return tr("The server answered %1 %2.")
            .arg(status)
            .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString());
    return reply->errorString();
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
            fail(describeError(reply));
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
            fail(describeError(reply));
            return;
        }
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
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
    const QUrl url = apiUrl(QStringLiteral("api/entries/%1.json").arg(id));
    watch(m_manager->get(userRequest(url)), [this](QNetworkReply *reply) {
        if (reply->error() != QNetworkReply::NoError) {
            Q_EMIT failed(describeError(reply));
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
