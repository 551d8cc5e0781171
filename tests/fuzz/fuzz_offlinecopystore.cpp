// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The offline-copy store's reading of its file: the input is written as the store's
// SQLite file, then opened and read (lookups in two accounts, counts, sizes, a store that
// evicts). Whatever the bytes, the store opens, starts empty or refuses the file, and every
// call answers (a miss, a copy or a failure): never a crash.

#include "offlinecopydatabase_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTemporaryDir>

#include <cstdint>
#include <cstdlib>

using KeepTrying::OfflineCopyDatabase;

namespace {

QTemporaryDir *directory = nullptr;

const QDateTime &now()
{
    static const QDateTime time =
        QDateTime::fromString(QStringLiteral("2026-01-05T09:12:00Z"), Qt::ISODate);
    return time;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv); // QtSql's plugins need it
    // The store warns about every damaged file: millions of lines otherwise.
    QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.*=false"));
    // On tmpfs when there is one: the store syncs its commits, which on a disk costs more
    // than all the rest of an input.
    const QString shm = QStringLiteral("/dev/shm");
    const QFileInfo shmInfo(shm);
    directory = shmInfo.isDir() && shmInfo.isWritable()
        ? new QTemporaryDir(shm + QStringLiteral("/keeptrying-fuzz-XXXXXX"))
        : new QTemporaryDir;
    if (!directory->isValid())
        std::abort();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString path = directory->filePath(OfflineCopyDatabase::fileName());
    for (const char *suffix : { "", "-wal", "-shm" })
        QFile::remove(path + QLatin1String(suffix));
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(reinterpret_cast<const char *>(data), qint64(size)) != qint64(size))
            std::abort();
    }

    OfflineCopyDatabase store;
    store.setClock([] { return now(); });
    if (!store.open(directory->path()))
        return 0; // refused (another program's file, a newer format): fine
    const QList<QUrl> urls = {
        QUrl(QStringLiteral("http://127.0.0.1:8080/api/entries/1.json")),
        QUrl(QStringLiteral("http://127.0.0.1:8080/api/entries/2.json")),
        QUrl(QStringLiteral("http://127.0.0.1:8080/images/one.png")),
    };
    for (const QString &account : { QString(), QStringLiteral("alice") }) {
        store.setAccountKey(account);
        for (const QUrl &url : urls) {
            store.contains(url);
            if (const std::optional<OfflineCopyDatabase::Copy> copy = store.lookup(url)) {
                // What an offer does with a copy.
                if (copy->ageSeconds(now()) < 0)
                    std::abort();
                copy->revalidationHeaders();
                copy->header("content-type");
            }
        }
    }
    store.count();
    store.size();
    store.pinnedSize();
    // A write: eviction reads the sizes and pins of the rows.
    store.setMaximumSize(4096);
    store.store(urls.at(0), 200, { { "Content-Type", "application/json" } }, QByteArray(100, 'x'));
    store.setPinned(urls.at(1), false);
    store.close();
    return 0;
}
