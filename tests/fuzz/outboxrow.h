// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_FUZZ_OUTBOXROW_H
#define KEEPTRYING_FUZZ_OUTBOXROW_H

#include <QtCore/QByteArray>
#include <QtCore/QVariant>
#include <QtCore/QVariantList>

#include <cstring>

// fuzz_outboxrow's input: one row of the outbox's items table as SQLite may hand it back,
// value by value. SQLite keeps any type in any column, so each value says its own: a type
// byte (modulo 5: 0 NULL, 1 INTEGER, 2 REAL, 3 TEXT, 4 BLOB), then 8 bytes (INTEGER, REAL,
// little-endian) or a 2-byte little-endian length and that many bytes (TEXT as UTF-8,
// BLOB). A value cut short ends the row there.
namespace OutboxRow {

inline QVariantList decode(const QByteArray &bytes)
{
    QVariantList row;
    qsizetype at = 0;
    const auto take = [&](qsizetype n) -> const char * {
        if (n > bytes.size() - at)
            return nullptr;
        const char *p = bytes.constData() + at;
        at += n;
        return p;
    };
    while (at < bytes.size()) {
        const int type = static_cast<unsigned char>(bytes.at(at++)) % 5;
        if (type == 0) {
            row.append(QVariant());
        } else if (type == 1 || type == 2) {
            const char *p = take(8);
            if (!p)
                break;
            quint64 raw = 0;
            for (int i = 7; i >= 0; --i)
                raw = (raw << 8) | static_cast<unsigned char>(p[i]);
            if (type == 1) {
                row.append(QVariant(qlonglong(raw)));
            } else {
                double value;
                std::memcpy(&value, &raw, sizeof value);
                row.append(QVariant(value));
            }
        } else {
            const char *p = take(2);
            if (!p)
                break;
            const qsizetype n = static_cast<unsigned char>(p[0]) |
                (qsizetype(static_cast<unsigned char>(p[1])) << 8);
            const char *value = take(n);
            if (!value)
                break;
            if (type == 3)
                row.append(QString::fromUtf8(value, n));
            else
                row.append(QByteArray(value, n));
        }
    }
    return row;
}

inline QByteArray encode(const QVariantList &row)
{
    QByteArray bytes;
    const auto put = [&bytes](quint64 value, int n) {
        for (int i = 0; i < n; ++i)
            bytes.append(char((value >> (8 * i)) & 0xff));
    };
    for (const QVariant &value : row) {
        if (value.isNull()) {
            bytes.append(char(0));
        } else if (value.typeId() == QMetaType::LongLong || value.typeId() == QMetaType::Int) {
            bytes.append(char(1));
            put(quint64(value.toLongLong()), 8);
        } else if (value.typeId() == QMetaType::Double) {
            bytes.append(char(2));
            const double d = value.toDouble();
            quint64 raw;
            std::memcpy(&raw, &d, sizeof raw);
            put(raw, 8);
        } else if (value.typeId() == QMetaType::QByteArray) {
            const QByteArray blob = value.toByteArray().left(0xffff);
            bytes.append(char(4));
            put(quint64(blob.size()), 2);
            bytes.append(blob);
        } else {
            const QByteArray text = value.toString().toUtf8().left(0xffff);
            bytes.append(char(3));
            put(quint64(text.size()), 2);
            bytes.append(text);
        }
    }
    return bytes;
}

} // namespace OutboxRow

#endif // KEEPTRYING_FUZZ_OUTBOXROW_H
