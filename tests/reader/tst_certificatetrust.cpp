// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "readerfixture.h"
#include "testhelpers.h"
#include "tlsfrontproxy.h"

#include "certificateflow.h"
#include "library/certificatetrust.h"
#include "library/localstore.h"
#include "library/syncengine.h"
#include "readerapp.h"
#include "signinflow.h"
#include "ui/articlelistmodel.h"
#include "ui/certificatedialog.h"
#include "ui/mainwindow.h"
#include "ui/readingpane.h"
#include "ui/signindialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QPointer>
#include <QtCore/QSettings>
#include <QtGui/QAction>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStatusBar>

#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Test::DemoServerThread;
using KeepTrying::Test::TlsFrontProxy;
using namespace ReaderFixture;

/*
    A self-hosted wallabag behind HTTPS with a certificate this computer does not trust
    (self-signed, or from a private CA: tests/network/tls), on loopback: the demo server
    behind a TLS front. The reader (ReaderApp, as main() builds it) shows the certificate
    in words, trusts exactly that one for that account when the person says so, keeps it
    for the next run, refuses another one with a warning, leaves other origins alone, and
    gets through its retries and probes with it.
*/
class tst_CertificateTrust : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void trustFromListThenRestart_data();
    void trustFromListThenRestart();
    void differentCertificateRefused();
    void otherOriginNotAffected();
    void retriesAndProbesWithPin();

private:
    void startReader(const QUrl &server);
    CertificateDialog *waitForCertificateDialog();
    void trustOnList(const QSslCertificate &certificate);
    void checkListLoaded();
    static QSslCertificate certificate(const QString &name);
    static QString fingerprintOf(const QSslCertificate &certificate);
    static QSslKey key();

    std::unique_ptr<DemoServerThread> m_wallabag;
    std::unique_ptr<TlsFrontProxy> m_front;
    std::unique_ptr<ReaderApp> m_reader;
    int m_sample = 0; // articles on the server
};

namespace {

QPushButton *buttonTitled(QWidget *dialog, const QString &text)
{
    const QList<QPushButton *> buttons = dialog->findChildren<QPushButton *>();
    for (QPushButton *b : buttons) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

// The pin kept with the account: its fingerprint in the settings, as the reader wrote it.
QByteArray keptPin(const QUrl &server)
{
    const QString key = QStringLiteral("%1@%2").arg(DemoServer::demoUsername(),
                                                    server.toString(QUrl::RemoveUserInfo));
    QSettings settings;
    const QStringList groups = [&] {
        settings.beginGroup(QStringLiteral("trustedCertificates"));
        QStringList g = settings.childGroups();
        settings.endGroup();
        return g;
    }();
    for (const QString &group : groups) {
        const QString decoded = QString::fromUtf8(QByteArray::fromHex(group.toLatin1()));
        if (decoded.startsWith(DemoServer::demoUsername() + QLatin1Char('@')) &&
            KeepTrying::Reachability::originOf(QUrl(decoded.section(QLatin1Char('@'), 1))) ==
                KeepTrying::Reachability::originOf(server))
            return settings.value(QStringLiteral("trustedCertificates/%1/sha256").arg(group))
                .toByteArray();
    }
    Q_UNUSED(key)
    return {};
}

} // namespace

QSslCertificate tst_CertificateTrust::certificate(const QString &name)
{
    QFile file(QStringLiteral(":/tls/%1.pem").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return QSslCertificate();
    return QSslCertificate(&file, QSsl::Pem);
}

QSslKey tst_CertificateTrust::key()
{
    QFile file(QStringLiteral(":/tls/leaf.key"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QSslKey(&file, QSsl::Ec, QSsl::Pem);
}

// Worked out here, not by the reader's code: what a certificate viewer shows.
QString tst_CertificateTrust::fingerprintOf(const QSslCertificate &certificate)
{
    const QByteArray hex = certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper();
    return QString::fromLatin1(hex);
}

void tst_CertificateTrust::init()
{
    QSettings().clear();
    // A fresh profile: libraries and outboxes of an earlier case are gone.
    for (const char *name : { "XDG_DATA_HOME", "XDG_CACHE_HOME" })
        QDir(QString::fromLocal8Bit(qgetenv(name))).removeRecursively();
    m_wallabag = std::make_unique<DemoServerThread>();
    QVERIFY(m_wallabag->listen() != 0);
    m_sample = (*m_wallabag)->articleCount();
    QVERIFY(m_sample > 10);
    QVERIFY(!key().isNull());
}

void tst_CertificateTrust::cleanup()
{
    m_reader.reset();
    m_front.reset();
    m_wallabag.reset();
}

// As main() does with --server: the options, open(), start().
void tst_CertificateTrust::startReader(const QUrl &server)
{
    ReaderOptions options;
    options.server = server;
    options.credentials = demoCredentials();
    m_reader = std::make_unique<ReaderApp>(options);
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    makeFast(m_reader->manager(), true); // probes every 50-200 ms
    m_reader->start();
    QVERIFY(QTest::qWaitForWindowExposed(m_reader->window()));
}

CertificateDialog *tst_CertificateTrust::waitForCertificateDialog()
{
    CertificateDialog *dialog = nullptr;
    const bool shown = QTest::qWaitFor(
        [&] {
            dialog = m_reader->certificateFlow()->dialog();
            return dialog && dialog->isVisible();
        },
        10000);
    if (!shown)
        return nullptr;
    if (!QTest::qWaitForWindowExposed(dialog))
        return nullptr;
    return dialog;
}

void tst_CertificateTrust::checkListLoaded()
{
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->window()->model()->rowCount() > 0, true, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(m_reader->store()->articleCount(), m_sample, 15000);
}

// "Your list could not be loaded": the certificate in words; Trust This Certificate, clicked.
void tst_CertificateTrust::trustOnList(const QSslCertificate &presented)
{
    CertificateDialog *dialog = waitForCertificateDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->mode(), CertificateDialog::Mode::Offer);
    QCOMPARE(m_reader->store()->articleCount(), 0); // nothing went through meanwhile
    const QString text = dialog->text();
    QVERIFY2(QString(text)
                 .replace(QLatin1Char('\n'), QLatin1Char(':'))
                 .contains(fingerprintOf(presented)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("127.0.0.1")), qPrintable(text)); // made for
    QVERIFY2(text.contains(QString::number(presented.expiryDate().date().year())),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("does not trust")));
    for (const char *jargon : { "SSL", "X509", "handshake", "Error", "18443" })
        QVERIFY2(!text.contains(QLatin1String(jargon)), jargon);
    // Enter is not "trust": the default button is the safe one.
    QPushButton *trust = buttonTitled(dialog, QStringLiteral("Trust This Certificate"));
    QVERIFY(trust);
    QVERIFY(!trust->isDefault());
    QTest::mouseClick(trust, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!m_reader->certificateFlow()->dialog(), 5000);
    checkListLoaded();
    QCOMPARE(keptPin(m_front->url()), presented.digest(QCryptographicHash::Sha256).toHex());
}

void tst_CertificateTrust::trustFromListThenRestart_data()
{
    QTest::addColumn<QString>("certificate");
    QTest::newRow("self-signed") << QStringLiteral("selfsigned");
    QTest::newRow("private CA") << QStringLiteral("good"); // the test CA is no system CA
}

// (a) Trusted from the failed list; a new ReaderApp on the same settings loads at once.
void tst_CertificateTrust::trustFromListThenRestart()
{
    QFETCH(QString, certificate);
    const QSslCertificate presented = tst_CertificateTrust::certificate(certificate);
    QVERIFY(!presented.isNull());
    m_front =
        std::make_unique<TlsFrontProxy>(presented, key(), quint16((*m_wallabag)->baseUrl().port()));
    QVERIFY(m_front->listenOnLoopback());
    startReader(m_front->url());
    trustOnList(presented);

    m_reader.reset();
    startReader(m_front->url());
    QSignalSpy asked(m_reader->certificateFlow(), &CertificateFlow::dialogShown);
    QSignalSpy failed(m_reader->window(), &MainWindow::libraryFailed);
    QSignalSpy refreshed(m_reader->engine(), &SyncEngine::refreshed);
    QVERIFY(refreshed.wait(15000));
    QCOMPARE(asked.count(), 0);
    QCOMPARE(failed.count(), 0);
    checkListLoaded();
}

// (b) Later another certificate on the same origin: a warning with Close only, nothing
// sent, and the pin kept as it was.
void tst_CertificateTrust::differentCertificateRefused()
{
    const QSslCertificate trusted = certificate(QStringLiteral("selfsigned"));
    m_front =
        std::make_unique<TlsFrontProxy>(trusted, key(), quint16((*m_wallabag)->baseUrl().port()));
    QVERIFY(m_front->listenOnLoopback());
    startReader(m_front->url());
    trustOnList(trusted);
    const QByteArray pin = keptPin(m_front->url());
    m_reader.reset();

    // The same key, another certificate: pinned is the certificate, not the key.
    const QSslCertificate other = certificate(QStringLiteral("untrusted"));
    m_front->setCertificate(other);
    startReader(m_front->url());
    CertificateDialog *dialog = waitForCertificateDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->mode(), CertificateDialog::Mode::Warn);
    QVERIFY(!dialog->trustButton());
    QVERIFY(!buttonTitled(dialog, QStringLiteral("Trust This Certificate")));
    const QString text = dialog->text();
    QVERIFY2(text.contains(QStringLiteral("different certificate")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("sent nothing")), qPrintable(text));
    QVERIFY2(
        QString(text).replace(QLatin1Char('\n'), QLatin1Char(':')).contains(fingerprintOf(other)),
        qPrintable(text));
    // Nothing reached the server: no handshake with that certificate finished, so no request
    // either. (One of the first start, begun before the certificate changed, may finish.)
    QCOMPARE(m_front->handshakeCount(other), 0);
    const int requests = int((*m_wallabag)->totalRequests());
    QTest::keyClick(dialog, Qt::Key_Return); // Enter closes; it never trusts
    QTRY_VERIFY_WITH_TIMEOUT(!m_reader->certificateFlow()->dialog(), 5000);
    QCOMPARE(keptPin(m_front->url()), pin);
    QCOMPARE(m_reader->certificateTrust()->pin(m_front->url()).sha256, pin);
    QCOMPARE(m_front->handshakeCount(other), 0);
    QCOMPARE(int((*m_wallabag)->totalRequests()), requests);
    // Why nothing new comes, in plain words: in the status bar, and in the reading pane when
    // no library was kept from before (whether the first start's list arrived before it quit
    // is a race this case does not fix).
    QTRY_VERIFY_WITH_TIMEOUT(
        m_reader->window()->statusBar()->currentMessage().contains(QStringLiteral("certificate")),
        5000);
    const QString status = m_reader->window()->statusBar()->currentMessage();
    QVERIFY2(!status.contains(QStringLiteral("SSL")), qPrintable(status));
    if (m_reader->store()->articleCount() == 0) {
        const QString placeholder = m_reader->window()->readingPane()->toPlainText();
        QVERIFY2(placeholder.contains(QStringLiteral("certificate")), qPrintable(placeholder));
        QVERIFY2(!placeholder.contains(QStringLiteral("SSL")), qPrintable(placeholder));
    }
}

// (c) The pin is for one origin: the same certificate on another port is asked about
// again, here from File ▸ Sign In… (a first connection), and trusted there.
void tst_CertificateTrust::otherOriginNotAffected()
{
    const QSslCertificate presented = certificate(QStringLiteral("selfsigned"));
    m_front =
        std::make_unique<TlsFrontProxy>(presented, key(), quint16((*m_wallabag)->baseUrl().port()));
    QVERIFY(m_front->listenOnLoopback());
    startReader(m_front->url());
    trustOnList(presented);
    TlsFrontProxy second(presented, key(), quint16((*m_wallabag)->baseUrl().port()));
    QVERIFY(second.listenOnLoopback());
    QVERIFY(m_reader->certificateTrust()->pin(second.url()).isNull());

    // File ▸ Sign In…, the second origin typed in, Sign In pressed.
    Q_EMIT m_reader->window()->signInRequested();
    QPointer<SignInDialog> signIn;
    QTRY_VERIFY_WITH_TIMEOUT((signIn = m_reader->signInFlow()->dialog()) && signIn->isVisible(),
                             5000);
    auto *demo = signIn->findChild<QCheckBox *>();
    if (demo->isChecked())
        QTest::mouseClick(demo, Qt::LeftButton, {}, QPoint(8, demo->height() / 2));
    const struct
    {
        const char *label;
        QString text;
    } fields[] = {
        { "&Server address:", second.url().toString() },
        { "Client &ID:", DemoServer::demoClientId() },
        { "Client s&ecret:", DemoServer::demoClientSecret() },
        { "&User name:", DemoServer::demoUsername() },
        { "&Password:", DemoServer::demoPassword() },
    };
    for (const auto &f : fields) {
        QLineEdit *field = fieldLabelled(signIn.data(), QString::fromUtf8(f.label));
        QVERIFY2(field && field->isEnabled(), f.label);
        field->setFocus();
        QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(field, Qt::Key_Backspace);
        QTest::keyClicks(field, f.text);
    }
    QTest::mouseClick(signIn->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
    CertificateDialog *dialog = waitForCertificateDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->mode(), CertificateDialog::Mode::Offer); // asked, not let through
    QCOMPARE(second.handshakeCount(), 0);
    QCOMPARE(m_reader->switcher()->current().server, m_front->url()); // still the first
    QTest::mouseClick(dialog->trustButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!signIn, 15000); // signed in with it, closed
    QCOMPARE(m_reader->switcher()->current().server, second.url());
    QVERIFY(second.handshakeCount() > 0);
    QCOMPARE(keptPin(second.url()), presented.digest(QCryptographicHash::Sha256).toHex());
    QCOMPARE(keptPin(m_front->url()), presented.digest(QCryptographicHash::Sha256).toHex());
    checkListLoaded();
}

// (d) The server goes away and comes back: the retries and the reachability probes of the
// pinned origin get through, and nobody is asked again.
void tst_CertificateTrust::retriesAndProbesWithPin()
{
    const QSslCertificate presented = certificate(QStringLiteral("selfsigned"));
    m_front =
        std::make_unique<TlsFrontProxy>(presented, key(), quint16((*m_wallabag)->baseUrl().port()));
    QVERIFY(m_front->listenOnLoopback());
    const quint16 port = m_front->serverPort();
    startReader(m_front->url());
    trustOnList(presented);

    QSignalSpy asked(m_reader->certificateFlow(), &CertificateFlow::dialogShown);
    QSignalSpy reachable(m_reader->manager()->reachability(),
                         &KeepTrying::Reachability::originReachabilityChanged);
    QSignalSpy retries(m_reader->manager(),
                       &KeepTrying::RetryingNetworkAccessManager::retryScheduled);
    m_front->goDown(); // connections reset, then refused
    QSignalSpy refreshed(m_reader->engine(), &SyncEngine::refreshed);
    m_reader->engine()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!reachable.isEmpty(), 10000); // unreachable: probing
    QCOMPARE(reachable.constLast().at(1).toBool(), false);
    QVERIFY(refreshed.isEmpty());
    QVERIFY(m_front->listenOnLoopback(port)); // up, the same certificate
    QVERIFY(refreshed.wait(15000));
    QCOMPARE(reachable.constLast().at(1).toBool(), true);
    QVERIFY(retries.count() > 0 || reachable.count() >= 2);
    QCOMPARE(asked.count(), 0);
    checkListLoaded();
}

KEEPTRYING_READER_TEST_MAIN(tst_CertificateTrust, "tst_certificatetrust")

#include "tst_certificatetrust.moc"
