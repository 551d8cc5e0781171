// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <QtCore/QDir>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest/QTest>

/*
    The reader in each state a user meets, as PNGs under the build directory
    (KEEPTRYING_SCREENSHOT_DIR), made by the real executable on the offscreen platform. The
    main ones are copied to docs/screenshots/ by hand, after looking at them.
*/
class tst_Screenshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void state_data();
    void state();

private:
    // Runs the reader with \a arguments in \a home; returns its stdout, or fails.
    QStringList run(const QString &home, const QStringList &arguments);

    QTemporaryDir m_dir;
    QDir m_out;
};

void tst_Screenshots::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir().mkpath(QStringLiteral(KEEPTRYING_SCREENSHOT_DIR)));
    m_out = QDir(QStringLiteral(KEEPTRYING_SCREENSHOT_DIR));
}

QStringList tst_Screenshots::run(const QString &home, const QStringList &arguments)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("KEEPTRYING_NO_KEYCHAIN"), QStringLiteral("1"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
    env.remove(QStringLiteral("KEEPTRYING_PASSWORD"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(KEEPTRYING_READER_PATH),
                  arguments +
                      QStringList { QStringLiteral("--quit-after"), QStringLiteral("15000") });
    if (!process.waitForFinished(25000)) {
        process.kill();
        process.waitForFinished(2000);
    }
    QStringList out = QString::fromLocal8Bit(process.readAllStandardOutput())
                          .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // Each line for scripts starts with its timestamp and a space: read what follows.
    for (QString &line : out)
        line = line.section(QLatin1Char(' '), 1);
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        qWarning("%s", process.readAllStandardError().constData());
        return {};
    }
    return out;
}

void tst_Screenshots::state_data()
{
    QTest::addColumn<QString>("when");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("savedCopyFirst"); // a first run fills the home's saved copy

    QTest::newRow("loaded") << QStringLiteral("loaded") << QStringList() << false;
    QTest::newRow("slow-banner") << QStringLiteral("banner")
                                 << QStringList { QStringLiteral("--demo-fault"),
                                                  QStringLiteral("route=/api/entries*,latency="
                                                                 "2500,count=1") }
                                 << false;
    QTest::newRow("server-trouble") << QStringLiteral("banner")
                                    << QStringList { QStringLiteral("--demo-fault"),
                                                     QStringLiteral("route=/api/entries*,status="
                                                                    "503,count=3,retry-after=1") }
                                    << false;
    QTest::newRow("offline-saved-copy")
        << QStringLiteral("offline") << QStringList { QStringLiteral("--simulate-offline") }
        << true;
    QTest::newRow("changes-waiting") << QStringLiteral("waiting") << QStringList() << false;
    QTest::newRow("dead-letter") << QStringLiteral("failed-change")
                                 << QStringList { QStringLiteral("--demo-fault"),
                                                  QStringLiteral("method=PATCH,status=403") }
                                 << false;
    QTest::newRow("back-online") << QStringLiteral("back-online")
                                 << QStringList { QStringLiteral("--simulate-offline"),
                                                  QStringLiteral("--back-online-after"),
                                                  QStringLiteral("300") }
                                 << true;
    QTest::newRow("sign-in") << QStringLiteral("signin") << QStringList() << false;
    QTest::newRow("developer") << QStringLiteral("developer")
                               << QStringList { QStringLiteral("--developer") } << false;
}

void tst_Screenshots::state()
{
    QFETCH(QString, when);
    QFETCH(QStringList, arguments);
    QFETCH(bool, savedCopyFirst);
    const QString home = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()));
    QVERIFY(QDir().mkpath(home));
    if (savedCopyFirst) {
        const QStringList first =
            run(home, { QStringLiteral("--screenshot"), home + QStringLiteral("/first.png") });
        QVERIFY(!first.isEmpty());
    }
    const QString file =
        m_out.filePath(QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".png"));
    QFile::remove(file);
    const QStringList out = run(home,
                                arguments +
                                    QStringList { QStringLiteral("--screenshot"), file,
                                                  QStringLiteral("--screenshot-when"), when });
    QVERIFY2(out.contains(QStringLiteral("screenshot: ") + file),
             qPrintable(out.join(QLatin1Char('|'))));
    const QImage image(file);
    QVERIFY(!image.isNull());
    QVERIFY2(image.width() >= 300 && image.height() >= 200,
             qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
    qInfo("%s", qPrintable(file));
}

QTEST_GUILESS_MAIN(tst_Screenshots)
#include "tst_screenshots.moc"
