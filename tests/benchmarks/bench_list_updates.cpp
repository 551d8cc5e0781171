// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The article list while a sync changes many articles: a LocalStore of 10 000 articles (a
// file, as the reader keeps it), the Unread list (ArticleListModel) in a shown QListView
// with an article selected, then bursts of articleChanged(): stars changed (rows updated
// in place), articles archived (rows leave the list) and moved back (rows come in). The
// store is written before each burst with its signals blocked, so what is measured is the
// list's work, not SQLite's writes. Prints each burst's time (median of the runs) and
// whether the selected article stayed selected. Under valgrind --tool=callgrind
// --instr-atstart=no only the bursts are counted. Never run by ctest.
//
//     bench_list_updates [articles (10000)] [changes per burst (500)] [runs (5)]

#include "library/article.h"
#include "library/imagestore.h"
#include "library/localstore.h"
#include "library/wallabagclient.h"
#include "ui/articlelistmodel.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QSignalBlocker>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>
#include <QtWidgets/QApplication>
#include <QtWidgets/QListView>
#include <QtWidgets/QScrollBar>

#include <valgrind/callgrind.h>

#include <algorithm>
#include <cstdio>
#include <functional>

namespace {

QList<Article> sampleArticles(int count)
{
    QList<Article> articles;
    const QDateTime start = QDateTime(QDate(2020, 1, 1), QTime(9, 0), Qt::UTC);
    for (int i = 1; i <= count; ++i) {
        Article a;
        a.id = i;
        a.title = QStringLiteral("Article %1 about trains and bread").arg(i);
        a.url = QUrl(QStringLiteral("https://site%1.example.org/a/%2").arg(i % 37).arg(i));
        a.domain = a.url.host();
        a.readingTimeMinutes = 1 + i % 12;
        a.createdAt = start.addSecs(qint64(i) * 600);
        a.updatedAt = a.createdAt;
        a.tags = { QStringLiteral("trains") };
        articles << a;
    }
    return articles;
}

// Lets the list take in a burst: its own queued work, then the view's.
void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const int articles = args.size() > 1 ? args.at(1).toInt() : 10000;
    const int changes = args.size() > 2 ? args.at(2).toInt() : 500;
    const int runs = args.size() > 3 ? args.at(3).toInt() : 5;

    QTemporaryDir dir;
    LocalStore store;
    QString error;
    if (!dir.isValid() || !store.open(dir.filePath(QStringLiteral("library.sqlite")), &error)) {
        std::fprintf(stderr, "bench_list_updates: %s\n", qPrintable(error));
        return 1;
    }
    store.mergeFromServer(sampleArticles(articles));
    QNetworkAccessManager manager;
    WallabagClient client(&manager);
    ImageStore images(&client);
    ArticleListModel model(&store, &images);
    model.setFilter({ LocalStore::View::Unread, {}, {} });
    QListView view;
    view.setUniformItemSizes(true);
    view.setModel(&model);
    view.resize(400, 800);
    view.show();
    settle();
    std::printf("library: %d articles, list of %d rows; bursts of %d changes, %d runs\n",
                store.articleCount(), model.rowCount(), changes, runs);

    // The changed articles: every (articles / changes)-th, spread over the whole list.
    QList<qint64> ids;
    const int step = qMax(1, articles / qMax(1, changes));
    for (int i = 0; i < changes && i * step < articles; ++i)
        ids << qint64(articles - i * step);

    struct Burst
    {
        const char *name;
        std::function<void(qint64)> write;
    };
    bool starred = false;
    const QList<Burst> bursts = {
        { "stars (rows updated in place)", [&](qint64 id) { store.setStarred(id, starred); } },
        { "archived (rows leave the list)", [&](qint64 id) { store.setArchived(id, true); } },
        { "unarchived (rows come back)", [&](qint64 id) { store.setArchived(id, false); } },
    };
    bool stayed = true;
    for (const Burst &burst : bursts) {
        QList<qint64> times;
        for (int run = 0; run < runs; ++run) {
            starred = !starred;
            // Archived articles are back in the list before each "archived" run.
            {
                const QSignalBlocker quiet(&store);
                for (qint64 id : std::as_const(ids))
                    store.setArchived(id, false);
            }
            model.reload();
            settle();
            // An article near the top that no burst changes stays selected.
            const QModelIndex selected = model.index(1);
            view.setCurrentIndex(selected);
            const qint64 selectedId = model.article(1).id;
            {
                const QSignalBlocker quiet(&store);
                for (qint64 id : std::as_const(ids))
                    burst.write(id);
            }
            const int scroll = view.verticalScrollBar()->value();
            QElapsedTimer timer;
            CALLGRIND_START_INSTRUMENTATION;
            timer.start();
            for (qint64 id : std::as_const(ids))
                Q_EMIT store.articleChanged(id);
            settle();
            const qint64 ns = timer.nsecsElapsed();
            CALLGRIND_STOP_INSTRUMENTATION;
            times << ns;
            if (model.article(view.currentIndex().row()).id != selectedId ||
                view.verticalScrollBar()->value() != scroll)
                stayed = false;
        }
        std::sort(times.begin(), times.end());
        std::printf("%-32s median %8.2f ms (min %.2f, max %.2f), %.1f us a change\n", burst.name,
                    times.at(times.size() / 2) / 1e6, times.first() / 1e6, times.last() / 1e6,
                    times.at(times.size() / 2) / 1e3 / qMax<qsizetype>(1, ids.size()));
    }
    std::printf("selected article and scroll position kept: %s\n", stayed ? "yes" : "NO");
    return 0;
}
