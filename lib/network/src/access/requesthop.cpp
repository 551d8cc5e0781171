// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "requesthop_p.h"

#include <KeepTrying/retryingnetworkaccessmanager.h>

#include "oneshotbody_p.h"
#include "redirectrules_p.h"

#include <QtCore/QBuffer>
#include <QtCore/QCoreApplication>
#include <QtCore/QUuid>
#include <QtNetwork/QNetworkReply>

#include <algorithm>
#include <climits>

namespace KeepTrying {

namespace {

QByteArray methodOf(QNetworkAccessManager::Operation op, const QNetworkRequest &request)
{
    switch (op) {
    case QNetworkAccessManager::HeadOperation:
        return QByteArrayLiteral("HEAD");
    case QNetworkAccessManager::GetOperation:
        return QByteArrayLiteral("GET");
    case QNetworkAccessManager::PutOperation:
        return QByteArrayLiteral("PUT");
    case QNetworkAccessManager::PostOperation:
        return QByteArrayLiteral("POST");
    case QNetworkAccessManager::DeleteOperation:
        return QByteArrayLiteral("DELETE");
    case QNetworkAccessManager::CustomOperation:
        return request.attribute(QNetworkRequest::CustomVerbAttribute).toByteArray().toUpper();
    case QNetworkAccessManager::UnknownOperation:
        break;
    }
    return QByteArray();
}

} // namespace

RequestHop::RequestHop(QNetworkAccessManager::Operation operation, const QNetworkRequest &request,
                       QIODevice *outgoingData, const RetryPolicy &policy,
                       QNetworkRequest::RedirectPolicy managerPolicy, int managerTransferTimeoutMs)
    : m_operation(operation), m_request(request), m_method(methodOf(operation, request))
{
    if (outgoingData) {
        const qint64 remaining = outgoingData->size() - outgoingData->pos();
        if (!outgoingData->isSequential() && remaining <= policy.maxBufferedBodyBytes) {
            m_body = outgoingData->readAll();
            m_bodyBuffered = true;
        } else {
            m_bodyDevice = outgoingData;
            m_bodyDeviceStart = outgoingData->isSequential() ? 0 : outgoingData->pos();
        }
    }
    const QVariant redirectPolicy = request.attribute(QNetworkRequest::RedirectPolicyAttribute);
    m_redirectPolicy = redirectPolicy.isValid()
        ? QNetworkRequest::RedirectPolicy(redirectPolicy.toInt())
        : managerPolicy;
    m_qtFollows = !redirectPolicy.isValid() &&
        m_redirectPolicy == QNetworkRequest::NoLessSafeRedirectPolicy && !outgoingData &&
        (operation == QNetworkAccessManager::GetOperation ||
         operation == QNetworkAccessManager::HeadOperation) &&
        // Qt 6.4 does not time a hop it followed: a server that accepts and never answers
        // there would hold the request for ever, as with plain Qt.
        request.transferTimeout() == 0 && managerTransferTimeoutMs == 0 &&
        policy.attemptTimeoutMs <= 0 && !RedirectRules::carriesCredentials(request);
    m_maxRedirects = request.maximumRedirectsAllowed();
    const QVariant keepCredentials = request.attribute(QNetworkRequest::Attribute(
        RetryingNetworkAccessManager::KeepCredentialsOnRedirectAttribute));
    m_keepCredentials = keepCredentials.isValid() && keepCredentials.toBool();
    m_idempotentMethod = RetryPolicy::isIdempotentMethod(m_method);
    m_idempotencyKey = request.rawHeader(QByteArrayLiteral("Idempotency-Key"));
    if (m_idempotencyKey.isEmpty() && policy.addIdempotencyKey && !m_idempotentMethod) {
        m_idempotencyKey = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    }
}

qint64 RequestHop::bodySize() const
{
    if (!m_bodyDevice)
        return m_body.size();
    return m_bodyDevice->isSequential() ? -1 : m_bodyDevice->size() - m_bodyDeviceStart;
}

void RequestHop::setSslConfiguration(const QSslConfiguration &configuration)
{
#if QT_CONFIG(ssl)
    m_request.setSslConfiguration(configuration);
#else
    Q_UNUSED(configuration);
#endif
}

QIODevice *RequestHop::prepare(QNetworkRequest &r, int attempt, qint64 handedOver,
                               const QByteArray &validator, const RetryPolicy &policy,
                               QObject *parent)
{
    if (!m_idempotencyKey.isEmpty())
        r.setRawHeader("Idempotency-Key", m_idempotencyKey);
    if (policy.attemptTimeoutMs > 0)
        r.setTransferTimeout(int(std::min<qint64>(policy.attemptTimeoutMs, INT_MAX)));
    if (handedOver > 0) {
        // Resume where the caller's bytes end (RFC 9110 §14.2, §13.1.5).
        r.setRawHeader("Range", "bytes=" + QByteArray::number(handedOver) + '-');
        r.setRawHeader("If-Range", validator);
    }
    // Every hop of a redirect is ours to follow, unless Qt's following is the same: a retry
    // then goes to the hop that failed, and credentials stay with their origin.
    if (!m_qtFollows) {
        r.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                       QVariant::fromValue(QNetworkRequest::ManualRedirectPolicy));
    }

    if (m_bodyDevice && attempt > 1 && !m_bodyDevice->isSequential())
        m_bodyDevice->seek(m_bodyDeviceStart);
    // Qt sends a request again by itself when its connection closes before a response,
    // whatever the method. A request that must not reach the server twice (no
    // Idempotency-Key on a method that is not idempotent) gets a body Qt cannot rewind.
    qint64 oneShotLength = -1;
    if (!m_idempotentMethod && m_idempotencyKey.isEmpty()) {
        if (!m_bodyDevice)
            oneShotLength = m_body.size();
        else if (!m_bodyDevice->isSequential())
            oneShotLength = m_bodyDevice->size() - m_bodyDeviceStart;
        else if (r.header(QNetworkRequest::ContentLengthHeader).isValid())
            oneShotLength = r.header(QNetworkRequest::ContentLengthHeader).toLongLong();
    }
    m_oneShot = oneShotLength >= 0;
    if (m_oneShot) {
        r.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
        r.setHeader(QNetworkRequest::ContentLengthHeader, oneShotLength);
        return m_bodyDevice ? new OneShotBody(m_bodyDevice, oneShotLength, parent)
                            : new OneShotBody(m_body, parent);
    }
    if (m_bodyBuffered) {
        auto *replay = new QBuffer(parent);
        replay->setData(m_body);
        replay->open(QIODevice::ReadOnly);
        return replay;
    }
    return m_bodyDevice;
}

bool RequestHop::canSendBodyAgain(qint64 sent) const
{
    return !m_bodyDevice || (!m_bodyDevice->isSequential() && sent == 0);
}

bool RequestHop::maySendAgain(QNetworkReply::NetworkError error, bool neverProcessed,
                              bool touchedNetwork, qint64 sent) const
{
    if (touchedNetwork && !canSendBodyAgain(sent))
        return false;
    if (m_idempotentMethod || !m_idempotencyKey.isEmpty())
        return true;
    const bool neverSent = !touchedNetwork || error == QNetworkReply::HostNotFoundError ||
        error == QNetworkReply::ConnectionRefusedError ||
        error == QNetworkReply::ProxyNotFoundError ||
        error == QNetworkReply::ProxyConnectionRefusedError;
    return neverSent || neverProcessed;
}

QNetworkReply::NetworkError RequestHop::checkRedirect(const QNetworkReply *response, QUrl *target,
                                                      QString *why) const
{
    *target =
        response->url().resolved(QUrl::fromEncoded(response->rawHeader("Location").trimmed()));
    if (target->fragment().isNull() && m_request.url().hasFragment())
        target->setFragment(m_request.url().fragment()); // RFC 9110 §10.2.2
    if (m_redirectsFollowed >= m_maxRedirects) {
        *why = QCoreApplication::translate("RetryingReply", "Too many redirects (more than %1)")
                   .arg(m_maxRedirects);
        return QNetworkReply::TooManyRedirectsError;
    }
    return RedirectRules::check(m_redirectPolicy, response->url(), *target, why);
}

void RequestHop::moveTo(const QUrl &target, int status)
{
    ++m_redirectsFollowed;
    const QUrl from = m_request.url();
    const QNetworkAccessManager::Operation next =
        RedirectRules::operationAfter(status, m_operation);
    if (next != m_operation || (status != 307 && status != 308)) {
        // 301, 302 and 303 go on as a GET (a HEAD stays a HEAD) without the body.
        if (next != m_operation || m_bodyBuffered || m_bodyDevice) {
            m_body.clear();
            m_bodyBuffered = false;
            m_bodyDevice = nullptr;
            m_idempotencyKey.clear();
            RedirectRules::stripBodyHeaders(m_request);
            m_request.setAttribute(QNetworkRequest::CustomVerbAttribute, QVariant());
        }
        m_operation = next;
        m_method = methodOf(next, m_request);
        m_idempotentMethod = RetryPolicy::isIdempotentMethod(m_method);
    }
    if (!m_keepCredentials && !RedirectRules::isSameOrigin(from, target))
        RedirectRules::stripCredentials(m_request);
    m_request.setUrl(target);
}

} // namespace KeepTrying
