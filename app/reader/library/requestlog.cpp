// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "requestlog.h"

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/redaction.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>
#include <KeepTrying/retryingreply.h>

#include <KeepTrying/giveupreason.h>

#include <QtCore/QLocale>
#include <QtCore/QMetaEnum>

#include <QtNetwork/QNetworkReply>

using KeepTrying::CircuitBreaker;
using KeepTrying::GiveUpReason;
using KeepTrying::RetryingNetworkAccessManager;
using KeepTrying::RetryingReply;
// Not WaitReason: that is a column of the log.
using Wait = KeepTrying::WaitReason;

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

template<typename Enum>
QString keyOf(Enum value)
{
    return QString::fromLatin1(QMetaEnum::fromType<Enum>().valueToKey(int(value)));
}

// The last failed attempt's fault, for developers: "HTTP 503", "ConnectionRefusedError".
QString faultOf(int httpStatus, QNetworkReply::NetworkError error)
{
    if (httpStatus > 0)
        return QStringLiteral("HTTP %1").arg(httpStatus);
    if (error != QNetworkReply::NoError)
        return keyOf(error);
    return {};
}

QString timeOf(const QDateTime &when)
{
    return when.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz"));
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
    // Why it waits, as the typed value: each wait that follows a failed attempt is an event.
    connect(
        manager, &RetryingNetworkAccessManager::waitReasonChanged, this,
        [this](QNetworkReply *reply, const Wait &reason) {
            const int row = rowOf(reply, true);
            Entry &e = m_entries[row];
            e.waiting = reason.isWaiting();
            if (!e.waiting) {
                changed(row);
                return;
            }
            const bool fresh = !(reason == e.waitReason);
            e.waitReason = reason;
            e.simulatedOffline = reason.kind() == Wait::Offline && m_manager->isSimulatedOffline();
            if (fresh && reason.hasFault()) {
                const qint64 ms = reason.remainingMs();
                e.events << (ms >= 0 ? tr("attempt %1: %2, %3 for %4 ms")
                                           .arg(e.attempts)
                                           .arg(faultOf(reason.httpStatus(), reason.networkError()),
                                                keyOf(reason.kind()))
                                           .arg(ms)
                                     : tr("attempt %1: %2, %3")
                                           .arg(e.attempts)
                                           .arg(faultOf(reason.httpStatus(), reason.networkError()),
                                                keyOf(reason.kind())));
            }
            e.breaker = breakerName(m_manager->circuitBreaker()->state(reply->url()));
            changed(row);
        });
    connect(manager, &RetryingNetworkAccessManager::waitingForConnectivity, this,
            [this](QNetworkReply *reply, bool waiting) {
                const int row = rowOf(reply, true);
                m_entries[row].events
                    << (waiting ? tr("waiting for connectivity") : tr("connectivity back"));
                changed(row);
            });
    connect(manager, &RetryingNetworkAccessManager::gaveUp, this, [this](QNetworkReply *reply) {
        const int row = rowOf(reply, true);
        const auto *retrying = qobject_cast<const RetryingReply *>(reply);
        const GiveUpReason why = retrying ? retrying->giveUpReason() : GiveUpReason();
        QString text = tr("stopped: %1, attempts: %2").arg(keyOf(why.kind())).arg(why.attempts());
        const QString fault = faultOf(why.httpStatus(), why.networkError());
        if (!fault.isEmpty())
            text += QStringLiteral(" (%1)").arg(fault);
        if (why.waitingFor() != Wait::None)
            text += tr(", waiting for %1").arg(keyOf(why.waitingFor()));
        m_entries[row].events << text;
        changed(row);
    });
}

QString RequestLog::describe(const Entry &e) const
{
    const Wait &r = e.waitReason;
    if (e.simulatedOffline)
        return tr("offline (simulated)");
    QStringList parts { keyOf(r.kind()) };
    if (r.until().isValid())
        parts << tr("until %1").arg(timeOf(r.until()));
    if (r.kind() == Wait::WindowFull)
        parts << tr("%1 ahead").arg(r.queuedBehind());
    const QString fault = faultOf(r.httpStatus(), r.networkError());
    if (!fault.isEmpty())
        parts << QStringLiteral("(%1)").arg(fault);
    return parts.join(QLatin1Char(' '));
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
        e.waitReason = retrying->waitReason();
        e.waiting = e.waitReason.isWaiting();
        e.simulatedOffline =
            e.waitReason.kind() == Wait::Offline && m_manager->isSimulatedOffline();
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
        if (!e.waitReason.isWaiting())
            return {};
        return e.waiting ? describe(e) : tr("(was) %1").arg(describe(e));
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
    // The wait's origin is the URL's: said in the tooltip, it leaves the cell its kind.
    if (role == Qt::ToolTipRole && index.column() == WaitReason && e.waitReason.isWaiting())
        return QString(cell(e, index.column()) + QLatin1Char(' ') +
                       e.waitReason.origin().toDisplayString());
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
