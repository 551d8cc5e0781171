// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demotoken.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QEventLoop>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkReply>

#include <memory>

namespace KeepTrying::Test {

QByteArray demoToken(const QUrl &baseUrl, QNetworkAccessManager *manager, int timeoutMs)
{
    std::unique_ptr<QNetworkAccessManager> plain;
    if (!manager) {
        plain = std::make_unique<QNetworkAccessManager>();
        plain->setProxy(QNetworkProxy::NoProxy);
        manager = plain.get();
    }
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("password"));
    form.addQueryItem(QStringLiteral("client_id"), Demo::DemoServer::demoClientId());
    form.addQueryItem(QStringLiteral("client_secret"), Demo::DemoServer::demoClientSecret());
    form.addQueryItem(QStringLiteral("username"), Demo::DemoServer::demoUsername());
    form.addQueryItem(QStringLiteral("password"), Demo::DemoServer::demoPassword());
    QNetworkRequest request(baseUrl.resolved(QUrl(QStringLiteral("/oauth/v2/token"))));
    request.setHeader(QNetworkRequest::ContentTypeHeader,
                      QByteArrayLiteral("application/x-www-form-urlencoded"));
    std::unique_ptr<QNetworkReply> reply(
        manager->post(request, form.toString(QUrl::FullyEncoded).toUtf8()));
    if (!reply->isFinished()) {
        QEventLoop loop;
        QObject::connect(reply.get(), &QNetworkReply::finished, &loop, &QEventLoop::quit);
        if (timeoutMs > 0)
            QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
        if (!reply->isFinished())
            return QByteArray();
    }
    return QJsonDocument::fromJson(reply->readAll())
        .object()
        .value(QLatin1String("access_token"))
        .toString()
        .toLatin1();
}

QByteArray demoToken(const Demo::DemoServer &server, QNetworkAccessManager *manager, int timeoutMs)
{
    return demoToken(server.baseUrl(), manager, timeoutMs);
}

} // namespace KeepTrying::Test
