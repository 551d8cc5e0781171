// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "fetchproxy.h"

#include <QtNetwork/QHostAddress>

namespace {

// curl's default port for every kind of proxy.
constexpr int defaultProxyPort = 1080;

QString hostForDisplay(const QNetworkProxy &proxy)
{
    const QString host = proxy.hostName().contains(QLatin1Char(':'))
        ? QLatin1Char('[') + proxy.hostName() + QLatin1Char(']')
        : proxy.hostName();
    return host + QLatin1Char(':') + QString::number(proxy.port());
}

} // namespace

FetchProxyFactory::FetchProxyFactory(const QString &explicitProxy, bool hasNoProxy,
                                     const QString &noProxy)
{
    if (!explicitProxy.isEmpty())
        m_explicit = read(QStringLiteral("-x"), explicitProxy);
    // As curl: http_proxy in lower case only, the others in either case, lower case first.
    m_http = fromEnvironment("http_proxy", nullptr);
    m_https = fromEnvironment("https_proxy", "HTTPS_PROXY");
    m_all = fromEnvironment("all_proxy", "ALL_PROXY");
    // HTTP_PROXY is not used, but set it says the environment decides, as with curl.
    m_environmentDecides = m_http || m_https || m_all || !qEnvironmentVariableIsEmpty("HTTP_PROXY");
    if (hasNoProxy) {
        m_noProxy = qMakePair(QStringLiteral("--noproxy"), noProxy);
    } else {
        for (const char *name : { "no_proxy", "NO_PROXY" }) {
            if (qEnvironmentVariableIsSet(name)) {
                m_noProxy = qMakePair(QString::fromLatin1(name), qEnvironmentVariable(name));
                break;
            }
        }
    }
}

std::optional<FetchProxyFactory::Setting> FetchProxyFactory::fromEnvironment(const char *lower,
                                                                             const char *upper)
{
    for (const char *name : { lower, upper }) {
        if (name && !qEnvironmentVariableIsEmpty(name))
            return read(QString::fromLatin1(name), qEnvironmentVariable(name));
    }
    return std::nullopt;
}

std::optional<FetchProxyFactory::Setting> FetchProxyFactory::read(const QString &source,
                                                                  const QString &text)
{
    Setting setting;
    setting.source = source;
    setting.text = text;
    parseProxyUrl(text, &setting.proxy, &setting.error);
    return setting;
}

bool FetchProxyFactory::isValid(QString *error) const
{
    for (const auto *setting : { &m_explicit, &m_http, &m_https, &m_all }) {
        if (*setting && !(*setting)->error.isEmpty()) {
            *error = QStringLiteral("bad proxy '%1' (%2): %3")
                         .arg((*setting)->text, (*setting)->source, (*setting)->error);
            return false;
        }
    }
    return true;
}

bool FetchProxyFactory::parseProxyUrl(const QString &text, QNetworkProxy *proxy, QString *error)
{
    QString withScheme = text.trimmed();
    if (!withScheme.contains(QLatin1String("://")))
        withScheme.prepend(QLatin1String("http://"));
    const QUrl url(withScheme, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty()) {
        *error = QStringLiteral("not a proxy URL (http://host:port)");
        return false;
    }
    if (scheme == QLatin1String("http")) {
        *proxy = QNetworkProxy(QNetworkProxy::HttpProxy);
    } else if (scheme == QLatin1String("socks5") || scheme == QLatin1String("socks5h")) {
        *proxy = QNetworkProxy(QNetworkProxy::Socks5Proxy);
        // socks5: this side resolves the name; socks5h: the proxy does.
        if (scheme == QLatin1String("socks5"))
            proxy->setCapabilities(proxy->capabilities() &
                                   ~QNetworkProxy::HostNameLookupCapability);
    } else {
        *error = QStringLiteral("unsupported proxy scheme '%1' (http, socks5 and socks5h are)")
                     .arg(url.scheme());
        return false;
    }
    proxy->setHostName(url.host());
    proxy->setPort(quint16(url.port(defaultProxyPort)));
    proxy->setUser(url.userName(QUrl::FullyDecoded));
    proxy->setPassword(url.password(QUrl::FullyDecoded));
    return true;
}

bool FetchProxyFactory::noProxyMatches(const QString &list, const QString &host)
{
    const QString name = host.toLower();
    const bool hostIsAddress = !QHostAddress(name).isNull();
    const QStringList entries = list.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString entry : entries) {
        entry = entry.trimmed().toLower();
        if (entry == QLatin1String("*"))
            return true;
        if (entry.startsWith(QLatin1Char('.')))
            entry.remove(0, 1);
        if (entry.startsWith(QLatin1Char('[')) && entry.endsWith(QLatin1Char(']')))
            entry = entry.mid(1, entry.size() - 2);
        if (entry.isEmpty())
            continue;
        if (name == entry)
            return true;
        // A name also covers its subdomains; an address only itself.
        if (!hostIsAddress && name.endsWith(QLatin1Char('.') + entry))
            return true;
    }
    return false;
}

FetchProxyFactory::Choice FetchProxyFactory::choose(const QUrl &url) const
{
    if (m_noProxy && noProxyMatches(m_noProxy->second, url.host()))
        return { QNetworkProxy(QNetworkProxy::NoProxy), m_noProxy->first };
    if (m_explicit)
        return { m_explicit->proxy, m_explicit->source };
    const QString scheme = url.scheme().toLower();
    const std::optional<Setting> &forScheme = scheme == QLatin1String("http") ? m_http
        : scheme == QLatin1String("https")                                    ? m_https
                                                                              : m_all;
    if (forScheme)
        return { forScheme->proxy, forScheme->source };
    if (m_all)
        return { m_all->proxy, m_all->source };
    if (m_environmentDecides)
        return { QNetworkProxy(QNetworkProxy::NoProxy), QStringLiteral("environment") };
    // The application's choice: the system's settings once main() asked for them. Through
    // proxyForQuery(), which sends loopback and localhost direct whatever the system says.
    const QList<QNetworkProxy> system = proxyForQuery(QNetworkProxyQuery(url));
    return { system.value(0, QNetworkProxy(QNetworkProxy::NoProxy)),
             usesSystemConfiguration() ? QStringLiteral("system settings")
                                       : QStringLiteral("application settings") };
}

QString FetchProxyFactory::describe(const Choice &choice)
{
    if (choice.proxy.type() == QNetworkProxy::NoProxy ||
        choice.proxy.type() == QNetworkProxy::DefaultProxy)
        return QStringLiteral("direct (%1)").arg(choice.source);
    return QStringLiteral("through ") + describeProxy(choice);
}

QString FetchProxyFactory::describeProxy(const Choice &choice)
{
    const QString kind =
        choice.proxy.type() == QNetworkProxy::Socks5Proxy ? QStringLiteral("SOCKS5 ") : QString();
    return QStringLiteral("the %1proxy %2 (from %3)")
        .arg(kind, hostForDisplay(choice.proxy), choice.source);
}

QList<QNetworkProxy> FetchProxyFactory::queryProxy(const QNetworkProxyQuery &query)
{
    if (query.queryType() != QNetworkProxyQuery::UrlRequest)
        return { QNetworkProxy(QNetworkProxy::NoProxy) };
    return { choose(query.url()).proxy };
}
