// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "savedaccount.h"

#include "accountkeys.h"

#include <QtCore/QEventLoop>
#include <QtCore/QSettings>

namespace {

// An account key holds '/' and ':', which QSettings reads as groups: hex keeps it one name.
QString certificateGroup(const QString &key)
{
    return QStringLiteral("trustedCertificates/") + QString::fromLatin1(key.toUtf8().toHex());
}

} // namespace

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

CertificateTrust::Pin SavedAccount::trustedCertificate(const QString &key)
{
    QSettings settings;
    settings.beginGroup(certificateGroup(key));
    CertificateTrust::Pin pin;
    pin.sha256 = settings.value(QStringLiteral("sha256")).toByteArray();
    const QStringList accepted = settings.value(QStringLiteral("accepts")).toStringList();
    for (const QString &error : accepted)
        pin.accepted.append(QSslError::SslError(error.toInt()));
    return pin;
}

void SavedAccount::setTrustedCertificate(const QString &key, const CertificateTrust::Pin &pin)
{
    QSettings settings;
    if (pin.isNull()) {
        settings.remove(certificateGroup(key));
        return;
    }
    settings.beginGroup(certificateGroup(key));
    QStringList accepted;
    for (QSslError::SslError error : pin.accepted)
        accepted << QString::number(int(error));
    settings.setValue(QStringLiteral("sha256"), pin.sha256);
    settings.setValue(QStringLiteral("accepts"), accepted);
}
