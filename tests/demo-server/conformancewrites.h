// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_CONFORMANCEWRITES_H
#define KEEPTRYING_CONFORMANCEWRITES_H

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrlQuery>

#include <functional>

namespace KeepTrying::Demo {
class DemoServer;
}

namespace Conformance {

/*! One answer of the server under test. */
struct Reply
{
    int status = 0;
    QByteArray contentType;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
};

/*! Sends a request; \a token empty: none. */
using Send =
    std::function<Reply(const QByteArray &method, const QString &path, const QUrlQuery &query,
                        const QByteArray &body, const QByteArray &token)>;

/*! What a write case needs beyond the shared fixture: the entries (or tokens) it
    describes, made through the API just before it runs. */
struct Setup
{
    QString error; //!< empty when the fixture was made
    /*! Placeholder → value, applied to the case's text before the shared fixture's. */
    QList<QPair<QString, QString>> substitutions;
    QByteArray token; //!< the bearer token the case is sent with (auth "expired token")
};

/*! The write-side cases of wallabag-api.json that the runner runs, in the file's order. */
const QStringList &writeSideCases();

/*! Makes the fixture of the write case \a name on \a server through \a send, with the
    valid token \a token of the demo user. */
Setup setUp(const QString &name, const Send &send, KeepTrying::Demo::DemoServer *server,
            const QByteArray &token);

} // namespace Conformance

#endif // KEEPTRYING_CONFORMANCEWRITES_H
