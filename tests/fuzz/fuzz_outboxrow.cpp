// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The outbox's row decoder (OutboxStore::decodeRow()) on any row a damaged or foreign
// database may give back (outboxrow.h says how the bytes become a row), and what a replay
// makes of the item: its request with its headers. No crash.

#include "outboxrow.h"
#include "outboxstore_p.h"

#include <QtNetwork/QNetworkRequest>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const QVariantList row = OutboxRow::decode(bytes);
    // A fixed "now" (2026-01-05): the same input gives the same item.
    const KeepTrying::OutboxItem item =
        KeepTrying::OutboxStore::decodeRow(row, Q_INT64_C(1767604320000));
    QNetworkRequest request(item.url);
    for (const auto &[name, value] : item.headers)
        request.setRawHeader(name, value);
    if (!item.idempotencyKey.isEmpty())
        request.setRawHeader("Idempotency-Key", item.idempotencyKey);
    item.url.toString(QUrl::FullyEncoded);
    if (item.createdAt.isValid())
        item.createdAt.toMSecsSinceEpoch();
    return 0;
}
