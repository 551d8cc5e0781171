// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "credentialstore.h"

#include <QtCore/QEventLoop>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTimer>

#ifdef KEEPTRYING_READER_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

Q_LOGGING_CATEGORY(lcCredentials, "keeptrying.reader.credentials", QtWarningMsg)

#ifdef KEEPTRYING_READER_HAVE_KEYCHAIN
namespace {

QByteArray encode(const CredentialStore::Secrets &secrets)
{
    return QJsonDocument(QJsonObject { { QStringLiteral("clientSecret"), secrets.clientSecret },
                                       { QStringLiteral("password"), secrets.password } })
        .toJson(QJsonDocument::Compact);
}

CredentialStore::Secrets decode(const QByteArray &data)
{
    const QJsonObject object = QJsonDocument::fromJson(data).object();
    return { object.value(QLatin1String("clientSecret")).toString(),
             object.value(QLatin1String("password")).toString() };
}

} // namespace
#endif

CredentialStore::CredentialStore(const QString &service, bool useKeychain, QObject *parent)
    : QObject(parent), m_service(service), m_sessionOnly(!useKeychain || !hasKeychainSupport())
{
}

CredentialStore::~CredentialStore()
{
    // Whoever asked is being torn down too: their callbacks are not called any more.
    m_closing = true;
    if (m_pendingChanges > 0 && !waitForPendingChanges(3000))
        qCWarning(lcCredentials) << "the keychain did not answer" << m_pendingChanges
                                 << "change(s) before quitting";
}

bool CredentialStore::waitForPendingChanges(int timeoutMs)
{
    if (m_pendingChanges == 0)
        return true;
    QEventLoop loop;
    connect(this, &CredentialStore::pendingChangesDone, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    return m_pendingChanges == 0;
}

void CredentialStore::changeDone()
{
    if (--m_pendingChanges == 0)
        Q_EMIT pendingChangesDone();
}

bool CredentialStore::hasKeychainSupport()
{
#ifdef KEEPTRYING_READER_HAVE_KEYCHAIN
    return true;
#else
    return false;
#endif
}

void CredentialStore::fallBackToSession()
{
    if (m_sessionOnly)
        return;
    m_sessionOnly = true;
    qCInfo(lcCredentials) << "no keychain answers: secrets are kept for this session only";
    Q_EMIT sessionOnlyChanged(true);
}

void CredentialStore::confirm()
{
    if (m_confirmed || m_sessionOnly)
        return;
    m_confirmed = true;
    Q_EMIT keychainConfirmed();
}

void CredentialStore::probe()
{
    if (m_sessionOnly || m_confirmed)
        return;
    read(QStringLiteral("keeptrying-probe"), [](bool, const Secrets &) {});
}

void CredentialStore::read(const QString &account, ReadCallback done)
{
    const auto session = [this, account, done] {
        const auto it = m_session.constFind(account);
        done(it != m_session.constEnd(), it != m_session.constEnd() ? *it : Secrets());
    };
#ifdef KEEPTRYING_READER_HAVE_KEYCHAIN
    if (!m_sessionOnly) {
        auto *job = new QKeychain::ReadPasswordJob(m_service, this);
        job->setAutoDelete(true);
        job->setInsecureFallback(false); // never a plain file
        job->setKey(account);
        connect(job, &QKeychain::Job::finished, this, [this, job, session, done] {
            switch (job->error()) {
            case QKeychain::NoError:
                confirm();
                done(true, decode(job->binaryData()));
                return;
            case QKeychain::EntryNotFound:
                confirm();
                session();
                return;
            default:
                qCInfo(lcCredentials) << "keychain read failed:" << job->error();
                fallBackToSession();
                session();
                return;
            }
        });
        job->start();
        return;
    }
#endif
    session();
}

void CredentialStore::write(const QString &account, const Secrets &secrets,
                            std::function<void(bool)> done)
{
    m_session.insert(account, secrets); // this session has them whatever the keychain says
#ifdef KEEPTRYING_READER_HAVE_KEYCHAIN
    if (!m_sessionOnly) {
        auto *job = new QKeychain::WritePasswordJob(m_service, this);
        job->setAutoDelete(true);
        job->setInsecureFallback(false);
        job->setKey(account);
        job->setBinaryData(encode(secrets));
        ++m_pendingChanges;
        connect(job, &QKeychain::Job::finished, this, [this, job, done] {
            if (job->error() != QKeychain::NoError) {
                qCInfo(lcCredentials) << "keychain write failed:" << job->error();
                fallBackToSession();
            } else {
                confirm();
            }
            changeDone();
            if (done && !m_closing)
                done(true);
        });
        job->start();
        return;
    }
#endif
    if (done)
        done(true);
}

void CredentialStore::remove(const QString &account, std::function<void()> done)
{
    m_session.remove(account);
#ifdef KEEPTRYING_READER_HAVE_KEYCHAIN
    if (!m_sessionOnly) {
        auto *job = new QKeychain::DeletePasswordJob(m_service, this);
        job->setAutoDelete(true);
        job->setInsecureFallback(false);
        job->setKey(account);
        ++m_pendingChanges;
        connect(job, &QKeychain::Job::finished, this, [this, job, done] {
            if (job->error() != QKeychain::NoError && job->error() != QKeychain::EntryNotFound)
                qCInfo(lcCredentials) << "keychain delete failed:" << job->error();
            changeDone();
            if (done && !m_closing)
                done();
        });
        job->start();
        return;
    }
#endif
    if (done)
        done();
}
