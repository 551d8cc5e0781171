// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_PREFERENCESDIALOG_H
#define KEEPTRYING_READER_PREFERENCESDIALOG_H

#include <QtWidgets/QDialog>

class LocalStore;
class QLabel;
class QNetworkAccessManager;
class QUrl;
class QSpinBox;

namespace KeepTrying {
class RetryingNetworkAccessManager;
}

/*
    File ▸ Preferences: how much disk the offline copies (articles and their pictures) may
    take, with what they and the saved list take now. Applied to the manager on OK and kept
    in the settings ("offline/budgetMiB"). Also says how the reader reaches the server:
    directly or through which proxy of the system's settings.
*/
class PreferencesDialog : public QDialog
{
    Q_OBJECT

public:
    PreferencesDialog(KeepTrying::RetryingNetworkAccessManager *manager, LocalStore *store,
                      QWidget *parent = nullptr);

    /*! The budget from the settings, in bytes (default 200 MiB, at least 16 MiB). */
    static qint64 offlineBudgetBytes();

    /*! How \a manager reaches \a server, in words: "Direct connection", or "Through proxy
        host:port (from your system settings)". The proxy is the one QNetworkAccessManager
        picks: the manager's factory, else its proxy, else the application's. */
    static QString connectionDescription(const QNetworkAccessManager *manager, const QUrl &server);

    void accept() override;

private:
    void updateUsage();

    KeepTrying::RetryingNetworkAccessManager *m_manager;
    LocalStore *m_store;
    QSpinBox *m_budget;
    QLabel *m_usage;
};

#endif // KEEPTRYING_READER_PREFERENCESDIALOG_H
