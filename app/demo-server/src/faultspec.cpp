// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "faultspec_p.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtCore/QSet>
#include <QtCore/QStringList>

#include <cmath>

namespace KeepTrying::Demo {

namespace {

constexpr int maxLatencyMs = 600000;

// '*' and '?' may cross '/': QRegularExpression::wildcardToRegularExpression() in Qt 6.4
// treats '/' as a path separator, which route globs such as /api/entries* must not.
QRegularExpression routeFromGlob(const QString &glob)
{
    QString pattern;
    for (const QChar c : glob) {
        if (c == QLatin1Char('*'))
            pattern += QLatin1String(".*");
        else if (c == QLatin1Char('?'))
            pattern += QLatin1Char('.');
        else
            pattern += QRegularExpression::escape(QString(c));
    }
    return QRegularExpression(QRegularExpression::anchoredPattern(pattern));
}

// RFC 9110 §10.2.3: delay-seconds or an HTTP-date in any of its three forms (§5.6.7). The
// day name is not checked: Qt reads a two-digit year as 19yy, whose weekdays differ.
bool isValidRetryAfter(const QString &value)
{
    static const QRegularExpression digits(QStringLiteral("^[0-9]+$"));
    static const QRegularExpression dayName(QStringLiteral("^[A-Za-z]{3,9}(,?) +(.*)$"));
    if (digits.match(value).hasMatch())
        return true;
    const QRegularExpressionMatch match = dayName.match(value);
    if (!match.hasMatch())
        return false;
    const QLocale c = QLocale::c();
    const QString rest = match.captured(2);
    if (match.capturedLength(1) == 0) // asctime: Sun Nov  6 08:49:37 1994
        return c.toDateTime(rest.simplified(), QStringLiteral("MMM d hh:mm:ss yyyy")).isValid();
    // IMF-fixdate (Sun, 06 Nov 1994 08:49:37 GMT) or RFC 850 (Sunday, 06-Nov-94 08:49:37 GMT)
    return c.toDateTime(rest, QStringLiteral("dd MMM yyyy hh:mm:ss 'GMT'")).isValid() ||
        c.toDateTime(rest, QStringLiteral("dd-MMM-yy hh:mm:ss 'GMT'")).isValid();
}

bool fail(QString *errorMessage, const QString &message)
{
    if (errorMessage)
        *errorMessage = message;
    return false;
}

} // namespace

std::optional<FaultSpec> FaultSpec::parse(const QString &spec, QString *errorMessage)
{
    const auto invalid = [&](const QString &message) -> std::optional<FaultSpec> {
        fail(errorMessage,
             QStringLiteral("invalid fault spec '") + spec + QStringLiteral("': ") + message);
        return std::nullopt;
    };

    if (spec.trimmed().isEmpty())
        return invalid(QStringLiteral("empty"));

    // Split on commas, but an HTTP-date has a comma of its own: a piece without '=' continues
    // the value before it.
    QList<QPair<QString, QString>> pairs;
    const QStringList pieces = spec.split(QLatin1Char(','));
    for (const QString &piece : pieces) {
        const qsizetype eq = piece.indexOf(QLatin1Char('='));
        if (eq < 0) {
            if (pairs.isEmpty() || pairs.constLast().first != QLatin1String("retry-after"))
                return invalid(QStringLiteral("expected key=value, got '") + piece.trimmed() +
                               QLatin1Char('\''));
            pairs.last().second += QLatin1Char(',') + piece;
            continue;
        }
        pairs.append({ piece.left(eq).trimmed().toLower(), piece.mid(eq + 1) });
    }
    FaultSpec fault;
    fault.text = spec.trimmed();
    fault.route = routeFromGlob(QStringLiteral("*"));
    QSet<QString> seen;
    for (const auto &[key, rawValue] : std::as_const(pairs)) {
        const QString value = rawValue.trimmed();
        if (seen.contains(key))
            return invalid(QStringLiteral("'") + key + QStringLiteral("' given twice"));
        seen.insert(key);
        if (value.isEmpty())
            return invalid(QStringLiteral("'") + key + QStringLiteral("' needs a value"));

        bool ok = false;
        if (key == QLatin1String("route")) {
            fault.route = routeFromGlob(value);
        } else if (key == QLatin1String("method")) {
            static const QRegularExpression token(QStringLiteral("^[A-Za-z]+$"));
            if (!token.match(value).hasMatch())
                return invalid(QStringLiteral("method must be a word such as GET"));
            fault.method = value.toUpper().toLatin1();
        } else if (key == QLatin1String("status")) {
            fault.status = value.toInt(&ok);
            if (!ok || fault.status < 200 || fault.status > 599)
                return invalid(QStringLiteral("status must be an HTTP status from 200 to 599"));
        } else if (key == QLatin1String("count")) {
            fault.remaining = value.toLongLong(&ok);
            if (!ok || fault.remaining < 1)
                return invalid(QStringLiteral("count must be a positive integer"));
        } else if (key == QLatin1String("rate")) {
            fault.rate = value.toDouble(&ok);
            if (!ok || !std::isfinite(fault.rate) || fault.rate < 0 || fault.rate > 1)
                return invalid(QStringLiteral("rate must be a probability from 0 to 1"));
        } else if (key == QLatin1String("retry-after")) {
            if (!isValidRetryAfter(value))
                return invalid(QStringLiteral("retry-after must be seconds or an HTTP-date"));
            fault.retryAfter = value.toLatin1();
        } else if (key == QLatin1String("latency")) {
            fault.latencyMs = value.toInt(&ok);
            if (!ok || fault.latencyMs < 0 || fault.latencyMs > maxLatencyMs)
                return invalid(QStringLiteral("latency must be milliseconds from 0 to ") +
                               QString::number(maxLatencyMs));
        } else if (key == QLatin1String("drop")) {
            if (value == QLatin1String("before-headers"))
                fault.drop = Drop::BeforeHeaders;
            else if (value == QLatin1String("mid-body"))
                fault.drop = Drop::MidBody;
            else
                return invalid(QStringLiteral("drop must be before-headers or mid-body"));
        } else {
            return invalid(QStringLiteral("unknown key '") + key +
                           QStringLiteral("' (known: route, method, status, count, rate, "
                                          "retry-after, latency, drop)"));
        }
    }

    if (fault.status != 0 && fault.drop != Drop::None)
        return invalid(QStringLiteral("status and drop exclude each other"));
    if (!fault.retryAfter.isEmpty() && fault.status == 0)
        return invalid(QStringLiteral("retry-after needs a status"));
    if (fault.status == 0 && fault.drop == Drop::None && !seen.contains(QStringLiteral("latency")))
        return invalid(QStringLiteral("nothing to inject: give status, drop or latency"));
    return fault;
}

bool FaultSpec::matches(const QByteArray &requestMethod, const QString &path) const
{
    return remaining != 0 && (method.isEmpty() || method == requestMethod) &&
        route.match(path).hasMatch();
}

QString FaultSpec::describe() const
{
    if (remaining < 0)
        return text;
    return text + QStringLiteral(" (") + QString::number(remaining) + QStringLiteral(" left)");
}

} // namespace KeepTrying::Demo
