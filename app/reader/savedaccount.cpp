// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "savedaccount.h"

#include "accountkeys.h"

#include <QtCore/QEventLoop>
#include <QtCore/QSettings>

SavedAccount SavedAccount::load()
{
    QSettings settings;
    SavedAccount account;
    account.demo = settings.value(QStringLiteral("account/demo"), true).toBool();
    account.server = settings.value(QStringLiteral("account/server")).toUrl();
    account.clientId = settings.value(QStringLiteral("account/clientId")).toString();
    account.username = settings.value(QStringLiteral("account/username")).toString();
    return account;
}

void SavedAccount::save() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("account/demo"), demo);
    if (demo)
        return;
    settings.setValue(QStringLiteral("account/server"), server);
    settings.setValue(QStringLiteral("account/clientId"), clientId);
    settings.setValue(QStringLiteral("account/username"), username);
}

QString SavedAccount::keychainKey() const
{
    return AccountKeys::keychain(username, server);
}

bool SavedAccount::readSecrets(CredentialStore *secrets, CredentialStore::Secrets *found) const
{
    bool answered = false;
    bool ok = false;
    QEventLoop wait;
    secrets->read(keychainKey(), [&](bool inStore, const CredentialStore::Secrets &s) {
        answered = true;
        ok = inStore;
        *found = s;
        wait.quit();
    });
    if (!answered)
        wait.exec(); // the keychain answers asynchronously
    return ok;
}
