// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_ONESHOTBODY_P_H
#define KEEPTRYING_ONESHOTBODY_P_H

#include <QtCore/QIODevice>
#include <QtCore/QPointer>

namespace KeepTrying {

/*
    A request body Qt can read once and never rewind. Qt's HTTP layer sends a request again
    by itself when its connection closes before a response, whatever the method (checked on
    Qt 6.4, fresh and kept-alive connections alike); with this body, sent with
    QNetworkRequest::DoNotBufferUploadDataAttribute and a Content-Length, that re-send fails
    with QNetworkReply::ContentReSendError instead, and a POST without an Idempotency-Key
    reaches the server at most once.

    The bytes come from memory, or from an upstream device read as Qt asks for them.
*/
class OneShotBody : public QIODevice
{
    Q_OBJECT
public:
    explicit OneShotBody(const QByteArray &bytes, QObject *parent = nullptr);
    // Reads \a length bytes from \a upstream, which must stay open while Qt sends.
    OneShotBody(QIODevice *upstream, qint64 length, QObject *parent = nullptr);

    bool isSequential() const override { return true; }
    bool reset() override { return false; } // the whole point: no second send
    bool atEnd() const override { return m_position >= m_length; }
    qint64 size() const override { return m_length; }
    qint64 bytesAvailable() const override;

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_bytes;
    QPointer<QIODevice> m_upstream;
    qint64 m_length = 0;
    qint64 m_position = 0;
    bool m_fromMemory = false;
};

} // namespace KeepTrying

#endif // KEEPTRYING_ONESHOTBODY_P_H
