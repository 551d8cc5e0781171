// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "preferencesdialog.h"

#include "library/localstore.h"

#include <KeepTrying/offlinecopy.h>
#include <KeepTrying/offlinecopystore.h>
#include <KeepTrying/retryingnetworkaccessmanager.h>

#include <QtCore/QLocale>
#include <QtCore/QSettings>
#include <QtNetwork/QNetworkProxyFactory>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QVBoxLayout>

namespace {

constexpr int DefaultBudgetMiB = 200;
constexpr int MinimumBudgetMiB = 16;
constexpr int MaximumBudgetMiB = 64 * 1024;
const char BudgetKey[] = "offline/budgetMiB";

} // namespace

PreferencesDialog::PreferencesDialog(KeepTrying::RetryingNetworkAccessManager *manager,
                                     LocalStore *store, QWidget *parent)
    : QDialog(parent), m_manager(manager), m_store(store)
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_budget = new QSpinBox(this);
    m_budget->setObjectName(QStringLiteral("offlineBudget"));
    m_budget->setRange(MinimumBudgetMiB, MaximumBudgetMiB);
    m_budget->setSuffix(tr(" MiB"));
    m_budget->setValue(int(offlineBudgetBytes() / (1024 * 1024)));
    m_budget->setToolTip(tr("Articles you opened and their pictures are always kept; pictures "
                            "of other saved articles and previews make room when this is full."));
    form->addRow(tr("Space for offline copies:"), m_budget);
    m_usage = new QLabel(this);
    m_usage->setObjectName(QStringLiteral("offlineUsage"));
    m_usage->setWordWrap(true);
    form->addRow(tr("In use now:"), m_usage);
    auto *connection = new QLabel(connectionDescription(m_manager, m_store->server()), this);
    connection->setObjectName(QStringLiteral("connectionInUse"));
    connection->setWordWrap(true);
    connection->setToolTip(
        tr("The reader uses your system's proxy settings: the desktop's, or the http_proxy, "
           "https_proxy and no_proxy environment variables. Addresses of this computer "
           "(localhost) are always reached directly."));
    form->addRow(tr("Connection:"), connection);
    layout->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    updateUsage();
}

qint64 PreferencesDialog::offlineBudgetBytes()
{
    const int mib = QSettings().value(QLatin1String(BudgetKey), DefaultBudgetMiB).toInt();
    return qint64(qBound(MinimumBudgetMiB, mib, MaximumBudgetMiB)) * 1024 * 1024;
}

QString PreferencesDialog::connectionDescription(const QNetworkAccessManager *manager,
                                                 const QUrl &server)
{
    // QNetworkAccessManager's own order (Qt 6.4): its factory, else its proxy unless that is
    // DefaultProxy, else the application's (the system's settings, see ReaderApp).
    const QNetworkProxyQuery query(server);
    QList<QNetworkProxy> proxies;
    bool fromSystem = false;
    if (QNetworkProxyFactory *factory = manager->proxyFactory()) {
        proxies = factory->queryProxy(query);
    } else if (manager->proxy().type() != QNetworkProxy::DefaultProxy) {
        proxies = { manager->proxy() };
    } else {
        proxies = QNetworkProxyFactory::proxyForQuery(query);
        fromSystem = QNetworkProxyFactory::usesSystemConfiguration();
    }
    const QNetworkProxy proxy = proxies.value(0, QNetworkProxy(QNetworkProxy::NoProxy));
    if (proxy.type() == QNetworkProxy::NoProxy || proxy.type() == QNetworkProxy::DefaultProxy)
        return tr("Direct connection");
    const QString host = proxy.hostName().contains(QLatin1Char(':'))
        ? QLatin1Char('[') + proxy.hostName() + QLatin1Char(']')
        : proxy.hostName();
    const QString where = QStringLiteral("%1:%2").arg(host).arg(proxy.port());
    const bool socks = proxy.type() == QNetworkProxy::Socks5Proxy;
    if (fromSystem)
        return socks ? tr("Through SOCKS proxy %1 (from your system settings)").arg(where)
                     : tr("Through proxy %1 (from your system settings)").arg(where);
    return socks ? tr("Through SOCKS proxy %1").arg(where) : tr("Through proxy %1").arg(where);
}

void PreferencesDialog::updateUsage()
{
    const QLocale locale;
    const qint64 copies = m_manager->offlineCopiesSize();
    const qint64 pinned = m_manager->pinnedOfflineCopiesSize();
    const qint64 text = m_store->contentBytes();
    if (copies < 0) {
        m_usage->setText(tr("Offline copies cannot be kept (the cache directory is not "
                            "usable). Saved article text: %1.")
                             .arg(locale.formattedDataSize(text)));
        return;
    }
    m_usage->setText(tr("%1 of offline copies, %2 of them for articles kept for reading "
                        "offline. Saved article text in your list: %3.")
                         .arg(locale.formattedDataSize(copies), locale.formattedDataSize(pinned),
                              locale.formattedDataSize(text)));
}

void PreferencesDialog::accept()
{
    QSettings().setValue(QLatin1String(BudgetKey), m_budget->value());
    // The budget is the SQLite store's (the manager's other settings are the account's).
    if (auto *copies = qobject_cast<KeepTrying::OfflineCopyStore *>(m_manager->offlineCopyStore()))
        copies->setMaximumSize(qint64(m_budget->value()) * 1024 * 1024);
    QDialog::accept();
}
