// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_WALLABAGCLIENT_H
#define KEEPTRYING_READER_WALLABAGCLIENT_H

#include "article.h"

#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QUrl>

#include <functional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
QT_END_NAMESPACE

/*
    The part of the wallabag v2 REST API the reader uses: the OAuth password grant,
    the paged entry list and single entries. It does no retrying itself: it is handed a
    RetryingNetworkAccessManager and lets it do that work, like any other
    QNetworkAccessManager client would. The requests the user waits for (sign-in, the
    list, the article shown) are marked so that the retry banner watches them and not the
    thumbnails, and carry the manager's policy with no limit on server faults: they end
    when they succeed, meet a permanent error, or the user moves on (loadEntry() for
    another article aborts the previous one).
*/
class WallabagClient : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool loading READ isLoading NOTIFY loadingChanged)

public:
    struct Credentials
    {
        QString clientId;
        QString clientSecret;
        QString username;
        QString password;
    };

    explicit WallabagClient(QNetworkAccessManager *manager, QObject *parent = nullptr);
    ~WallabagClient() override;

    void setServer(const QUrl &server, const Credentials &credentials);
    QUrl server() const { return m_server; }
    /*! The server as a user would write it: its host, and its port when the URL names one. */
    QString serverName() const;

    /*! Signs in when needed, then fetches every page of unarchived entries (\a perPage per
        request). entriesLoaded() or failed() follows; failed() only for what trying again
        cannot fix (a wrong password, a wrong address), with a message that says what the
        user can do. */
    void loadEntries(int perPage = 50);
    /*! Fetches one entry with its content; entryLoaded() or entryFailed() follows. Aborts
        the entry asked for before, if it is still loading. */
    void loadEntry(int id);
    /*! GETs an image; the caller owns the reply. The access token is only sent to the
        wallabag server itself, never to the hosts of third-party images. */
    QNetworkReply *getImage(const QUrl &url);

    bool isLoading() const { return m_loading; }

Q_SIGNALS:
    void signedIn();
    void pageLoaded(int page, int pages);
    void entriesLoaded(const QList<Article> &articles);
    void entryLoaded(const Article &article);
    void failed(const QString &message);
    void entryFailed(int id, const QString &message);
    void loadingChanged(bool loading);

private:
    QUrl apiUrl(const QString &path) const;
    QNetworkRequest userRequest(const QUrl &url) const;
    void signIn(std::function<void()> then);
    void fetchPage(int page);
    void setLoading(bool loading);
    void fail(const QString &message);
    enum class Request { SignIn, List, Entry };
    // A permanent error in words a user understands, with what they can do about it.
    QString describeError(QNetworkReply *reply, Request what) const;
    // Tracks \a reply so that it is aborted with the client, and calls \a done when finished.
    void watch(QNetworkReply *reply, std::function<void(QNetworkReply *)> done);

    QNetworkAccessManager *m_manager;
    QUrl m_server;
    Credentials m_credentials;
    QByteArray m_accessToken;
    QByteArray m_refreshToken;
    QList<Article> m_pending;
    QList<QPointer<QNetworkReply>> m_replies;
    QPointer<QNetworkReply> m_entryReply; // the article the user looks at
    // Server-fault attempts for a request the user waits for: in practice, no limit (at one
    // attempt per maximum backoff, years).
    static constexpr int UserWaitingMaxAttempts = 10000000;
    int m_perPage = 50;
    bool m_loading = false;
    bool m_retriedAfterUnauthorized = false;
};

#endif // KEEPTRYING_READER_WALLABAGCLIENT_H
