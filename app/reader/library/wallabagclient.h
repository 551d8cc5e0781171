// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_WALLABAGCLIENT_H
#define KEEPTRYING_READER_WALLABAGCLIENT_H

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QUrl>

#include <functional>

namespace KeepTrying {
class Authenticator;
}

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
QT_END_NAMESPACE

/*
    The wallabag v2 REST API, and nothing else: the OAuth password and refresh-token grants,
    the paged entry list, single entries and the writes (PATCH, DELETE, POST entries,
    DELETE a tag). It keeps no articles and knows no screen: the sync engine calls it and
    puts what it answers in the local store.

    It does no retrying itself: it is handed a RetryingNetworkAccessManager and lets it do
    that work. Every call is given the manager's policy with no limit on server faults, so
    that a call ends only when it succeeds, meets a permanent error, or is cancelled (the
    user moved on): a call the user waits for never gives up behind their back. Calls made
    with Waiting::User are marked for the retry banner.

    An access token that expires (wallabag: after 3600 s, 401 invalid_grant) is renewed by
    the manager's authenticator hook (authenticator(), a KeepTrying::Authenticator): the
    manager signs every attempt to the server with the current token, asks for one renewal
    (the refresh-token grant) however many calls meet the 401, holds them meanwhile and
    sends each again once with the new token; the user notices nothing, and twenty calls
    that find the token expired cost one token request (wallabag's refresh tokens work once).
    A refresh token the server no longer knows falls back to the password grant. A renewal
    that gets no answer (network down) keeps the sign-in and the tokens and is tried again
    after a backoff; only an answer that refuses the credentials signs out. Credentials are
    kept in memory only; they are never logged.
*/
class WallabagClient : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool signedIn READ isSignedIn NOTIFY signedInChanged)

public:
    struct Credentials
    {
        QString clientId;
        QString clientSecret;
        QString username;
        QString password;
    };

    // What a call ended with. ok: a 2xx answer (json holds its body). Otherwise message
    // says in words what went wrong and what the user can do; status is the HTTP status
    // (0 without an answer).
    struct Result
    {
        bool ok = false;
        int status = 0;
        QJsonObject json;
        QString message;
    };
    using Callback = std::function<void(const Result &)>;
    enum class Waiting { Background, User };
    // What a call is for, to put a refusal in the right words.
    enum class Purpose { List, Entry, Write };

    explicit WallabagClient(QNetworkAccessManager *manager, QObject *parent = nullptr);
    ~WallabagClient() override;

    /*! Forgets the tokens; the next call signs in with \a credentials. Calls still running
        (and a token request) are stopped without calling back: their answers would be the
        previous server's or account's. */
    void setServer(const QUrl &server, const Credentials &credentials);
    QUrl server() const { return m_server; }
    QString username() const { return m_credentials.username; }
    /*! The server as a user would write it: its host, and its port when the URL names one. */
    QString serverName() const;
    bool isSignedIn() const { return !m_accessToken.isEmpty(); }

    /*! Signs in now (password grant); signedInChanged(true) or signInFailed() follows.
        Calls sign in by themselves when needed. */
    void signIn();

    /*! GET api/entries.json with \a query items (since, detail, page, perPage, ...). */
    QUrl entriesUrl(const QList<QPair<QString, QString>> &query) const;
    /*! GETs \a url (an entries page, or a _links.next the server gave, which must be on the
        same origin: another one is refused without a request). Returns a call id. */
    quint64 getJson(const QUrl &url, Purpose purpose, Waiting waiting, Callback done);
    /*! GET api/entries/{id}.json (with its content), kept pinned in the manager's offline
        copies (a saved article is readable offline). When the fresh answer is slow or
        the network is gone, \a stale (if set) is called first with the stored copy, at
        most once; \a done follows as always. */
    quint64 fetchEntry(qint64 id, Waiting waiting, Callback done, Callback stale = {});
    /*! PATCH api/entries/{id}.json with \a fields (starred, archive: JSON). Not for tags:
        wallabag's PATCH replaces all the entry's tags with a non-empty list; tags are added
        with POST api/entries/{id}/tags.json and removed one by one (removeTag()). */
    quint64 patchEntry(qint64 id, const QJsonObject &fields, Callback done);
    /*! DELETE api/entries/{id}.json. A 404 counts as done: it is gone either way. */
    quint64 deleteEntry(qint64 id, Callback done);
    /*! POST api/entries.json: saves \a url; answers the new (or existing) entry. */
    quint64 addEntry(const QUrl &url, Callback done);
    /*! DELETE api/entries/{id}/tags/{tagId}.json (200 even when the tag is not on it). */
    quint64 removeTag(qint64 id, int tagId, Callback done);
    /*! The access token of the current sign-in, or empty before the first one. */
    QByteArray accessToken() const { return m_accessToken; }
    /*! The hook that signs this client's requests and renews its token: a write sent
        outside this client (the Outbox) names it on its request
        (KeepTrying::Authenticator::useAuthenticator()), and is signed and renewed for the
        same way. Owned by the client. */
    KeepTrying::Authenticator *authenticator() const;
    /*! The URL of \a path (e.g. "api/entries/4.json") under the server, keeping a path
        prefix such as https://host/wallabag/. */
    QUrl apiUrl(const QString &path) const;
    /*! A write to send outside this client (the Outbox): JSON accept and content type, no
        credentials (the signer adds them). */
    QNetworkRequest writeRequest(const QUrl &url) const;
    /*! Words for a write the server refused with HTTP \a status (\a reasonPhrase, may be
        empty): what went wrong and what the user can do. */
    QString describeRefusal(int status, const QString &reasonPhrase, Purpose what) const;
    /*! The reply of call \a id's current attempt at the manager, or null (not sent yet,
        waiting for a token, or finished). */
    QNetworkReply *replyOf(quint64 id) const;
    /*! Stops call \a id: its callback is not called. Unknown ids are ignored. */
    void cancel(quint64 id);

    /*! GETs an image; the caller owns the reply. The access token is only sent to the
        wallabag server itself, never to the hosts of third-party images. \a offlineCopy
        (KeepTrying::OfflineCopy::Mode): Keep for previews, KeepPinned for the pictures
        inside a saved article. */
    QNetworkReply *getImage(const QUrl &url, int offlineCopy);
    /*! Unpins and removes the offline copy of article \a id (it was deleted). */
    void forgetEntry(qint64 id);

Q_SIGNALS:
    void signedInChanged(bool signedIn);
    /*! Signing in failed for a reason trying again cannot fix (a wrong password, a wrong
        client id, no wallabag at that address); \a message says so in words. Calls waiting
        for the sign-in end with the same message. */
    void signInFailed(const QString &message);
    /*! A call's attempt started or ended; for the status bar's "N requests" (count). */
    void busyChanged(int running);

private:
    struct Call
    {
        QByteArray verb;
        QUrl url;
        QByteArray body;
        Purpose purpose = Purpose::List;
        Waiting waiting = Waiting::Background;
        Callback done;
        QPointer<QNetworkReply> reply;
        Callback stale; // an entry's offline copy, offered while the fresh one is slow
    };
    class Renewal;

    quint64 start(Call call);
    void send(quint64 id);
    void finished(quint64 id, QNetworkReply *reply);
    void requestToken(); // the renewal: the refresh-token grant, else the password grant
    void tokenFinished(QNetworkReply *reply, bool refresh);
    void flushWaitingForToken(const QString &failure);
    QNetworkRequest request(const QUrl &url, Waiting waiting) const;
    QString describeError(QNetworkReply *reply, const QByteArray &body, Purpose what) const;
    QString describeSignInError(QNetworkReply *reply, const QByteArray &body) const;

    QNetworkAccessManager *m_manager;
    QUrl m_server;
    Credentials m_credentials;
    QByteArray m_accessToken;
    QByteArray m_refreshToken;
    QHash<quint64, Call> m_calls;
    QList<quint64> m_waitingForToken;
    QPointer<QNetworkReply> m_tokenReply;
    Renewal *m_renewal; // a child
    quint64 m_nextId = 1;
    // Server-fault attempts for a call: in practice, no limit (at one attempt per maximum
    // backoff, years).
    static constexpr int UnlimitedAttempts = 10000000;
};

#endif // KEEPTRYING_READER_WALLABAGCLIENT_H
