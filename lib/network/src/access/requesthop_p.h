// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REQUESTHOP_P_H
#define KEEPTRYING_REQUESTHOP_P_H

#include <KeepTrying/retrypolicy.h>

#include <QtCore/QPointer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkRequest>

namespace KeepTrying {

/*
    What the next attempt of a request sends, and where: the URL, method and body of the
    current hop of its redirects, and its Idempotency-Key.

    The body is kept in memory when small enough (RetryPolicy::maxBufferedBodyBytes), else
    re-read from the caller's device by seeking when it can, else sent once. A request that
    must not reach the server twice (a method that is not idempotent, no Idempotency-Key)
    gets its body as a OneShotBody: Qt then cannot send it again by itself.

    Redirects are followed here rather than by Qt, with Qt's rules (the request's or the
    manager's policy, the redirect limit; 301/302/303 go on as a GET, 307/308 keep method
    and body), so that a retry goes to the hop that failed; credentials set by the caller
    do not follow to another origin unless the request keeps them.

    Except in the common case, where Qt's following is the same: a GET or HEAD without a
    body, credentials or a transfer timeout (Qt 6.4 does not time the hops it follows),
    under the manager's default policy (NoLessSafeRedirectPolicy) —
    Qt follows its redirects within one attempt, and a retry continues at the URL that
    failed (continueAt()). Marking every attempt for manual redirects costs Qt a request
    copy and an attribute looked up throughout the reply: 1.1 % of a small GET.
*/
class RequestHop
{
public:
    RequestHop(QNetworkAccessManager::Operation operation, const QNetworkRequest &request,
               QIODevice *outgoingData, const RetryPolicy &policy,
               QNetworkRequest::RedirectPolicy managerPolicy, int managerTransferTimeoutMs);

    QNetworkAccessManager::Operation operation() const { return m_operation; }
    const QNetworkRequest &request() const { return m_request; }
    QUrl url() const { return m_request.url(); }
    const QByteArray &method() const { return m_method; }
    const QByteArray &idempotencyKey() const { return m_idempotencyKey; }
    // Bytes of the body each attempt sends: 0 without one, -1 from a sequential device.
    qint64 bodySize() const;
    void setSslConfiguration(const QSslConfiguration &configuration);

    // Makes \a attemptRequest, a copy of request(), the request of attempt \a attempt,
    // resuming after \a handedOver body bytes with \a validator; returns its upload device
    // (null for none). A device made for it is a child of \a parent.
    QIODevice *prepare(QNetworkRequest &attemptRequest, int attempt, qint64 handedOver,
                       const QByteArray &validator, const RetryPolicy &policy, QObject *parent);
    // This attempt's body cannot be sent twice (Qt reports its re-send as ContentReSendError).
    bool isOneShot() const { return m_oneShot; }
    // The body comes from the caller's device (whose upload progress decides a replay).
    bool bodyFromDevice() const { return !m_bodyDevice.isNull(); }
    // Whether the body can be sent again, byte for byte, after \a sent bytes of it went.
    bool canSendBodyAgain(qint64 sent) const;
    // Whether this request may be sent again after an attempt that ended with \a error,
    // having sent \a sent body bytes (\a touchedNetwork: false for a simulated offline
    // attempt). A method that is not idempotent (RFC 9110 §9.2.2) goes again only with an
    // Idempotency-Key, or when it surely never reached the server or was surely not
    // processed there (\a neverProcessed).
    bool maySendAgain(QNetworkReply::NetworkError error, bool neverProcessed, bool touchedNetwork,
                      qint64 sent) const;

    // Whether we follow its redirects (a 3xx of an attempt is ours to follow).
    bool followsRedirects() const
    {
        return m_redirectPolicy != QNetworkRequest::ManualRedirectPolicy && !m_qtFollows;
    }
    // Whether Qt follows its redirects within an attempt (see above).
    bool qtFollowsRedirects() const { return m_qtFollows; }
    // Credentials will be added to each attempt (an authenticator): redirects stay ours.
    void keepRedirectsOurs() { m_qtFollows = false; }
    // The next attempt goes to \a url, where Qt's following of a redirect had come.
    void continueAt(const QUrl &url) { m_request.setUrl(url); }
    bool needsApproval() const
    {
        return m_redirectPolicy == QNetworkRequest::UserVerifiedRedirectPolicy;
    }
    // Checks the redirect \a response (status and Location) against the policy and the
    // limit: NoError and the next hop's URL in *target; else the error Qt gives for it and
    // a message in *why.
    QNetworkReply::NetworkError checkRedirect(const QNetworkReply *response, QUrl *target,
                                              QString *why) const;
    // Goes on to \a target, answered with \a status: method, body and credentials as
    // RFC 9110 §15.4 and the origin rule say.
    void moveTo(const QUrl &target, int status);

private:
    QNetworkAccessManager::Operation m_operation;
    QNetworkRequest m_request;
    QByteArray m_method;
    bool m_idempotentMethod = true; // RFC 9110 §9.2.2, of m_method
    QByteArray m_body;
    bool m_bodyBuffered = false;
    QPointer<QIODevice> m_bodyDevice;
    qint64 m_bodyDeviceStart = 0;
    QByteArray m_idempotencyKey;
    bool m_oneShot = false;
    QNetworkRequest::RedirectPolicy m_redirectPolicy;
    bool m_qtFollows = false;
    int m_maxRedirects = 50;
    int m_redirectsFollowed = 0;
    bool m_keepCredentials = false;
};

} // namespace KeepTrying

#endif // KEEPTRYING_REQUESTHOP_P_H
