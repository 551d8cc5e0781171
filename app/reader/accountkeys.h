// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_ACCOUNTKEYS_H
#define KEEPTRYING_READER_ACCOUNTKEYS_H

#include <QtCore/QString>
#include <QtCore/QUrl>

/*
    The names an account goes by: its files (AccountSwitcher::Account::key, through
    LocalStore::defaultPath()) and its entry in the keychain. Every function returns a
    QString, never a QStringBuilder: a string built here outlives the temporaries it was
    built from.
*/
namespace AccountKeys {

/*! The built-in demo library's files: "demo@built-in". */
QString demo();
/*! The files of \a username at \a server: "user@https://host" (no user info in the URL). */
QString own(const QString &username, const QUrl &server);
/*! The keychain entry of the secrets of \a username at \a server. */
QString keychain(const QString &username, const QUrl &server);

} // namespace AccountKeys

#endif // KEEPTRYING_READER_ACCOUNTKEYS_H
