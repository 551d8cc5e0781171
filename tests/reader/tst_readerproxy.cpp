// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverthread.h"
#include "httptestproxy.h"

#include "library/localstore.h"
#include "readerapp.h"
#include "ui/mainwindow.h"
#include "ui/preferencesdialog.h"

#include <KeepTrying/Demo/demoserver.h>
#include <KeepTrying/retrybanner.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QDir>
#include <QtCore/QSettings>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpServer>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QStatusBar>

#include <memory>

using KeepTrying::Demo::DemoServer;
using KeepTrying::Test::DemoServerThread;
using KeepTrying::Test::HttpTestProxy;

/*
    The reader reaches its server the way the system's proxy settings say, and Preferences
    says which way. On Linux those settings include http_proxy, set here in the test's own
    environment before ReaderApp is built (and restored after). (Qt 6.4 asks the system's
    settings by default; ReaderApp asks for them explicitly.) Qt sends loopback and
    localhost direct whatever the settings say, so the reader is pointed at 0.0.0.0, which
    Qt does not take for this machine but the test proxy (loopback only) does; were the
    proxy bypassed, 0.0.0.0 would still reach this machine, never the network.
*/
class tst_ReaderProxy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void directWithoutProxySettings();
    void throughSystemProxy();
    void deadProxyIsNamed();

private:
    void startReader(const QUrl &server);
    QString preferencesConnectionText();

    std::unique_ptr<DemoServerThread> m_server;
    std::unique_ptr<HttpTestProxy> m_proxy;
    std::unique_ptr<ReaderApp> m_reader;
    QList<QPair<QByteArray, QByteArray>> m_savedEnvironment;
};

namespace {

const char *const proxyVariables[] = { "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY",
                                       "all_proxy",  "ALL_PROXY",  "no_proxy",    "NO_PROXY" };

} // namespace

void tst_ReaderProxy::init()
{
    QSettings().clear();
    m_savedEnvironment.clear();
    for (const char *name : proxyVariables) {
        if (qEnvironmentVariableIsSet(name))
            m_savedEnvironment.append({ name, qgetenv(name) });
        qunsetenv(name);
    }
    m_server = std::make_unique<DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    m_proxy = std::make_unique<HttpTestProxy>();
    QVERIFY(m_proxy->listen());
}

void tst_ReaderProxy::cleanup()
{
    m_reader.reset();
    m_proxy.reset();
    m_server.reset();
    for (const char *name : proxyVariables)
        qunsetenv(name);
    for (const auto &variable : std::as_const(m_savedEnvironment))
        qputenv(variable.first.constData(), variable.second);
}

// As main() does: the options, open(), start(); then the library is shown.
void tst_ReaderProxy::startReader(const QUrl &server)
{
    ReaderOptions options;
    options.server = server;
    options.credentials = { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                            DemoServer::demoUsername(), DemoServer::demoPassword() };
    m_reader = std::make_unique<ReaderApp>(options);
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    QSignalSpy shown(m_reader->window(), &MainWindow::libraryShown);
    m_reader->start();
    QVERIFY(shown.wait(15000));
}

// What File ▸ Preferences… shows on its Connection line.
QString tst_ReaderProxy::preferencesConnectionText()
{
    PreferencesDialog dialog(m_reader->manager(), m_reader->store(), m_reader->window());
    const auto *label = dialog.findChild<QLabel *>(QStringLiteral("connectionInUse"));
    return label ? label->text() : QStringLiteral("(no connection line)");
}

void tst_ReaderProxy::directWithoutProxySettings()
{
    QUrl server = (*m_server)->baseUrl();
    server.setHost(QStringLiteral("0.0.0.0"));
    startReader(server);
    QCOMPARE(m_proxy->requestCount(), 0);
    QCOMPARE(preferencesConnectionText(), QStringLiteral("Direct connection"));
}

void tst_ReaderProxy::throughSystemProxy()
{
    qputenv("http_proxy", m_proxy->url().toLatin1());
    QUrl server = (*m_server)->baseUrl();
    server.setHost(QStringLiteral("0.0.0.0"));
    startReader(server);

    // The reader's first request, and every one after, went through the proxy.
    QVERIFY(m_proxy->forwarded() > 0);
    QCOMPARE(m_proxy->forwarded(), m_proxy->requestCount());
    QVERIFY2(m_proxy->requests().constFirst().target.startsWith(
                 QStringLiteral("http://0.0.0.0:%1/").arg(server.port()).toLatin1()),
             m_proxy->requests().constFirst().target.constData());
    QCOMPARE(preferencesConnectionText(),
             QStringLiteral("Through proxy 127.0.0.1:%1 (from your system settings)")
                 .arg(m_proxy->port()));
}

// The system's proxy points at a port where nothing listens (curl fails with exit 7 there):
// the reader keeps trying, and says the proxy is what does not answer.
void tst_ReaderProxy::deadProxyIsNamed()
{
    QTcpServer closed;
    QVERIFY(closed.listen(QHostAddress::LocalHost));
    const quint16 deadPort = closed.serverPort();
    closed.close();
    qputenv("http_proxy", QByteArray("http://127.0.0.1:") + QByteArray::number(deadPort));
    QUrl server = (*m_server)->baseUrl();
    server.setHost(QStringLiteral("0.0.0.0"));
    // As main() does; the list never comes, so the library waits with its banner.
    ReaderOptions options;
    options.server = server;
    options.credentials = { DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                            DemoServer::demoUsername(), DemoServer::demoPassword() };
    m_reader = std::make_unique<ReaderApp>(options);
    QVERIFY2(m_reader->open(), qPrintable(m_reader->errorMessage()));
    m_reader->start();
    const auto bannerText = [this] {
        QStringList shown;
        const auto banners = m_reader->window()->findChildren<KeepTrying::RetryBanner *>();
        for (const KeepTrying::RetryBanner *banner : banners) {
            if (banner->isVisible())
                shown << banner->currentText();
        }
        return shown.join(QLatin1Char('|'));
    };
    QTRY_VERIFY2_WITH_TIMEOUT(bannerText().contains(QLatin1String("proxy")),
                              qPrintable(bannerText()), 15000);
    QVERIFY2(!bannerText().contains(QLatin1String("server seems to be down")),
             qPrintable(bannerText()));
    // The rest of the window says the same: the proxy is what it waits for.
    const QString status = m_reader->window()->statusBar()->currentMessage();
    QVERIFY2(status.contains(QLatin1String("proxy")), qPrintable(status));
}

// Settings, libraries, outboxes and offline copies in a directory of the test's own, and
// no keychain: set before anything reads a path.
int main(int argc, char *argv[])
{
    QTemporaryDir home;
    if (!home.isValid())
        return 1;
    for (const char *name : { "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME" })
        qputenv(name, QDir(home.path()).filePath(QString::fromLatin1(name)).toLocal8Bit());
    qputenv("KEEPTRYING_NO_KEYCHAIN", "1");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("KeepTrying"));
    QApplication::setApplicationName(QStringLiteral("tst_readerproxy"));
    tst_ReaderProxy test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_readerproxy.moc"
