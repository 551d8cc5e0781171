// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_HTTPMESSAGE_P_H
#define KEEPTRYING_DEMO_HTTPMESSAGE_P_H

#include <QtCore/QByteArray>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QHostAddress>

QT_BEGIN_NAMESPACE
class QHttpServerRequest;
class QHttpServerResponder;
QT_END_NAMESPACE

// The request and response types the three parts of the demo server (transport, wallabag API,
// admin API) hand each other.

namespace KeepTrying::Demo {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

/*! A copy of what the handlers need from a QHttpServerRequest, which dies with its socket. */
struct HttpRequest
{
    QByteArray method;
    QString path;
    QUrlQuery query;
    QString rawQuery;
    HeaderList headers;
    QByteArray body;
    QHostAddress remoteAddress;

    static HttpRequest copyOf(const QHttpServerRequest &request);

    /*! The first value of header \a name (case-insensitive), or empty. */
    QByteArray header(const QByteArray &name) const;
};

struct HttpResponse
{
    int status = 200;
    QByteArray contentType;
    HeaderList headers;
    QByteArray body;

    static HttpResponse json(const QJsonValue &value, int status = 200);
    /*! OAuth 2.0 error shape (RFC 6749 §5.2), used by the token endpoint and for 401. */
    static HttpResponse oauthError(int status, const QString &error, const QString &description);
    /*! wallabag's REST error shape: {"error": {"code": N, "message": "..."}}. */
    static HttpResponse restError(int status, const QString &message);

    /*! Writes the status line, the headers (with the whole body's Content-Length) and the
        body, none of it for \a head, only its first \a bodyBytes when not negative. */
    void writeTo(QHttpServerResponder &responder, bool head, qsizetype bodyBytes = -1) const;
};

/*! \c{http://HOST:PORT} for a server listening on \a address, \a port: 127.0.0.1 for any
    and loopback addresses; empty while \a port is 0. */
QString baseUrlFor(const QHostAddress &address, quint16 port);

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_HTTPMESSAGE_P_H
