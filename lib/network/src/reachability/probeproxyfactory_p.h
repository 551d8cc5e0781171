// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_PROBEPROXYFACTORY_P_H
#define KEEPTRYING_PROBEPROXYFACTORY_P_H

#include <QtCore/QHash>
#include <QtNetwork/QNetworkProxyFactory>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace KeepTrying {

/*
    The proxies of Reachability's own probe manager: for each origin, the proxies the manager
    whose request failed would use for it (its proxy factory, its proxy, or the application's,
    in the order QNetworkAccessManager asks them), so that a probe goes the way the request
    went. An origin no manager has been named for gets the application's proxies.
*/
class ProbeProxyFactory final : public QNetworkProxyFactory
{
public:
    // The proxies \a manager uses for \a url, as QNetworkAccessManager picks them.
    static QList<QNetworkProxy> proxiesOf(const QNetworkAccessManager &manager, const QUrl &url);

    void setProxies(const QString &origin, const QList<QNetworkProxy> &proxies);
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query) override;

private:
    QHash<QString, QList<QNetworkProxy>> m_byOrigin;
};

} // namespace KeepTrying

#endif // KEEPTRYING_PROBEPROXYFACTORY_P_H
