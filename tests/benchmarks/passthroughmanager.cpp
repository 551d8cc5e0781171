// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "passthroughmanager.h"

#include <QtNetwork/QNetworkReply>

namespace KeepTrying::Bench {

namespace {

class PassThroughReply final : public QNetworkReply
{
public:
    PassThroughReply(QNetworkReply *inner, QNetworkAccessManager::Operation op,
                     const QNetworkRequest &request, QObject *parent)
        : QNetworkReply(parent), m_inner(inner)
    {
        setRequest(request);
        setOperation(op);
        setUrl(request.url());
        open(QIODevice::ReadOnly | QIODevice::Unbuffered);
        m_inner->setParent(this);
        connect(m_inner, &QNetworkReply::metaDataChanged, this, [this] {
            copyMetaData();
            Q_EMIT metaDataChanged();
        });
        connect(m_inner, &QNetworkReply::readyRead, this, &QIODevice::readyRead);
        connect(m_inner, &QNetworkReply::finished, this, [this] {
            copyMetaData();
            if (m_inner->error() != NoError) {
                setError(m_inner->error(), m_inner->errorString());
                Q_EMIT errorOccurred(m_inner->error());
            }
            setFinished(true);
            Q_EMIT finished();
        });
    }
    ~PassThroughReply() override
    {
        m_inner->setParent(nullptr);
        m_inner->deleteLater();
    }

    void abort() override { m_inner->abort(); }
    qint64 bytesAvailable() const override
    {
        return QNetworkReply::bytesAvailable() + m_inner->bytesAvailable();
    }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        const qint64 n = m_inner->read(data, maxSize);
        return n > 0 ? n : (isFinished() ? -1 : 0);
    }

private:
    void copyMetaData()
    {
        for (const auto &[name, value] : m_inner->rawHeaderPairs())
            setRawHeader(name, value);
        for (auto attribute :
             { QNetworkRequest::HttpStatusCodeAttribute, QNetworkRequest::HttpReasonPhraseAttribute,
               QNetworkRequest::Http2WasUsedAttribute }) {
            const QVariant value = m_inner->attribute(attribute);
            if (value.isValid())
                setAttribute(attribute, value);
        }
    }

    QNetworkReply *m_inner;
};

} // namespace

QNetworkReply *PassThroughManager::createRequest(Operation op, const QNetworkRequest &request,
                                                 QIODevice *outgoingData)
{
    QNetworkReply *inner = QNetworkAccessManager::createRequest(op, request, outgoingData);
    return new PassThroughReply(inner, op, request, this);
}

} // namespace KeepTrying::Bench
