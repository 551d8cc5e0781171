// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_REQUESTLOG_H
#define KEEPTRYING_READER_REQUESTLOG_H

#include <QtCore/QAbstractTableModel>
#include <QtCore/QDateTime>
#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QPointer>

#include <KeepTrying/waitreason.h>

QT_BEGIN_NAMESPACE
class QNetworkReply;
QT_END_NAMESPACE

namespace KeepTrying {
class RetryingNetworkAccessManager;
}

/*
    A live log of the manager's logical requests for the Developer menu, one row each: when
    it started, method, the whole URL (credentials redacted as KeepTrying/redaction.h says),
    the Idempotency-Key sent with every attempt, the size of the request body, attempts,
    why it waits (or last waited), each retry's delay and reason, waits for connectivity,
    the circuit breaker's state for its origin, whether a saved copy was shown meanwhile,
    and how it ended. Built from the manager's signals (attemptStarted, waitReasonChanged,
    waitingForConnectivity, gaveUp, finished) and the typed WaitReason and GiveUpReason the
    RetryingReply gives, rendered with their technical detail (kind, origin, HTTP status or
    Qt error, when the wait ends); the log-form text of the signals is never read. Keeps
    the last maxRows() requests.
*/
class RequestLog : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        Started,
        Method,
        Url,
        IdempotencyKey,
        BodySize,
        Attempts,
        WaitReason,
        Events,
        Breaker,
        SavedCopy,
        Outcome,
        ColumnCount
    };
    struct Entry
    {
        QDateTime started;
        QByteArray method;
        QString url;
        QByteArray idempotencyKey; // empty: none sent
        qint64 bodySize = 0; // -1: streamed, length unknown
        int attempts = 0;
        KeepTrying::WaitReason waitReason; // why it waits now, or last waited
        bool waiting = false;
        bool simulatedOffline = false; // waitReason Offline came from QA's switch
        QStringList events; // "retry in 812 ms: HTTP 503", "waiting for connectivity"
        QString breaker; // closed / open / half-open at the last attempt
        bool savedCopyShown = false;
        QString outcome; // empty while running
    };

    explicit RequestLog(KeepTrying::RetryingNetworkAccessManager *manager,
                        QObject *parent = nullptr);

    /*! The log keeps this many requests, the oldest dropped first (default 500). */
    void setMaxRows(int rows);
    int maxRows() const { return m_maxRows; }
    /*! Marks the requests running now as having had a saved copy shown for them. */
    void noteSavedCopyShown();

    const Entry &entry(int row) const { return m_entries.at(row); }
    /*! The rows as tab-separated text, a header line first, for the clipboard. */
    QString toText(const QList<int> &rows = {}) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    int rowOf(QNetworkReply *reply, bool create);
    void replyFinished(QNetworkReply *reply);
    void changed(int row);
    QString cell(const Entry &entry, int column) const;
    QString describe(const Entry &entry) const;

    KeepTrying::RetryingNetworkAccessManager *m_manager;
    QList<Entry> m_entries;
    QHash<QNetworkReply *, qint64> m_serial; // running request -> serial number
    QHash<qint64, int> m_rowOfSerial;
    qint64 m_nextSerial = 0;
    qint64 m_firstSerial = 0; // serial of row 0
    int m_maxRows = 500;
};

#endif // KEEPTRYING_READER_REQUESTLOG_H
