// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <KeepTrying/redaction.h>

#include <QtCore/QString>
#include <QtCore/QUrlQuery>

namespace KeepTrying {

namespace {

const char redactedQueryValue[] = "REDACTED";

// Replaces the values of credential parameters in a query (or a fragment shaped like one).
QString redactedQuery(const QString &encoded)
{
    QUrlQuery query(encoded);
    QList<QPair<QString, QString>> items = query.queryItems(QUrl::FullyEncoded);
    bool changed = false;
    for (auto &[name, value] : items) {
        if (isCredentialName(QUrl::fromPercentEncoding(name.toUtf8()))) {
            value = QLatin1String(redactedQueryValue);
            changed = true;
        }
    }
    if (!changed)
        return encoded;
    query.setQueryItems(items);
    return query.toString(QUrl::FullyEncoded);
}

} // namespace

bool isCredentialName(QStringView name)
{
    QString normal = name.trimmed().toString().toLower();
    normal.replace(QLatin1Char('_'), QLatin1Char('-')).replace(QLatin1Char('.'), QLatin1Char('-'));

    static const QLatin1String exact[] = {
        QLatin1String("authorization"), QLatin1String("proxy-authorization"),
        QLatin1String("cookie"),        QLatin1String("set-cookie"),
        QLatin1String("token"),         QLatin1String("access-token"),
        QLatin1String("key"),           QLatin1String("api-key"),
        QLatin1String("apikey"),        QLatin1String("password"),
        QLatin1String("passwd"),        QLatin1String("secret"),
        QLatin1String("signature"),     QLatin1String("sig"),
    };
    for (const QLatin1String &candidate : exact) {
        if (normal == candidate)
            return true;
    }
    // Not "-key" alone: Idempotency-Key and Sec-WebSocket-Key are no secrets.
    static const QLatin1String suffixes[] = {
        QLatin1String("-authorization"), QLatin1String("-token"),   QLatin1String("-secret"),
        QLatin1String("-password"),      QLatin1String("-passwd"),  QLatin1String("-signature"),
        QLatin1String("-credential"),    QLatin1String("-api-key"), QLatin1String("-apikey"),
    };
    for (const QLatin1String &suffix : suffixes) {
        if (normal.endsWith(suffix))
            return true;
    }
    return false;
}

bool isCredentialName(const QByteArray &name)
{
    return isCredentialName(QString::fromLatin1(name));
}

QByteArray redactedHeaderValue(const QByteArray &name, const QByteArray &value)
{
    if (isCredentialName(name))
        return QByteArrayLiteral("<redacted>");
    if (name.compare("location", Qt::CaseInsensitive) == 0 ||
        name.compare("content-location", Qt::CaseInsensitive) == 0) {
        const QUrl url = QUrl::fromEncoded(value.trimmed());
        if (url.isValid())
            return redactedUrl(url).toEncoded();
        // Not a URL we can take apart: its query may still hold a token.
        const qsizetype query = value.indexOf('?');
        return query < 0 ? value : value.left(query + 1) + redactedQueryValue;
    }
    return value;
}

QUrl redactedUrl(const QUrl &url)
{
    QUrl result = url.adjusted(QUrl::RemovePassword);
    if (result.hasQuery())
        result.setQuery(redactedQuery(result.query(QUrl::FullyEncoded)), QUrl::StrictMode);
    if (result.hasFragment() && result.fragment().contains(QLatin1Char('=')))
        result.setFragment(redactedQuery(result.fragment(QUrl::FullyEncoded)), QUrl::StrictMode);
    return result;
}

} // namespace KeepTrying
