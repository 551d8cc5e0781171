// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_BENCH_PASSTHROUGHMANAGER_H
#define KEEPTRYING_BENCH_PASSTHROUGHMANAGER_H

#include <QtNetwork/QNetworkAccessManager>

namespace KeepTrying::Bench {

/*
    The least a manager that hands out its own reply around Qt's can do: one outer reply
    per request that copies the inner reply's headers and attributes, forwards its
    metaDataChanged/readyRead/finished, reads its body straight from it, and deletes it with
    itself. No retry, no gate, no checks. bench_instructions measures it beside plain Qt and
    RetryingNetworkAccessManager: the cost of wrapping at all, the floor of every design that
    retries behind one QNetworkReply.
*/
class PassThroughManager : public QNetworkAccessManager
{
    Q_OBJECT
public:
    using QNetworkAccessManager::QNetworkAccessManager;

protected:
    QNetworkReply *createRequest(Operation op, const QNetworkRequest &request,
                                 QIODevice *outgoingData) override;
};

} // namespace KeepTrying::Bench

#endif // KEEPTRYING_BENCH_PASSTHROUGHMANAGER_H
