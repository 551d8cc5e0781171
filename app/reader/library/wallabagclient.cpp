// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "wallabagclient.h"

#include "wallabagjson.h"

#include <KeepTrying/authenticator.h>
#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retrybannercontroller.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

Q_LOGGING_CATEGORY(lcClient, "keeptrying.reader.client", QtWarningMsg)

namespace {

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    return a.scheme() == b.scheme() && a.host() == b.host() && a.port(-1) == b.port(-1);
}

} // namespace

// The manager's hook for this client's token: it signs every attempt to the server with the
// current access token and, on a 401, asks for one renewal however many requests met it.
class WallabagClient::Renewal final : public KeepTrying::Authenticator
{
public:
    explicit Renewal(WallabagClient *client) : Authenticator(client), m_client(client) { }

    QString accountKey(const QNetworkRequest &request) const override
    {
        // The token goes to the wallabag server only, never to the hosts of images.
        return sameOrigin(request.url(), m_client->m_server) ? Authenticator::accountKey(request)
                                                             : QString();
    }
    void sign(const QString &, QNetworkRequest &request) const override
    {
        if (!m_client->m_accessToken.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + m_client->m_accessToken);
    }
    QString key() const { return Authenticator::accountKey(QNetworkRequest(m_client->m_server)); }
    void finish(Result result) { finishRenewal(key(), result); }

protected:
    void renew(const QString &) override { m_client->requestToken(); }

private:
    WallabagClient *m_client;
};

WallabagClient::WallabagClient(QNetworkAccessManager *manager, QObject *parent)
    : QObject(parent), m_manager(manager), m_renewal(new Renewal(this))
{
}

KeepTrying::Authenticator *WallabagClient::authenticator() const
{
    return m_renewal;
}

WallabagClient::~WallabagClient()
{
    // Replies still running belong to the manager; stop them so none calls back into us.
    const auto stop = [this](QNetworkReply *reply) {
        if (!reply)
            return;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    };
    for (const Call &call : std::as_const(m_calls))
        stop(call.reply);
    stop(m_tokenReply);
}

void WallabagClient::setServer(const QUrl &server, const Credentials &credentials)
{
    // What is still running belongs to the previous server or account: its answers must
    // not reach the new one's callers, and its token must not be taken for the new one's.
    const QList<quint64> running = m_calls.keys();
    for (quint64 id : running)
        cancel(id);
    if (m_tokenReply) {
        QPointer<QNetworkReply> reply = std::exchange(m_tokenReply, {});
        reply->disconnect(this);
        reply->abort();
        if (reply)
            reply->deleteLater();
    }
    m_waitingForToken.clear();
    // Requests parked for the previous account's renewal get their 401.
    m_renewal->finish(KeepTrying::Authenticator::Rejected);
    m_server = server;
    m_credentials = credentials;
    const bool wasSignedIn = isSignedIn();
    m_accessToken.clear();
    m_refreshToken.clear();
    if (wasSignedIn)
        Q_EMIT signedInChanged(false);
}

QString WallabagClient::serverName() const
{
    // The name a person knows the server by; the port is for the log and the Developer window.
    return m_server.host();
}

QUrl WallabagClient::apiUrl(const QString &path) const
{
    // Keeps a path prefix such as https://host/wallabag/ in front of the API path.
    QUrl url = m_server;
    QString base = url.path();
    if (!base.endsWith(QLatin1Char('/')))
        base += QLatin1Char('/');
    url.setPath(base + path);
    url.setQuery(QString());
    return url;
}

QNetworkRequest WallabagClient::writeRequest(const QUrl &url) const
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    return request;
}

QUrl WallabagClient::entriesUrl(const QList<QPair<QString, QString>> &query) const
{
    QUrl url = apiUrl(QStringLiteral("api/entries.json"));
    QUrlQuery items;
    items.setQueryItems(query);
    url.setQuery(items);
    return url;
}

QNetworkRequest WallabagClient::request(const QUrl &url, Waiting waiting) const
{
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    // The manager signs each attempt with the current token (m_renewal).
    KeepTrying::Authenticator::useAuthenticator(request, m_renewal);
    if (waiting == Waiting::User)
        KeepTrying::RetryBannerController::markUserWaiting(request);
    // The reader has no retry button and must not need one: a call keeps trying (at the
    // manager's pace, capped, behind its breaker and budget) until it succeeds, meets a
    // permanent error, or is cancelled.
    if (auto *retrying = qobject_cast<KeepTrying::RetryingNetworkAccessManager *>(m_manager)) {
        KeepTrying::RetryPolicy policy = retrying->retryPolicy();
        policy.maxAttempts = UnlimitedAttempts;
        request.setAttribute(QNetworkRequest::Attribute(
                                 KeepTrying::RetryingNetworkAccessManager::RetryPolicyAttribute),
                             QVariant::fromValue(policy));
    }
    return request;
}

quint64 WallabagClient::getJson(const QUrl &url, Purpose purpose, Waiting waiting, Callback done)
{
    if (!sameOrigin(url, m_server)) {
        // A next link elsewhere would take the token along: never follow it.
        Result result;
        result.message = tr("%1 pointed the list to another server (%2); the reader only "
                            "talks to the server you signed in to.")
                             .arg(serverName(), url.host());
        done(result);
        return 0;
    }
    return start({ "GET", url, {}, purpose, waiting, std::move(done), {}, {} });
}

quint64 WallabagClient::fetchEntry(qint64 id, Waiting waiting, Callback done, Callback stale)
{
    return start({ "GET",
                   apiUrl(QStringLiteral("api/entries/%1.json").arg(id)),
                   {},
                   Purpose::Entry,
                   waiting,
                   std::move(done),
                   {},
                   std::move(stale) });
}

void WallabagClient::forgetEntry(qint64 id)
{
    if (auto *retrying = qobject_cast<KeepTrying::RetryingNetworkAccessManager *>(m_manager))
        retrying->removeOfflineCopy(apiUrl(QStringLiteral("api/entries/%1.json").arg(id)));
}

quint64 WallabagClient::patchEntry(qint64 id, const QJsonObject &fields, Callback done)
{
    return start({ "PATCH",
                   apiUrl(QStringLiteral("api/entries/%1.json").arg(id)),
                   QJsonDocument(fields).toJson(QJsonDocument::Compact),
                   Purpose::Write,
                   Waiting::Background,
                   std::move(done),
                   {},
                   {} });
}

quint64 WallabagClient::deleteEntry(qint64 id, Callback done)
{
    auto gone = [done = std::move(done)](const Result &result) {
        if (!result.ok && result.status == 404) {
            Result ok = result;
            ok.ok = true; // deleted already, here or elsewhere: what the user asked for
            done(ok);
            return;
        }
        done(result);
    };
    return start({ "DELETE",
                   apiUrl(QStringLiteral("api/entries/%1.json").arg(id)),
                   {},
                   Purpose::Write,
                   Waiting::Background,
                   std::move(gone),
                   {},
                   {} });
}

quint64 WallabagClient::addEntry(const QUrl &url, Callback done)
{
    const QJsonObject body { { QStringLiteral("url"), url.toString(QUrl::FullyEncoded) } };
    return start({ "POST",
                   apiUrl(QStringLiteral("api/entries.json")),
                   QJsonDocument(body).toJson(QJsonDocument::Compact),
                   Purpose::Write,
                   Waiting::Background,
                   std::move(done),
                   {},
                   {} });
}

quint64 WallabagClient::removeTag(qint64 id, int tagId, Callback done)
{
    return start({ "DELETE",
                   apiUrl(QStringLiteral("api/entries/%1/tags/%2.json").arg(id).arg(tagId)),
                   {},
                   Purpose::Write,
                   Waiting::Background,
                   std::move(done),
                   {},
                   {} });
}

QNetworkReply *WallabagClient::replyOf(quint64 id) const
{
    const auto it = m_calls.constFind(id);
    return it == m_calls.constEnd() ? nullptr : it->reply.data();
}

void WallabagClient::cancel(quint64 id)
{
    const auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    QPointer<QNetworkReply> reply = it->reply;
    m_calls.erase(it);
    m_waitingForToken.removeAll(id);
    if (reply) {
        // A request that keeps trying must not keep trying for nobody.
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
    Q_EMIT busyChanged(int(m_calls.size()));
}

quint64 WallabagClient::start(Call call)
{
    const quint64 id = m_nextId++;
    m_calls.insert(id, std::move(call));
    Q_EMIT busyChanged(int(m_calls.size()));
    auto *retrying = qobject_cast<KeepTrying::RetryingNetworkAccessManager *>(m_manager);
    const bool offline = retrying &&
        (retrying->isSimulatedOffline() ||
         retrying->reachability()->state() == KeepTrying::Reachability::State::Offline);
    const auto it = m_calls.constFind(id);
    if (m_accessToken.isEmpty() && offline && it->stale) {
        // Offline with no token yet: the request goes now, so that its offline copy is
        // offered at once; when it is sent for real, the 401 signs in and sends it again.
        send(id);
    } else if (m_accessToken.isEmpty()) {
        // Not signed in yet: it goes with the first token, or ends with the sign-in's words.
        m_waitingForToken << id;
        signIn();
    } else {
        send(id); // while a token is renewed, the manager holds it for the new one
    }
    return id;
}

void WallabagClient::send(quint64 id)
{
    auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    QNetworkRequest req = request(it->url, it->waiting);
    QNetworkReply *reply = nullptr;
    if (it->verb == "GET") {
        // An article's content is the user's saved copy: kept pinned, offered when the
        // network is slow or gone. The list is not: it lives in the reader's own store
        // (LocalStore), where counts, tags and search are queries, not pages to re-parse.
        if (it->purpose == Purpose::Entry)
            req.setAttribute(KeepTrying::OfflineCopy::ModeAttribute,
                             int(KeepTrying::OfflineCopy::KeepPinned));
        reply = m_manager->get(req);
        if (auto *retrying = qobject_cast<KeepTrying::RetryingReply *>(reply);
            retrying && it->stale) {
            connect(retrying, &KeepTrying::RetryingReply::staleCopyOffered, this,
                    [this, id, retrying](qint64) {
                        auto call = m_calls.find(id);
                        if (call == m_calls.end() || call->reply != retrying || !call->stale)
                            return;
                        Result result;
                        result.status = retrying->staleCopyStatus();
                        const std::optional<QJsonObject> copy =
                            WallabagJson::object(retrying->staleCopyBody());
                        result.ok = copy.has_value();
                        result.json = copy.value_or(QJsonObject());
                        const Callback stale = std::move(call->stale);
                        call->stale = {};
                        if (result.ok)
                            stale(result);
                    });
        }
    } else if (it->verb == "DELETE") {
        reply = m_manager->deleteResource(req);
    } else {
        QNetworkRequest withBody = req;
        withBody.setHeader(QNetworkRequest::ContentTypeHeader,
                           QByteArrayLiteral("application/json"));
        if (it->verb == "POST" && it->url.path().endsWith(QLatin1String("/api/entries.json"))) {
            // An add: wallabag ignores Idempotency-Key and stores an add only after its page
            // fetch, so a second POST racing the first makes a second entry. Without a key
            // the manager sends it again only when it cannot have reached the server.
            if (auto *retrying =
                    qobject_cast<KeepTrying::RetryingNetworkAccessManager *>(m_manager)) {
                KeepTrying::RetryPolicy policy = retrying->retryPolicy();
                policy.addIdempotencyKey = false;
                withBody.setAttribute(
                    QNetworkRequest::Attribute(
                        KeepTrying::RetryingNetworkAccessManager::RetryPolicyAttribute),
                    QVariant::fromValue(policy));
            }
        }
        reply = it->verb == "POST" ? m_manager->post(withBody, it->body)
                                   : m_manager->sendCustomRequest(withBody, it->verb, it->body);
    }
    it->reply = reply;
    connect(reply, &QNetworkReply::finished, this, [this, id, reply] { finished(id, reply); });
}

void WallabagClient::finished(quint64 id, QNetworkReply *reply)
{
    reply->deleteLater();
    auto it = m_calls.find(id);
    if (it == m_calls.end() || it->reply != reply)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    // A 401 here came after a renewal (the manager sent the call again once with the new
    // token), or the sign-in was refused: the server does not take this account any more.
    Result result;
    result.status = status;
    if (reply->error() == QNetworkReply::NoError) {
        const std::optional<QJsonObject> json = WallabagJson::object(body);
        if (it->verb == "GET" && !json) {
            qCInfo(lcClient) << "not JSON:" << it->url.path();
            result.message =
                tr("This address doesn't look like a wallabag server — check it in Sign In. It is "
                   "the address you open wallabag at in a browser.");
        } else {
            result.ok = true;
            result.json = json.value_or(QJsonObject()); // a write's answer may have no body
        }
    } else {
        result.message = describeError(reply, body, it->purpose);
    }
    const Callback done = std::move(it->done);
    m_calls.erase(it);
    Q_EMIT busyChanged(int(m_calls.size()));
    done(result);
}

void WallabagClient::signIn()
{
    m_renewal->requestRenewal(m_renewal->key()); // one token request at a time
}

void WallabagClient::requestToken()
{
    if (m_tokenReply)
        return;
    // OAuth2 password or refresh-token grant, form-encoded as wallabag's documentation shows.
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
    // A form encodes a space as '+', and '+' itself as %2B.
    QByteArray encoded = form.toString(QUrl::FullyEncoded).toLatin1();
    encoded.replace("+", "%2B");

    QNetworkRequest req = request(apiUrl(QStringLiteral("oauth/v2/token")), Waiting::User);
    KeepTrying::Authenticator::excludeRequest(req); // it never waits for itself
    req.setHeader(QNetworkRequest::ContentTypeHeader,
                  QByteArrayLiteral("application/x-www-form-urlencoded"));
    m_tokenReply = m_manager->post(req, encoded);
    QNetworkReply *reply = m_tokenReply;
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, refresh] { tokenFinished(reply, refresh); });
}

void WallabagClient::tokenFinished(QNetworkReply *reply, bool refresh)
{
    reply->deleteLater();
    m_tokenReply.clear();
    const QByteArray body = reply->readAll();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() != QNetworkReply::NoError && status == 0 && !m_accessToken.isEmpty()) {
        // A renewal without an answer (the server or the network is down): nothing says
        // the credentials are wrong. Keep them and the sign-in; the calls keep waiting, and
        // the renewal is tried again after a backoff.
        m_renewal->finish(KeepTrying::Authenticator::Unavailable);
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        if (refresh) {
            // The refresh token is not known any more: sign in again with the password.
            m_refreshToken.clear();
            requestToken();
            return;
        }
        // Refused: the credentials are wrong (or the server is not wallabag).
        const QString message = describeSignInError(reply, body);
        const bool wasSignedIn = isSignedIn();
        m_accessToken.clear();
        m_renewal->finish(KeepTrying::Authenticator::Rejected); // the calls held get their 401
        flushWaitingForToken(message);
        if (wasSignedIn)
            Q_EMIT signedInChanged(false);
        Q_EMIT signInFailed(message);
        return;
    }
    WallabagJson::Token token = WallabagJson::token(body);
    const bool wasSignedIn = !m_accessToken.isEmpty();
    m_accessToken = std::move(token.accessToken);
    m_refreshToken = std::move(token.refreshToken);
    if (m_accessToken.isEmpty()) {
        qCInfo(lcClient) << "no access token in the answer to the sign-in";
        const QString message =
            tr("This address doesn't look like a wallabag server — check it in Sign In. It is "
               "the address you open wallabag at in a browser.");
        m_renewal->finish(KeepTrying::Authenticator::Rejected);
        flushWaitingForToken(message);
        Q_EMIT signInFailed(message);
        return;
    }
    m_renewal->finish(KeepTrying::Authenticator::Renewed); // the calls held go again
    if (!wasSignedIn)
        Q_EMIT signedInChanged(true);
    flushWaitingForToken(QString());
}

void WallabagClient::flushWaitingForToken(const QString &failure)
{
    const QList<quint64> waiting = std::exchange(m_waitingForToken, {});
    for (quint64 id : waiting) {
        if (failure.isEmpty()) {
            send(id);
            continue;
        }
        auto it = m_calls.find(id);
        if (it == m_calls.end())
            continue;
        const Callback done = std::move(it->done);
        m_calls.erase(it);
        Result result;
        result.message = failure;
        done(result);
    }
    Q_EMIT busyChanged(int(m_calls.size()));
}

QString WallabagClient::describeSignInError(QNetworkReply *reply, const QByteArray &body) const
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    // OAuth errors (RFC 6749 §5.2) name themselves in the body, whatever the status; a
    // wrong password at wallabag is a 400 invalid_grant, not a 401.
    const QString oauthError =
        QJsonDocument::fromJson(body).object().value(QLatin1String("error")).toString();
    if (oauthError == QLatin1String("invalid_grant"))
        return tr("The server did not accept the user name “%1” or its password. Check "
                  "them, then sign in again.")
            .arg(m_credentials.username);
    if (oauthError == QLatin1String("invalid_client") ||
        oauthError == QLatin1String("unauthorized_client"))
        return tr("The server did not accept the reader's client ID or secret. Check the "
                  "API client you created in wallabag, then sign in with its ID and secret.");
    // No such route, method or protocol here (a web server that is not wallabag answers a
    // POST with 404, 405 or 501): the address is the problem, not the server.
    if (status == 404 || status == 405 || status == 501) {
        qCInfo(lcClient) << "sign-in answered" << status;
        return tr("This address doesn't look like a wallabag server — check it in Sign In. It is "
                  "the address you open wallabag at in a browser.");
    }
    return describeError(reply, body, Purpose::List);
}

QString WallabagClient::describeError(QNetworkReply *reply, const QByteArray &body,
                                      Purpose what) const
{
    Q_UNUSED(body)
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0 && reply->error() == QNetworkReply::SslHandshakeFailedError)
        return tr("The reader did not connect to %1: its certificate is not one this "
                  "computer trusts, so nothing was sent to it.")
            .arg(m_server.host());
    if (status == 0) {
        // No answer at all, and not one the manager retries (those never end here): TLS,
        // a scheme Qt cannot speak, a redirect loop. Qt's own words say which.
        return tr("The connection to %1 failed: %2. Check the server address.")
            .arg(serverName(), reply->errorString());
    }
    return describeRefusal(
        status, reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString(), what);
}

QString WallabagClient::describeRefusal(int status, const QString &reasonPhrase, Purpose what) const
{
    if (status == 401)
        return tr("%1 no longer accepts this sign-in, even after signing in again. Check "
                  "the user name and password, then sign in again.")
            .arg(serverName());
    if (status == 403)
        return tr("%1 does not let this account make this change or read this. Ask the "
                  "server's administrator to allow it.")
            .arg(serverName());
    if (status == 404 && what != Purpose::List)
        return tr("This article is no longer on the server: it may have been deleted "
                  "elsewhere.");
    // The status and its phrase are for the log and the Developer window, not for the reader.
    qCInfo(lcClient) << "refused:" << status << reasonPhrase.trimmed();
    if (status == 404 || status == 405 || status == 501)
        return tr("This address doesn't look like a wallabag server — check it in Sign In. It is "
                  "the address you open wallabag at in a browser.");
    if (status >= 500)
        return tr("%1 has a problem of its own that trying again does not fix. Tell the "
                  "server's administrator.")
            .arg(serverName());
    if (what == Purpose::Write)
        return tr("%1 did not accept this change, so it is not saved there.").arg(serverName());
    return tr("%1 refused the reader's request. Check the address in Sign In, or tell the "
              "server's administrator.")
        .arg(serverName());
}

QNetworkReply *WallabagClient::getImage(const QUrl &url, int offlineCopy)
{
    QNetworkRequest request(url);
    request.setAttribute(KeepTrying::OfflineCopy::ModeAttribute, offlineCopy);
    // Signed by the manager, and only for the wallabag server itself (Renewal::accountKey).
    KeepTrying::Authenticator::useAuthenticator(request, m_renewal);
    return m_manager->get(request);
}
