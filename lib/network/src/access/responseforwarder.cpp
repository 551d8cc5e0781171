// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "responseforwarder_p.h"

#include "contentrange_p.h"
#include "retryingreply_p.h"

#include <QtCore/QMetaMethod>
#include <QtCore/QPointer>

#include <algorithm>
#include <cstring>

namespace KeepTrying {

namespace {

// The attributes a reply (rather than a request) carries.
constexpr QNetworkRequest::Attribute replyAttributes[] = {
    QNetworkRequest::HttpStatusCodeAttribute,    QNetworkRequest::HttpReasonPhraseAttribute,
    QNetworkRequest::RedirectionTargetAttribute, QNetworkRequest::ConnectionEncryptedAttribute,
    QNetworkRequest::SourceIsFromCacheAttribute, QNetworkRequest::HttpPipeliningWasUsedAttribute,
    QNetworkRequest::Http2WasUsedAttribute,      QNetworkRequest::OriginalContentLengthAttribute,
};

// Whether \a response is at another URL than \a reply shows. Mostly both share one copy of
// the request's URL: then no comparison, part by part, is needed.
bool movedFrom(const QNetworkReply *reply, const QNetworkReply *response)
{
    QUrl at = response->url();
    QUrl shown = reply->url();
    return at.data_ptr() != shown.data_ptr() && at != shown;
}

} // namespace

void ResponseForwarder::beginAttempt()
{
    mode = Mode::Undecided;
    heldBody.clear();
    attemptOffset = delivered;
    m_announced = false;
    attemptEnd = -1;
    m_uploaded = 0;
    m_uploadClosed = false;
    m_answersResume = false;
}

void ResponseForwarder::connectAttempt(QNetworkReply *attempt)
{
    RetryingReply *q = d.q_func();
    RetryingReplyPrivate *reply = &d;
    m_connected = 0;
    // An attempt let go of may still be emitting on its way out: only the current one counts.
    QObject::connect(attempt, &QNetworkReply::metaDataChanged, q, [reply, attempt] {
        const AttemptSignalScope inside;
        if (reply->current == attempt)
            reply->onMetaDataChanged();
    });
    QObject::connect(attempt, &QNetworkReply::readyRead, q, [reply, attempt] {
        const AttemptSignalScope inside;
        if (reply->current == attempt)
            reply->onReadyRead();
    });
    QObject::connect(attempt, &QNetworkReply::finished, q, [reply, attempt] {
        const AttemptSignalScope inside;
        if (reply->current == attempt)
            reply->onFinished();
    });
#if QT_CONFIG(ssl)
    // The manager itself listens to these three on every reply it hands out. Qt speaks TLS
    // to an https URL, or to an http one it upgrades under HSTS (RFC 6797).
    if (attempt->url().scheme() == QLatin1String("https") ||
        (d.manager && d.manager->isStrictTransportSecurityEnabled())) {
        QObject::connect(attempt, &QNetworkReply::encrypted, q, &QNetworkReply::encrypted);
        QObject::connect(attempt, &QNetworkReply::sslErrors, q, &QNetworkReply::sslErrors);
        QObject::connect(attempt, &QNetworkReply::preSharedKeyAuthenticationRequired, q,
                         &QNetworkReply::preSharedKeyAuthenticationRequired);
    }
#endif
    // Body replay decisions need the bytes sent of a body that is not kept in memory.
    if (d.hop->bodyFromDevice())
        connectUploadProgress(attempt);
    connectOptional(attempt);
}

void ResponseForwarder::connectUploadProgress(QNetworkReply *attempt)
{
    m_connected |= UploadProgress;
    QObject::connect(attempt, &QNetworkReply::uploadProgress, d.q_func(),
                     [this, attempt](qint64 sent, qint64 total) {
                         const AttemptSignalScope inside;
                         if (d.current != attempt)
                             return;
                         m_uploaded = sent;
                         uploadProgress(sent, total);
                     });
}

void ResponseForwarder::uploadProgress(qint64 sent, qint64 total)
{
    // Qt ends every attempt's upload progress with (0, 0), a failed one's too: only the
    // attempt that ends the request passes it on, as the last one (finishing()).
    if (sent == 0 && total == 0) {
        m_uploadClosed = true;
        return;
    }
    // A retry sends the body again from its start: silent until it passes what was reported.
    if (sent <= m_uploadReported)
        return;
    m_uploadReported = sent;
    Q_EMIT d.q_func()->uploadProgress(sent, total);
}

bool ResponseForwarder::noteConnected(const QMetaMethod &signal)
{
    static const QMetaMethod optional[] = {
        QMetaMethod::fromSignal(&QNetworkReply::downloadProgress),
        QMetaMethod::fromSignal(&QNetworkReply::uploadProgress),
        QMetaMethod::fromSignal(&QNetworkReply::requestSent),
        QMetaMethod::fromSignal(&QNetworkReply::socketStartedConnecting),
        QMetaMethod::fromSignal(&QNetworkReply::redirected),
    };
    static_assert(std::size(optional) == 5 && Redirected == 16);
    for (int i = 0; i < 5; ++i) {
        if (signal == optional[i]) {
            const int bit = 1 << i;
            return !(std::exchange(m_wanted, m_wanted | bit) & bit);
        }
    }
    return false;
}

void ResponseForwarder::connectOptional(QNetworkReply *attempt)
{
    RetryingReply *q = d.q_func();
    const auto wanted = [this](ConnectedSignal signal) { return (m_wanted & signal) != 0; };
    if (!(m_connected & DownloadProgress) && wanted(DownloadProgress)) {
        m_connected |= DownloadProgress;
        QObject::connect(attempt, &QNetworkReply::downloadProgress, q,
                         [this, attempt](qint64 received, qint64 total) {
                             const AttemptSignalScope inside;
                             if (d.current == attempt)
                                 downloadProgress(received, total);
                         });
    }
    if (!(m_connected & UploadProgress) && wanted(UploadProgress))
        connectUploadProgress(attempt);
    if (!(m_connected & RequestSent) && wanted(RequestSent)) {
        m_connected |= RequestSent;
        QObject::connect(attempt, &QNetworkReply::requestSent, q, &QNetworkReply::requestSent);
    }
    if (!(m_connected & SocketStartedConnecting) && wanted(SocketStartedConnecting)) {
        m_connected |= SocketStartedConnecting;
        QObject::connect(attempt, &QNetworkReply::socketStartedConnecting, q,
                         &QNetworkReply::socketStartedConnecting);
    }
    if (!(m_connected & Redirected) && wanted(Redirected) && d.hop->qtFollowsRedirects()) {
        m_connected |= Redirected;
        QObject::connect(attempt, &QNetworkReply::redirected, q, [this, attempt](const QUrl &url) {
            const AttemptSignalScope inside;
            if (d.current != attempt)
                return;
            d.setReplyUrl(url);
            Q_EMIT d.q_func()->redirected(url);
        });
    }
}

void ResponseForwarder::copyMetaData(QNetworkReply *from)
{
    d.setReplyUrl(from->url());
    // Start from nothing: a header of an earlier response (a redirect's Location, say)
    // must not survive into this one.
    clearMetaData();
    m_metaDataSet = true;
    const auto &headers = from->rawHeaderPairs();
    for (const auto &header : headers)
        d.setReplyHeader(header.first, header.second);
    for (QNetworkRequest::Attribute attribute : replyAttributes) {
        const QVariant value = from->attribute(attribute);
        if (value.isValid())
            d.setReplyAttribute(attribute, value);
    }
}

void ResponseForwarder::clearMetaData()
{
    if (!std::exchange(m_metaDataSet, false))
        return;
    const auto previous = d.q_func()->rawHeaderList();
    for (const QByteArray &name : previous)
        d.setReplyHeader(name, QByteArray());
    for (QNetworkRequest::Attribute attribute : replyAttributes)
        d.setReplyAttribute(attribute, QVariant());
}

bool ResponseForwarder::forward(QNetworkReply *from)
{
    copyMetaData(from);
    m_metaDataForwarded = true;

    // What a later attempt needs to resume this body instead of starting it again, and to
    // tell a complete body from a cut one.
    QByteArray acceptRanges, encoding, etag, lastModified;
    for (const auto &[name, value] : from->rawHeaderPairs()) {
        // One pass over the headers; the length first, as most names differ in it.
        const auto is = [&name = name](QByteArrayView wanted) {
            return name.size() == wanted.size() && name.compare(wanted, Qt::CaseInsensitive) == 0;
        };
        if (is("Accept-Ranges"))
            acceptRanges = value.trimmed().toLower();
        else if (is("Content-Encoding"))
            encoding = value.trimmed().toLower();
        else if (is("ETag"))
            etag = value.trimmed();
        else if (is("Last-Modified"))
            lastModified = value.trimmed();
    }
    m_acceptRanges = acceptRanges == "bytes";
    m_identityEncoding = encoding.isEmpty() || encoding == "identity";
    // If-Range wants a strong ETag, else Last-Modified (RFC 9110 §13.1.5).
    m_validatorIsETag = !etag.isEmpty() && !etag.startsWith("W/");
    m_validator = m_validatorIsETag ? etag : lastModified;
    const int status = from->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QVariant length = from->header(QNetworkRequest::ContentLengthHeader);
    const bool hasBody =
        d.hop->method() != "HEAD" && status >= 200 && status != 204 && status != 304;
    m_completeLength = hasBody && m_identityEncoding && length.isValid() ? length.toLongLong() : -1;
    attemptEnd = m_completeLength;
    m_streamStatus = status;
    RetryingReply *q = d.q_func();
    const QPointer<RetryingReply> alive(q);
    Q_EMIT q->metaDataChanged();
    return alive && !q->isFinished(); // abort() in the slot has ended the request
}

void ResponseForwarder::recordResumeAnswer(const QNetworkReply *response)
{
    ResumeAnswer answer;
    answer.status = response->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.reason = response->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
    answer.headers = response->rawHeaderPairs();
    m_resumeAnswer = std::make_unique<ResumeAnswer>(std::move(answer));
    m_answersResume = true;
}

bool ResponseForwarder::isResumable() const
{
    return m_acceptRanges && m_identityEncoding && !m_validator.isEmpty() &&
        (d.hop->method() == "GET" || d.hop->method() == "HEAD") &&
        !d.hop->request().hasRawHeader("Range");
}

bool ResponseForwarder::continueBody(QNetworkReply *response)
{
    // A resumed response must continue the very body the caller has the start of
    // (RFC 9110 §14.4, §15.3.7): a 206 from where the caller's bytes end to the end of a
    // body of the same length, with the same validator.
    const int status = response->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 206)
        return false;
    const ContentRange range = ContentRange::parse(response->rawHeader("Content-Range"));
    if (!range.isValid() || range.first != delivered)
        return false;
    const qint64 end = range.last + 1;
    if ((range.complete >= 0 && range.complete != end) ||
        (m_completeLength >= 0 && end != m_completeLength))
        return false;
    // A strong ETag must come back unchanged (a 206 carries the ETag a 200 would); a 206
    // need not repeat Last-Modified, but one that does must not differ.
    if (m_validatorIsETag) {
        if (response->rawHeader("ETag").trimmed() != m_validator)
            return false;
    } else {
        const QByteArray lastModified = response->rawHeader("Last-Modified").trimmed();
        if (!lastModified.isEmpty() && lastModified != m_validator)
            return false;
    }
    const QByteArray encoding = response->rawHeader("Content-Encoding").trimmed().toLower();
    if (!encoding.isEmpty() && encoding != "identity")
        return false;
    m_completeLength = end;
    attemptEnd = end;
    mode = Mode::Forwarding; // the rest of the same body: headers stay the first ones
    return true;
}

bool ResponseForwarder::readyRead(QNetworkReply *response)
{
    if (mode == Mode::Holding || mode == Mode::Redirecting) {
        // Drained as it comes, so that a small read buffer size cannot stall the attempt,
        // and kept only up to a bound: it is probably retried (or redirected), and then
        // nobody reads it.
        const QByteArray bytes = response->readAll();
        const qint64 room = std::max<qint64>(0, d.policy.maxHeldBodyBytes) - heldBody.size();
        if (room > 0)
            heldBody += bytes.left(room);
        if (m_answersResume && m_resumeAnswer) {
            QByteArray &kept = m_resumeAnswer->body;
            kept += bytes.left(std::max<qint64>(0, maxResumeAnswerBodyBytes - kept.size()));
        }
        return true;
    }
    if (mode != Mode::Forwarding)
        return true;
    m_source = response;
    RetryingReply *q = d.q_func();
    // Bytes announced to somebody are handed over, read or not: they are never withdrawn.
    // (A caller that reads only at finished() has been told nothing yet.)
    if (response->bytesAvailable() > 0 && d.isReadyReadConnected())
        m_announced = true;
    // The final hop of a followed redirect may come without a metaDataChanged of its own.
    if (attemptOffset == 0 && movedFrom(q, response))
        copyMetaData(response);
    const QPointer<RetryingReply> alive(q);
    Q_EMIT q->readyRead();
    return alive;
}

void ResponseForwarder::downloadProgress(qint64 received, qint64 total)
{
    // Bytes once reported stay reported: an attempt that starts afresh is silent until it
    // passes them.
    if (mode != Mode::Forwarding || attemptOffset + received < m_progressReported)
        return;
    m_progressReported = attemptOffset + received;
    Q_EMIT d.q_func()->downloadProgress(m_progressReported, total < 0 ? -1 : attemptOffset + total);
}

void ResponseForwarder::attemptFailed()
{
    if (mode != Mode::Forwarding)
        return;
    if (m_announced || delivered > attemptOffset)
        pull(); // handed over: keep what the caller has not read yet, never withdraw it
    else
        m_source = nullptr; // nobody was told of it: the next attempt may start afresh
}

void ResponseForwarder::pull()
{
    // The attempt is about to go: what the caller has not read yet moves to our buffer.
    QNetworkReply *from = readable();
    m_source = nullptr;
    if (!from)
        return;
    const QByteArray rest = from->readAll();
    if (rest.isEmpty())
        return;
    m_buffer.remove(0, m_bufferPos);
    m_bufferPos = 0;
    m_buffer.append(rest);
    delivered += rest.size();
}

bool ResponseForwarder::clearUnanswered()
{
    if (!m_metaDataForwarded || delivered != 0)
        return true;
    clearMetaData();
    m_metaDataForwarded = false;
    RetryingReply *q = d.q_func();
    const QPointer<RetryingReply> alive(q);
    Q_EMIT q->metaDataChanged();
    return alive && !q->isFinished();
}

bool ResponseForwarder::deliver(QNetworkReply *response, bool answered)
{
    RetryingReply *q = d.q_func();
    bool announce = false;
    if ((!m_metaDataForwarded || mode == Mode::Holding) && answered && delivered == 0) {
        // A held (or never announced) response is the answer after all: hand it over, with
        // the body kept while it was held.
        mode = Mode::Forwarding;
        m_buffer = std::exchange(heldBody, QByteArray());
        m_bufferPos = 0;
        delivered += m_buffer.size();
        announce = true;
        if (!forward(response))
            return false;
    }
    if (mode == Mode::Forwarding) {
        if (attemptOffset == 0 && movedFrom(q, response))
            copyMetaData(response);
        m_source = response; // the caller reads the rest straight from it
    }
    if (announce && q->bytesAvailable() > 0) {
        const QPointer<RetryingReply> alive(q);
        Q_EMIT q->readyRead();
        return alive && !q->isFinished();
    }
    return true;
}

std::optional<QByteArray> ResponseForwarder::wholeBody() const
{
    if (m_keptLimit < 0)
        return std::nullopt;
    QByteArray body = m_kept;
    body.append(m_buffer.constData() + m_bufferPos, m_buffer.size() - m_bufferPos);
    if (QNetworkReply *source = readable())
        body.append(source->peek(source->bytesAvailable()));
    if (body.size() > m_keptLimit)
        return std::nullopt;
    return body;
}

bool ResponseForwarder::deliverCopy(int status, const QList<QNetworkReply::RawHeaderPair> &headers,
                                    const QByteArray &body)
{
    RetryingReply *q = d.q_func();
    clearMetaData();
    m_metaDataSet = true;
    for (const auto &[name, value] : headers)
        d.setReplyHeader(name, value);
    d.setReplyHeader("Content-Length", QByteArray::number(body.size()));
    d.setReplyAttribute(QNetworkRequest::HttpStatusCodeAttribute, status);
    d.setReplyAttribute(QNetworkRequest::SourceIsFromCacheAttribute, true);
    m_metaDataForwarded = true;
    mode = Mode::Forwarding;
    m_source = nullptr;
    m_buffer = body;
    m_bufferPos = 0;
    delivered += body.size();
    m_kept.clear();
    m_keptLimit = -1; // it is the stored copy already
    const QPointer<RetryingReply> alive(q);
    Q_EMIT q->metaDataChanged();
    if (alive && !q->isFinished() && !body.isEmpty())
        Q_EMIT q->readyRead();
    return alive && !q->isFinished();
}

void ResponseForwarder::forget(QNetworkReply *response)
{
    if (!response || response == m_source)
        m_source = nullptr;
}

qint64 ResponseForwarder::bytesAvailable() const
{
    return (m_buffer.size() - m_bufferPos) + (readable() ? m_source->bytesAvailable() : 0);
}

bool ResponseForwarder::canReadLine() const
{
    return m_buffer.indexOf('\n', m_bufferPos) >= 0 || (readable() && m_source->canReadLine());
}

qint64 ResponseForwarder::read(char *data, qint64 maxSize)
{
    // Bytes saved from an earlier attempt come first, then the attempt's own, read straight
    // from it: no copy in between, and its read buffer size applies as the caller set it.
    qint64 n = std::min<qint64>(maxSize, m_buffer.size() - m_bufferPos);
    if (n > 0) {
        std::memcpy(data, m_buffer.constData() + m_bufferPos, size_t(n));
        m_bufferPos += n;
        if (m_bufferPos == m_buffer.size()) {
            m_buffer.clear();
            m_bufferPos = 0;
        }
    }
    if (n < maxSize && readable()) {
        const qint64 direct = m_source->read(data + n, maxSize - n);
        if (direct > 0) {
            n += direct;
            delivered += direct;
        }
    }
    if (m_keptLimit >= 0 && n > 0) {
        if (m_kept.size() + n > m_keptLimit) {
            m_keptLimit = -2;
            m_kept.clear();
        } else {
            m_kept.append(data, n);
        }
    }
    return std::max<qint64>(0, n);
}

} // namespace KeepTrying
