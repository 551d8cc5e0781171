// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_FETCH_FETCHPROXY_H
#define KEEPTRYING_FETCH_FETCHPROXY_H

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkProxy>
#include <QtNetwork/QNetworkProxyFactory>

#include <optional>

/*!
    Which proxy keeptrying-fetch uses, chosen as curl chooses it (curl(1), "ENVIRONMENT",
    -x, --noproxy), so that a script that works with curl works with us:

    \list 1
    \li --noproxy LIST, else the no_proxy (or NO_PROXY) variable: a host it names goes
        direct. The list is comma-separated; "*" alone names every host; an entry names a
        host and its subdomains ("example.com" and ".example.com" both match
        www.example.com); IP addresses match as written.
    \li -x URL: that proxy, whatever the environment says.
    \li The environment, as curl reads it: http_proxy (lower case only, as curl: HTTP_PROXY
        can be set by a CGI request's Proxy header) for http, https_proxy or HTTPS_PROXY for
        https, else all_proxy or ALL_PROXY. When any of these is set, the environment
        decides: a URL none of them is for goes direct.
        HTTP_PROXY set alone also makes the environment decide (everything direct).
    \li Otherwise the application's proxy settings: keeptrying-fetch's main() asks for the
        system's (QNetworkProxyFactory::setUseSystemConfiguration(): the desktop's on
        Windows, macOS, GNOME and KDE). Qt sends loopback and localhost direct there.
    \endlist

    A proxy URL is http://[user:password@]host[:port] or socks5://, socks5h:// (the proxy
    resolves the name); a URL without a scheme is http, without a port 1080, as curl's.
    Given to the manager as its proxy factory, it also routes the manager's reachability
    probes, which ask the manager's factory.
*/
class FetchProxyFactory : public QNetworkProxyFactory
{
public:
    struct Choice
    {
        QNetworkProxy proxy { QNetworkProxy::NoProxy };
        QString source; //!< "-x", "http_proxy", "--noproxy", "system settings", …
    };

    /*! Reads the environment now. \a explicitProxy is -x (empty: none); \a noProxy is
        --noproxy when \a hasNoProxy. */
    FetchProxyFactory(const QString &explicitProxy, bool hasNoProxy, const QString &noProxy);

    /*! False with \a error set when -x or a proxy variable of the environment cannot be used
        (an unsupported scheme, no host). */
    bool isValid(QString *error) const;

    /*! The proxy for \a url and where that choice came from. */
    Choice choose(const QUrl &url) const;
    /*! In words, for -v and error messages: "direct (no_proxy)", "through the proxy
        127.0.0.1:3128 (from http_proxy)". */
    static QString describe(const Choice &choice);
    /*! "the proxy 127.0.0.1:3128 (from http_proxy)"; for a proxy only. */
    static QString describeProxy(const Choice &choice);

    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query) override;

    /*! Parses a proxy URL as curl does (see the class comment). */
    static bool parseProxyUrl(const QString &text, QNetworkProxy *proxy, QString *error);
    /*! Whether the no-proxy \a list names \a host (curl's rules, see the class comment). */
    static bool noProxyMatches(const QString &list, const QString &host);

private:
    struct Setting
    {
        QString source;
        QString text;
        QNetworkProxy proxy;
        QString error;
    };
    static std::optional<Setting> read(const QString &source, const QString &text);
    static std::optional<Setting> fromEnvironment(const char *lower, const char *upper);

    std::optional<Setting> m_explicit;
    std::optional<Setting> m_http;
    std::optional<Setting> m_https;
    std::optional<Setting> m_all;
    std::optional<QPair<QString, QString>> m_noProxy; // source, list
    bool m_environmentDecides = false;
};

#endif // KEEPTRYING_FETCH_FETCHPROXY_H
