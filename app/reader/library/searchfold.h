// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SEARCHFOLD_H
#define KEEPTRYING_READER_SEARCHFOLD_H

#include <QtCore/QString>

QT_BEGIN_NAMESPACE
class QSqlDatabase;
QT_END_NAMESPACE

/*
    Search that ignores case and accents, so that "zuge" finds "Züge" and "cafe" finds
    "Café": both sides are folded the same way (compatibility decomposition, NFKD, with the
    combining marks dropped, then case folding). SQLite's own LIKE folds ASCII letters only.
*/
namespace SearchFold {

/*! \a text decomposed (NFKD), without its combining marks, case-folded. */
QString fold(const QString &text);

/*! Registers kt_contains(text, folded) on \a db's connection: 1 when fold(text) contains
    \a folded (a word already passed through fold()), else 0; NULL text is 0. False when
    the driver is not SQLite's, for the caller to fall back to LIKE. */
bool install(const QSqlDatabase &db);

} // namespace SearchFold

#endif // KEEPTRYING_READER_SEARCHFOLD_H
