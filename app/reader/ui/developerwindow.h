// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_DEVELOPERWINDOW_H
#define KEEPTRYING_READER_DEVELOPERWINDOW_H

#include "mainwindow.h"

#include <QtCore/QTimer>
#include <QtWidgets/QDialog>

QT_BEGIN_NAMESPACE
class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
QT_END_NAMESPACE

class RequestLog;

/*
    Developer ▸ Faults and Request Log, for QA: Simulate Offline (the menu action's twin, in
    step with it) and what the reader is now, fault presets for the built-in server, a
    free-form fault spec that is checked as it is typed (an invalid spec keeps its text and
    says what is wrong), the faults active now, and the live request log, filterable and
    copyable as text.
*/
class DeveloperWindow : public QDialog
{
    Q_OBJECT

public:
    /*! \a simulateOffline is Developer ▸ Simulate Offline: the window's check box follows
        it and sets it. */
    DeveloperWindow(RequestLog *log, const MainWindow::DeveloperHooks &hooks,
                    QAction *simulateOffline, QWidget *parent = nullptr);

    QCheckBox *simulateOfflineBox() const { return m_offlineBox; }
    QLabel *networkState() const { return m_networkState; }
    QLineEdit *specField() const { return m_spec; }
    QLabel *specStatus() const { return m_specStatus; }
    QListWidget *activeFaults() const { return m_active; }
    QTableView *logView() const { return m_logView; }
    QLineEdit *logFilter() const { return m_filter; }
    /*! The log's visible rows as text (what Copy as Text puts on the clipboard). */
    QString logText() const;
    /*! Adds \a spec as the Add button does; false with the reason shown when invalid. */
    bool addSpec(const QString &spec);

    struct Preset
    {
        QString name;
        QString spec; // empty: an outage (down for downMs)
        int downMs = 0;
    };
    static QList<Preset> presets();

    /*! Enables the fault controls only while the built-in demo server is the one read:
        elsewhere they would act on a server the reader is not using. */
    void updateFaultsEnabled();

private:
    void validate();
    void updateActive();
    void showOffline(bool offline);

    RequestLog *m_log;
    MainWindow::DeveloperHooks m_hooks;
    QCheckBox *m_offlineBox = nullptr;
    QLabel *m_networkState = nullptr;
    QLineEdit *m_spec = nullptr;
    QLabel *m_specStatus = nullptr;
    QList<QWidget *> m_faultControls; // enabled only for the built-in server
    QPushButton *m_add = nullptr;
    QListWidget *m_active = nullptr;
    QLineEdit *m_filter = nullptr;
    QTableView *m_logView = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTimer m_poll;
};

#endif // KEEPTRYING_READER_DEVELOPERWINDOW_H
