// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "oneshotbody_p.h"

#include <algorithm>
#include <cstring>

namespace KeepTrying {

OneShotBody::OneShotBody(const QByteArray &bytes, QObject *parent)
    : QIODevice(parent), m_bytes(bytes), m_length(bytes.size()), m_fromMemory(true)
{
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
}

OneShotBody::OneShotBody(QIODevice *upstream, qint64 length, QObject *parent)
    : QIODevice(parent), m_upstream(upstream), m_length(std::max<qint64>(0, length))
{
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
    connect(upstream, &QIODevice::readyRead, this, &QIODevice::readyRead);
    connect(upstream, &QIODevice::readChannelFinished, this, &QIODevice::readChannelFinished);
}

qint64 OneShotBody::bytesAvailable() const
{
    const qint64 left = m_length - m_position;
    if (m_fromMemory)
        return left;
    if (!m_upstream)
        return 0;
    return std::min(left, m_upstream->bytesAvailable());
}

qint64 OneShotBody::readData(char *data, qint64 maxSize)
{
    const qint64 wanted = std::min(maxSize, m_length - m_position);
    if (wanted <= 0)
        return m_position >= m_length ? -1 : 0;
    qint64 n = wanted;
    if (m_fromMemory) {
        std::memcpy(data, m_bytes.constData() + m_position, size_t(wanted));
    } else {
        if (!m_upstream)
            return -1; // the caller's device went away mid-send
        n = m_upstream->read(data, wanted);
        if (n < 0)
            return -1;
    }
    m_position += n;
    return n;
}

} // namespace KeepTrying
