// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "probeproxyfactory_p.h"

#include <KeepTrying/reachability.h>

#include <QtNetwork/QNetworkAccessManager>

namespace KeepTrying {

QList<QNetworkProxy> ProbeProxyFactory::proxiesOf(const QNetworkAccessManager &manager,
                                                  const QUrl &url)
{
    // QNetworkAccessManager's own order (Qt 6.4, QNetworkAccessManagerPrivate::queryProxy):
    // its factory, else its proxy unless that is DefaultProxy, else the application's.
    const QNetworkProxyQuery query(url);
    if (QNetworkProxyFactory *factory = manager.proxyFactory()) {
        const QList<QNetworkProxy> proxies = factory->queryProxy(query);
        return proxies.isEmpty() ? QList<QNetworkProxy> { QNetworkProxy::NoProxy } : proxies;
    }
    if (manager.proxy().type() != QNetworkProxy::DefaultProxy)
        return { manager.proxy() };
    return QNetworkProxyFactory::proxyForQuery(query);
}

void ProbeProxyFactory::setProxies(const QString &origin, const QList<QNetworkProxy> &proxies)
{
    m_byOrigin.insert(origin, proxies);
}

QList<QNetworkProxy> ProbeProxyFactory::queryProxy(const QNetworkProxyQuery &query)
{
    const auto it = m_byOrigin.constFind(Reachability::originOf(query.url()));
    if (it != m_byOrigin.cend())
        return *it;
    return QNetworkProxyFactory::proxyForQuery(query);
}

} // namespace KeepTrying
