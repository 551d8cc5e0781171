// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "accountkeys.h"

namespace AccountKeys {

QString demo()
{
    return QStringLiteral("demo@built-in");
}

QString own(const QString &username, const QUrl &server)
{
    return username + QLatin1Char('@') + server.toString(QUrl::RemoveUserInfo);
}

QString keychain(const QString &username, const QUrl &server)
{
    return username + QLatin1Char('@') + server.toString();
}

} // namespace AccountKeys
