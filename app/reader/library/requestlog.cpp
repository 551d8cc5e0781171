// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "requestlog.h"

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/redaction.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <QtCore/QLocale>

#include <QtNetwork/QNetworkReply>

using KeepTrying::CircuitBreaker;
using KeepTrying::RetryingNetworkAccessManager;
using KeepTrying::RetryingReply;

namespace {

QByteArray methodOf(QNetworkReply *reply)
{
    switch (reply->operation()) {
    case QNetworkAccessManager::HeadOperation:
        return "HEAD";
    case QNetworkAccessManager::GetOperation:
        return "GET";
    case QNetworkAccessManager::PutOperation:
        return "PUT";
    case QNetworkAccessManager::PostOperation:
        return "POST";
    case QNetworkAccessManager::DeleteOperation:
        return "DELETE";
    case QNetworkAccessManager::CustomOperation:
        return reply->request().attribute(QNetworkRequest::CustomVerbAttribute).toByteArray();
    case QNetworkAccessManager::UnknownOperation:
        break;
    }
    return "?";
}

QString breakerName(CircuitBreaker::State state)
{
    switch (state) {
    case CircuitBreaker::Closed:
        return QStringLiteral("closed");
    case CircuitBreaker::Open:
        return QStringLiteral("open");
    case CircuitBreaker::HalfOpen:
        return QStringLiteral("half-open");
    }
    return {};
}

} // namespace

RequestLog::RequestLog(RetryingNetworkAccessManager *manager, QObject *parent)
    : QAbstractTableModel(parent), m_manager(manager)
{
    connect(manager, &RetryingNetworkAccessManager::attemptStarted, this,
            [this](QNetworkReply *reply, int attempt) {
                const int row = rowOf(reply, true);
                Entry &e = m_entries[row];
                e.attempts = attempt;
                e.waiting = false;
                e.breaker = breakerName(m_manager->circuitBreaker()->state(reply->url()));
                changed(row);
            });
    connect(manager, &RetryingNetworkAccessManager::retryScheduled, this,
            [this](QNetworkReply *reply, int attempt, qint64 delayMs, const QString &reason) {
                const int row = rowOf(reply, true);
                m_entries[row].events
                    << tr("attempt %1: %2, next in %3 ms").arg(attempt).arg(reason).arg(delayMs);
                m_entries[row].waitReason = tr("backoff after %1").arg(reason);
                m_entries[row].waiting = true;
                m_entries[row].breaker =
                    breakerName(m_manager->circuitBreaker()->state(reply->url()));
                changed(row);
            });
    connect(manager, &RetryingNetworkAccessManager::waitingForConnectivity, this,
            [this](QNetworkReply *reply, bool waiting) {
                const int row = rowOf(reply, true);
                m_entries[row].events
                    << (waiting ? tr("waiting for connectivity") : tr("connectivity back"));
                if (waiting)
                    m_entries[row].waitReason = m_manager->isSimulatedOffline()
                        ? tr("offline (simulated)")
                        : tr("no connectivity to %1").arg(reply->url().host());
                m_entries[row].waiting = waiting;
                changed(row);
            });
    connect(manager, &RetryingNetworkAccessManager::gaveUp, this,
            [this](QNetworkReply *reply, const QString &reason) {
                const int row = rowOf(reply, true);
                m_entries[row].events << tr("stopped: %1").arg(reason);
                changed(row);
            });
}

void RequestLog::replyFinished(QNetworkReply *reply)
{
    {
        const int row = rowOf(reply, false);
        if (row < 0)
            return;
        Entry &e = m_entries[row];
        e.waiting = false;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() == QNetworkReply::OperationCanceledError)
            e.outcome = tr("cancelled");
        else if (reply->error() == QNetworkReply::NoError)
            e.outcome = tr("HTTP %1").arg(status);
        else if (status > 0)
            e.outcome = tr("HTTP %1 (error)").arg(status);
        else
            e.outcome = reply->errorString();
        m_serial.remove(reply);
        changed(row);
    }
}

void RequestLog::setMaxRows(int rows)
{
    m_maxRows = qMax(1, rows);
}

void RequestLog::noteSavedCopyShown()
{
    for (auto it = m_serial.cbegin(); it != m_serial.cend(); ++it) {
        const int row = int(it.value() - m_firstSerial);
        if (row >= 0 && row < m_entries.size()) {
            m_entries[row].savedCopyShown = true;
            changed(row);
        }
    }
}

int RequestLog::rowOf(QNetworkReply *reply, bool create)
{
    const auto it = m_serial.constFind(reply);
    if (it != m_serial.constEnd()) {
        const int row = int(*it - m_firstSerial);
        if (row >= 0 && row < m_entries.size())
            return row;
    }
    if (!create)
        return -1;
    if (m_entries.size() >= m_maxRows) {
        beginRemoveRows({}, 0, 0);
        m_entries.removeFirst();
        ++m_firstSerial;
        endRemoveRows();
    }
    Entry e;
    e.started = QDateTime::currentDateTime();
    e.method = methodOf(reply);
    e.url = KeepTrying::redactedUrl(reply->url()).toDisplayString();
    if (const auto *retrying = qobject_cast<const RetryingReply *>(reply)) {
        e.idempotencyKey = retrying->idempotencyKey();
        e.bodySize = retrying->requestBodySize();
        // A request that waits before its first attempt says so before any signal does.
        if (retrying->isWaitingForConnectivity()) {
            e.waiting = true;
            e.waitReason = m_manager->isSimulatedOffline()
                ? tr("offline (simulated)")
                : tr("no connectivity to %1").arg(reply->url().host());
        }
    }
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries << e;
    m_serial.insert(reply, m_firstSerial + row);
    endInsertRows();
    connect(reply, &QNetworkReply::finished, this, [this, reply] { replyFinished(reply); });
    // A reply destroyed without finishing leaves no dangling key.
    connect(reply, &QObject::destroyed, this, [this, reply] { m_serial.remove(reply); });
    return row;
}

void RequestLog::changed(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int RequestLog::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int RequestLog::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RequestLog::cell(const Entry &e, int column) const
{
    switch (column) {
    case Started:
        return e.started.toString(QStringLiteral("HH:mm:ss.zzz"));
    case Method:
        return QString::fromLatin1(e.method);
    case Url:
        return e.url;
    case IdempotencyKey:
        return QString::fromLatin1(e.idempotencyKey);
    case BodySize:
        if (e.bodySize < 0)
            return tr("streamed");
        return e.bodySize == 0 ? QString() : QLocale::c().toString(e.bodySize) + tr(" B");
    case Attempts:
        return QString::number(e.attempts);
    case WaitReason:
        if (e.waitReason.isEmpty())
            return {};
        return e.waiting ? e.waitReason : tr("(was) %1").arg(e.waitReason);
    case Events:
        return e.events.join(QStringLiteral("; "));
    case Breaker:
        return e.breaker;
    case SavedCopy:
        return e.savedCopyShown ? tr("yes") : tr("no");
    case Outcome:
        return e.outcome.isEmpty() ? tr("running") : e.outcome;
    }
    return {};
}

QVariant RequestLog::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Entry &e = m_entries.at(index.row());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return cell(e, index.column());
    if (role == Qt::TextAlignmentRole && (index.column() == BodySize || index.column() == Attempts))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RequestLog::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Started:
        return tr("Started");
    case Method:
        return tr("Method");
    case Url:
        return tr("URL");
    case IdempotencyKey:
        return tr("Idempotency-Key");
    case BodySize:
        return tr("Body");
    case Attempts:
        return tr("Attempts");
    case WaitReason:
        return tr("Wait reason");
    case Events:
        return tr("Delays and reasons");
    case Breaker:
        return tr("Breaker");
    case SavedCopy:
        return tr("Saved copy shown");
    case Outcome:
        return tr("Outcome");
    }
    return {};
}

QString RequestLog::toText(const QList<int> &rows) const
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < ColumnCount; ++c)
        header << headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    QList<int> which = rows;
    if (which.isEmpty()) {
        for (int r = 0; r < m_entries.size(); ++r)
            which << r;
    }
    for (int r : std::as_const(which)) {
        if (r < 0 || r >= m_entries.size())
            continue;
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells << cell(m_entries.at(r), c);
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}
