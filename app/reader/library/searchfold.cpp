// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "searchfold.h"

#include <QtCore/QVariant>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlDriver>

#include <sqlite3.h>

namespace {

bool isAscii(const char *text, int size)
{
    for (int i = 0; i < size; ++i) {
        if (uchar(text[i]) >= 0x80)
            return false;
    }
    return true;
}

void containsFolded(sqlite3_context *context, int, sqlite3_value **argv)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_value_text(argv[0]));
    const int textSize = sqlite3_value_bytes(argv[0]);
    const auto *word = reinterpret_cast<const char *>(sqlite3_value_text(argv[1]));
    const int wordSize = sqlite3_value_bytes(argv[1]);
    if (!text || !word) {
        sqlite3_result_int(context, 0);
        return;
    }
    const QString folded = QString::fromUtf8(word, wordSize);
    // Most saved text is ASCII: no decomposition to do, case is enough.
    const bool found = isAscii(text, textSize)
        ? QLatin1StringView(text, textSize).contains(folded, Qt::CaseInsensitive)
        : SearchFold::fold(QString::fromUtf8(text, textSize)).contains(folded);
    sqlite3_result_int(context, found ? 1 : 0);
}

} // namespace

namespace SearchFold {

QString fold(const QString &text)
{
    const QString decomposed = text.normalized(QString::NormalizationForm_KD);
    QString kept;
    kept.reserve(decomposed.size());
    for (const QChar c : decomposed) {
        const QChar::Category category = c.category();
        if (category != QChar::Mark_NonSpacing && category != QChar::Mark_SpacingCombining &&
            category != QChar::Mark_Enclosing)
            kept += c;
    }
    return kept.toCaseFolded();
}

bool install(const QSqlDatabase &db)
{
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return false;
    sqlite3 *connection = *static_cast<sqlite3 *const *>(handle.constData());
    if (!connection)
        return false;
    return sqlite3_create_function_v2(connection, "kt_contains", 2,
                                      SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, &containsFolded,
                                      nullptr, nullptr, nullptr) == SQLITE_OK;
}

} // namespace SearchFold
