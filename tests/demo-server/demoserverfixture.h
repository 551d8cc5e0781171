// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// What the demo server's tests share: a server on loopback made fresh for each test, a plain
// QNetworkAccessManager to ask it, and its token.

#ifndef KEEPTRYING_DEMOSERVERFIXTURE_H
#define KEEPTRYING_DEMOSERVERFIXTURE_H

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QHash>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <memory>

struct Result
{
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    int status = 0;
    QByteArray body;
    QHash<QByteArray, QByteArray> headers; // lower-case names

    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

using Headers = QList<QPair<QByteArray, QByteArray>>;

class DemoServerFixture
{
protected:
    using DemoServer = KeepTrying::Demo::DemoServer;

    // For init() and cleanup() of each test.
    void startServer();
    void stopServer();

    Result send(const QByteArray &method, const QString &path, const QByteArray &body = {},
                const Headers &headers = {}, DemoServer *target = nullptr);
    Result get(const QString &path) { return send("GET", path, {}, auth()); }
    // The admin API, on its own port.
    Result admin(const QByteArray &method, const QString &path, const QByteArray &body = {});
    QByteArray token(DemoServer *target = nullptr);
    Headers auth() { return { { "Authorization", "Bearer " + token() } }; }

    std::unique_ptr<DemoServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    QByteArray m_token;
};

#endif // KEEPTRYING_DEMOSERVERFIXTURE_H
