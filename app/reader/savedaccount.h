// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SAVEDACCOUNT_H
#define KEEPTRYING_READER_SAVEDACCOUNT_H

#include "library/certificatetrust.h"
#include "library/credentialstore.h"

#include <QtCore/QString>
#include <QtCore/QUrl>

/*
    The account chosen in File ▸ Sign In…, kept for the next run: what is not secret in the
    settings (account/demo, account/server, account/clientId, account/username), the client
    secret and password in the CredentialStore under AccountKeys::keychain().
*/
struct SavedAccount
{
    bool demo = true; //!< The built-in demo library (also when nothing was ever chosen).
    QUrl server;
    QString clientId;
    QString username;

    static SavedAccount load();
    /*! Writes demo; the server, client id and user name only for an account of one's own,
        so that the dialog offers the last one again after the demo library. */
    void save() const;
    QString keychainKey() const;
    /*! Reads the secrets from \a secrets, waiting for the keychain's answer (at start, before
        the window shows). False when it has none for this account. */
    bool readSecrets(CredentialStore *secrets, CredentialStore::Secrets *found) const;

    /*! The certificate trusted for the account \a key; null when none. */
    static CertificateTrust::Pin trustedCertificate(const QString &key);
    /*! Keeps \a pin for the account \a key (a null pin removes it). */
    static void setTrustedCertificate(const QString &key, const CertificateTrust::Pin &pin);
};

#endif // KEEPTRYING_READER_SAVEDACCOUNT_H
