// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// Launch to painted list: the real keeptrying-reader started on a library of 1 000 stored
// articles, offline (simulated), so that what is measured is the saved copy on screen,
// not the network. Prints each run's figures and the median; the target is 500 ms from
// main() to the first painted list. Never run by ctest.
//
//     bench_reader_start [articles (1000)]

#include "library/article.h"
#include "library/localstore.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>

#include <algorithm>
#include <cstdio>

namespace {

constexpr int DefaultArticles = 1000;
constexpr int Runs = 7;
constexpr qint64 TargetMs = 500;

QList<Article> sampleArticles(int count)
{
    static const QStringList words { QStringLiteral("network"), QStringLiteral("train"),
                                     QStringLiteral("bread"),   QStringLiteral("weather"),
                                     QStringLiteral("offline"), QStringLiteral("garden"),
                                     QStringLiteral("history"), QStringLiteral("music") };
    QList<Article> articles;
    const QDateTime start = QDateTime(QDate(2024, 1, 1), QTime(9, 0), Qt::UTC);
    for (int i = 1; i <= count; ++i) {
        Article a;
        a.id = i;
        a.title = QStringLiteral("Article %1 about %2 and %3")
                      .arg(i)
                      .arg(words.at(i % words.size()), words.at((i * 7) % words.size()));
        a.url = QUrl(QStringLiteral("https://site%1.example.org/a/%2").arg(i % 37).arg(i));
        a.domain = a.url.host();
        a.readingTimeMinutes = 1 + i % 12;
        a.createdAt = start.addSecs(qint64(i) * 3600);
        a.updatedAt = a.createdAt;
        a.starred = i % 9 == 0;
        a.archived = i % 4 == 0;
        a.tags = { words.at(i % words.size()), words.at((i / 3) % words.size()) };
        a.tags.removeDuplicates();
        if (i % 2 == 0) {
            a.hasContent = true;
            a.content = QStringLiteral("<p>%1</p>").arg(a.title).repeated(40);
        }
        articles << a;
    }
    return articles;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const int articles = args.size() > 1 ? args.at(1).toInt() : DefaultArticles;
    QTemporaryDir home;
    if (!home.isValid())
        return 1;
    // The reader's own directories, in a home of the benchmark's own.
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toLocal8Bit());
    qputenv("XDG_CACHE_HOME", home.filePath(QStringLiteral("cache")).toLocal8Bit());
    QCoreApplication::setOrganizationName(QStringLiteral("KeepTrying"));
    QCoreApplication::setApplicationName(QStringLiteral("keeptrying-reader"));
    {
        LocalStore store;
        QString error;
        if (!store.open(LocalStore::defaultPath(QStringLiteral("demo@built-in")), &error)) {
            std::fprintf(stderr, "bench_reader_start: %s\n", qPrintable(error));
            return 1;
        }
        store.mergeFromServer(sampleArticles(articles));
        std::printf("library: %d articles, %lld bytes of content\n", store.articleCount(),
                    static_cast<long long>(store.contentBytes()));
    }

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("KEEPTRYING_NO_KEYCHAIN"), QStringLiteral("1"));
    const QRegularExpression painted(
        // After the timestamp the reader puts first (ScriptOutput).
        QStringLiteral("^(?:\\S+ )?saved copy painted: (\\d+) articles in (\\d+) ms$"),
        QRegularExpression::MultilineOption);
    QList<qint64> toPaint;
    QList<qint64> wholeRun;
    for (int run = 0; run < Runs; ++run) {
        QProcess reader;
        reader.setProcessEnvironment(env);
        QElapsedTimer wall;
        wall.start();
        reader.start(QStringLiteral(KEEPTRYING_READER_PATH),
                     { QStringLiteral("--simulate-offline"), QStringLiteral("--screenshot"),
                       home.filePath(QStringLiteral("start.png")),
                       QStringLiteral("--screenshot-when"), QStringLiteral("saved"),
                       QStringLiteral("--quit-after"), QStringLiteral("20000") });
        if (!reader.waitForFinished(30000) || reader.exitCode() != 0) {
            std::fprintf(stderr, "bench_reader_start: the reader failed: %s\n",
                         reader.readAllStandardError().constData());
            return 1;
        }
        const qint64 processMs = wall.elapsed();
        const QRegularExpressionMatch m =
            painted.match(QString::fromLocal8Bit(reader.readAllStandardOutput()));
        if (!m.hasMatch()) {
            std::fprintf(stderr, "bench_reader_start: no painted list reported\n");
            return 1;
        }
        toPaint << m.captured(2).toLongLong();
        wholeRun << processMs;
        std::printf("run %d: %s rows painted %lld ms after main(); process start to exit %lld ms\n",
                    run + 1, qPrintable(m.captured(1)), static_cast<long long>(toPaint.last()),
                    static_cast<long long>(processMs));
    }
    std::sort(toPaint.begin(), toPaint.end());
    std::sort(wholeRun.begin(), wholeRun.end());
    const qint64 median = toPaint.at(Runs / 2);
    std::printf("launch to painted list, %d articles: median %lld ms (min %lld, max %lld); "
                "target <= %lld ms: %s\n",
                articles, static_cast<long long>(median), static_cast<long long>(toPaint.first()),
                static_cast<long long>(toPaint.last()), static_cast<long long>(TargetMs),
                median <= TargetMs ? "met" : "NOT met");
    std::printf("process start to exit (screenshot saved): median %lld ms\n",
                static_cast<long long>(wholeRun.at(Runs / 2)));
    return 0;
}
