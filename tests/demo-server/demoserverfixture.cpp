// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "demoserverfixture.h"

#include "demotoken.h"

#include <QtNetwork/QNetworkProxy>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

void DemoServerFixture::startServer()
{
    m_server = std::make_unique<DemoServer>();
    if (m_server->listen() == 0)
        QFAIL("the demo server does not listen");
    // A fresh manager per test: no kept-alive connection crosses from one test to the next.
    m_nam = std::make_unique<QNetworkAccessManager>();
    m_nam->setProxy(QNetworkProxy::NoProxy);
    m_token.clear();
}

void DemoServerFixture::stopServer()
{
    m_nam.reset();
    m_server.reset();
}

Result DemoServerFixture::send(const QByteArray &method, const QString &path,
                               const QByteArray &body, const Headers &headers, DemoServer *target)
{
    DemoServer *server = target ? target : m_server.get();
    QNetworkRequest request(QUrl(server->baseUrl().toString() + path));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    if (!body.isEmpty() && !request.hasRawHeader("Content-Type"))
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_nam->sendCustomRequest(request, method, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    Result result;
    if (!finished.wait(10000)) {
        reply->abort();
        result.error = QNetworkReply::TimeoutError;
    } else {
        result.error = reply->error();
    }
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        result.headers.insert(name.toLower(), value);
    reply->deleteLater();
    return result;
}

Result DemoServerFixture::admin(const QByteArray &method, const QString &path,
                                const QByteArray &body)
{
    QNetworkRequest request(QUrl(m_server->adminUrl().toString() + path));
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_nam->sendCustomRequest(request, method, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    Result result;
    result.error = finished.wait(10000) ? reply->error() : QNetworkReply::TimeoutError;
    if (result.error == QNetworkReply::TimeoutError)
        reply->abort();
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    reply->deleteLater();
    return result;
}

QByteArray DemoServerFixture::token(DemoServer *target)
{
    if (!m_token.isEmpty() && !target)
        return m_token;
    const QByteArray accessToken =
        KeepTrying::Test::demoToken(target ? *target : *m_server, m_nam.get());
    if (!target)
        m_token = accessToken;
    return accessToken;
}
