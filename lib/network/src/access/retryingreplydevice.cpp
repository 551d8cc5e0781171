// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// RetryingReply as a QIODevice and a QNetworkReply: reading (the forwarder's stitched
// body), the read buffer size, the optional signals connected on demand, and TLS settings,
// each passed on to the running attempt and kept for the later ones; what a resume answered.

#include <KeepTrying/retryingreply.h>

#include "retryingreply_p.h"

#include <algorithm>

namespace KeepTrying {

int RetryingReply::lastResumeStatus() const
{
    Q_D(const RetryingReply);
    const auto *answer = d->forwarder.resumeAnswer();
    return answer ? answer->status : 0;
}

QList<QNetworkReply::RawHeaderPair> RetryingReply::lastResumeHeaders() const
{
    Q_D(const RetryingReply);
    const auto *answer = d->forwarder.resumeAnswer();
    return answer ? answer->headers : QList<RawHeaderPair>();
}

QByteArray RetryingReply::lastResumeBody() const
{
    Q_D(const RetryingReply);
    const auto *answer = d->forwarder.resumeAnswer();
    return answer ? answer->body : QByteArray();
}

qint64 RetryingReply::bytesAvailable() const
{
    Q_D(const RetryingReply);
    return QNetworkReply::bytesAvailable() + d->forwarder.bytesAvailable();
}

bool RetryingReply::canReadLine() const
{
    Q_D(const RetryingReply);
    return QNetworkReply::canReadLine() || d->forwarder.canReadLine();
}

qint64 RetryingReply::readData(char *data, qint64 maxSize)
{
    Q_D(RetryingReply);
    const qint64 n = d->forwarder.read(data, maxSize);
    if (n > 0)
        return n;
    return d->done ? -1 : 0;
}

void RetryingReply::setReadBufferSize(qint64 size)
{
    Q_D(RetryingReply);
    QNetworkReply::setReadBufferSize(size);
    d->readBufferSize = std::max<qint64>(0, size);
    if (d->current)
        d->current->setReadBufferSize(d->readBufferSize);
}

void RetryingReply::connectNotify(const QMetaMethod &signal)
{
    Q_D(RetryingReply);
    QNetworkReply::connectNotify(signal);
    if (d->forwarder.noteConnected(signal) && d->current)
        d->forwarder.connectOptional(d->current);
}

void RetryingReply::ignoreSslErrors()
{
#if QT_CONFIG(ssl)
    Q_D(RetryingReply);
    d->ignoreAllSslErrors = true;
    if (d->current)
        d->current->ignoreSslErrors();
#endif
}

#if QT_CONFIG(ssl)
void RetryingReply::ignoreSslErrorsImplementation(const QList<QSslError> &errors)
{
    Q_D(RetryingReply);
    d->ignoredSslErrors = errors;
    if (d->current)
        d->current->ignoreSslErrors(errors);
}

void RetryingReply::setSslConfigurationImplementation(const QSslConfiguration &configuration)
{
    Q_D(RetryingReply);
    d->hop->setSslConfiguration(configuration);
    if (d->current)
        d->current->setSslConfiguration(configuration);
}

void RetryingReply::sslConfigurationImplementation(QSslConfiguration &configuration) const
{
    Q_D(const RetryingReply);
    if (QNetworkReply *attempt = d->current ? d->current : d->lastAttempt)
        configuration = attempt->sslConfiguration();
    else
        configuration = d->hop->request().sslConfiguration();
}
#endif

} // namespace KeepTrying
