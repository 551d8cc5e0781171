// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "benchworkloads.h"

#include <QtCore/QEventLoop>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <functional>

namespace KeepTrying::Bench {

void sequentialGets(QNetworkAccessManager &manager, const QUrl &url, int count)
{
    QEventLoop loop;
    for (int i = 0; i < count; ++i) {
        QNetworkReply *reply = manager.get(QNetworkRequest(url));
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        if (reply->readAll().size() != 64)
            qFatal("unexpected body");
        delete reply;
    }
}

void concurrentGets(QNetworkAccessManager &manager, const QUrl &url, int count, int parallel)
{
    QEventLoop loop;
    int started = 0;
    int done = 0;
    std::function<void()> startOne = [&] {
        QNetworkReply *reply = manager.get(QNetworkRequest(url));
        ++started;
        QObject::connect(reply, &QNetworkReply::finished, &loop, [&, reply] {
            if (reply->readAll().size() != 64)
                qFatal("unexpected body");
            reply->deleteLater();
            if (++done == count)
                loop.quit();
            else if (started < count)
                startOne();
        });
    };
    for (int i = 0; i < parallel && i < count; ++i)
        startOne();
    loop.exec();
}

void streamedDownload(QNetworkAccessManager &manager, const QUrl &url, qint64 bytes)
{
    QEventLoop loop;
    qint64 received = 0;
    QNetworkReply *reply = manager.get(QNetworkRequest(url));
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] {
        char buffer[64 * 1024];
        qint64 n;
        while ((n = reply->read(buffer, sizeof buffer)) > 0)
            received += n;
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    received += reply->readAll().size();
    if (received != bytes)
        qFatal("download incomplete: %lld of %lld", received, bytes);
    delete reply;
}

} // namespace KeepTrying::Bench
