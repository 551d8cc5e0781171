// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "developerwindow.h"

#include "library/requestlog.h"

#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QAction>
#include <QtGui/QClipboard>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

QList<DeveloperWindow::Preset> DeveloperWindow::presets()
{
    return {
        { tr("Flaky: 30 % answered 503"), QStringLiteral("route=/api/*,status=503,rate=0.3"), 0 },
        { tr("Slow: 2 s per answer"), QStringLiteral("route=/api/*,latency=2000"), 0 },
        { tr("Down for 10 s"), QString(), 10000 },
        { tr("Rate-limited: 429, Retry-After 5"),
          QStringLiteral("route=/api/*,status=429,retry-after=5,count=3"), 0 },
        { tr("Drop mid-body"), QStringLiteral("route=/api/entries*,drop=mid-body,count=2"), 0 },
    };
}

DeveloperWindow::DeveloperWindow(RequestLog *log, const MainWindow::DeveloperHooks &hooks,
                                 QAction *simulateOffline, QWidget *parent)
    : QDialog(parent), m_log(log), m_hooks(hooks)
{
    setWindowTitle(tr("Developer — Faults and Request Log"));
    setObjectName(QStringLiteral("developerWindow"));
    resize(1100, 640);
    auto *layout = new QVBoxLayout(this);

    // The same switch as the menu's, so QA need not leave this window to go offline.
    auto *networkRow = new QHBoxLayout;
    m_offlineBox = new QCheckBox(tr("Simulate offline"), this);
    m_offlineBox->setObjectName(QStringLiteral("simulateOfflineBox"));
    m_offlineBox->setToolTip(simulateOffline ? simulateOffline->statusTip() : QString());
    m_networkState = new QLabel(this);
    m_networkState->setObjectName(QStringLiteral("networkState"));
    networkRow->addWidget(m_offlineBox);
    networkRow->addWidget(m_networkState, 1);
    layout->addLayout(networkRow);
    if (simulateOffline) {
        if (!simulateOffline->shortcut().isEmpty())
            m_offlineBox->setText(
                tr("Simulate offline (%1)")
                    .arg(simulateOffline->shortcut().toString(QKeySequence::NativeText)));
        m_offlineBox->setChecked(simulateOffline->isChecked());
        connect(m_offlineBox, &QCheckBox::toggled, simulateOffline, &QAction::setChecked);
        connect(simulateOffline, &QAction::toggled, this, &DeveloperWindow::showOffline);
    } else {
        m_offlineBox->setEnabled(false);
    }
    showOffline(m_offlineBox->isChecked());

    auto *faults = new QGroupBox(tr("Faults of the built-in server"), this);
    auto *faultsLayout = new QVBoxLayout(faults);
    auto *presetRow = new QHBoxLayout;
    for (const Preset &preset : presets()) {
        auto *button = new QPushButton(preset.name, faults);
        m_faultControls << button;
        connect(button, &QPushButton::clicked, this, [this, preset] {
            if (preset.spec.isEmpty()) {
                if (m_hooks.goDown)
                    m_hooks.goDown(preset.downMs);
            } else {
                addSpec(preset.spec);
            }
            updateActive();
        });
        presetRow->addWidget(button);
    }
    presetRow->addStretch();
    faultsLayout->addLayout(presetRow);

    auto *specRow = new QHBoxLayout;
    m_spec = new QLineEdit(faults);
    m_spec->setObjectName(QStringLiteral("faultSpec"));
    m_spec->setPlaceholderText(
        QStringLiteral("route=/api/entries*,status=503,count=2,retry-after=1"));
    m_spec->setAccessibleName(tr("Fault spec"));
    m_faultControls << m_spec;
    m_add = new QPushButton(tr("Add Fault"), faults);
    m_add->setEnabled(false);
    specRow->addWidget(m_spec, 1);
    specRow->addWidget(m_add);
    faultsLayout->addLayout(specRow);
    m_specStatus = new QLabel(faults);
    m_specStatus->setWordWrap(true);
    faultsLayout->addWidget(m_specStatus);
    connect(m_spec, &QLineEdit::textChanged, this, &DeveloperWindow::validate);
    connect(m_spec, &QLineEdit::returnPressed, this, [this] { addSpec(m_spec->text()); });
    connect(m_add, &QPushButton::clicked, this, [this] { addSpec(m_spec->text()); });

    auto *activeRow = new QHBoxLayout;
    m_active = new QListWidget(faults);
    m_active->setObjectName(QStringLiteral("activeFaults"));
    m_active->setMaximumHeight(90);
    auto *clear = new QPushButton(tr("Clear Faults"), faults);
    m_faultControls << clear;
    connect(clear, &QPushButton::clicked, this, [this] {
        if (m_hooks.clearFaults)
            m_hooks.clearFaults();
        updateActive();
    });
    activeRow->addWidget(m_active, 1);
    activeRow->addWidget(clear, 0, Qt::AlignTop);
    faultsLayout->addWidget(new QLabel(tr("Active now:"), faults));
    faultsLayout->addLayout(activeRow);
    layout->addWidget(faults);
    updateFaultsEnabled();

    auto *logBox = new QGroupBox(tr("Requests"), this);
    auto *logLayout = new QVBoxLayout(logBox);
    auto *filterRow = new QHBoxLayout;
    m_filter = new QLineEdit(logBox);
    m_filter->setObjectName(QStringLiteral("logFilter"));
    m_filter->setPlaceholderText(tr("Filter: any text in any column (503, waiting, PATCH, …)"));
    m_filter->setClearButtonEnabled(true);
    auto *copy = new QPushButton(tr("Copy as Text"), logBox);
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(copy);
    logLayout->addLayout(filterRow);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(log);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    m_logView = new QTableView(logBox);
    m_logView->setObjectName(QStringLiteral("requestLog"));
    m_logView->setModel(m_proxy);
    m_logView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_logView->verticalHeader()->hide();
    m_logView->horizontalHeader()->setStretchLastSection(true);
    m_logView->setWordWrap(false);
    // A long URL keeps its host and its end (the query, the id): cut in the middle, and
    // whole in the tooltip and in Copy as Text.
    m_logView->setTextElideMode(Qt::ElideMiddle);
    m_logView->setColumnWidth(RequestLog::Started, 95);
    m_logView->setColumnWidth(RequestLog::Method, 60);
    m_logView->setColumnWidth(RequestLog::Url, 260);
    m_logView->setColumnWidth(RequestLog::IdempotencyKey, 110);
    m_logView->setColumnWidth(RequestLog::BodySize, 60);
    m_logView->setColumnWidth(RequestLog::Attempts, 65);
    // Wide enough for the typed reason a 503 storm gives: kind, end and fault.
    m_logView->setColumnWidth(RequestLog::WaitReason,
                              m_logView->fontMetrics().horizontalAdvance(QStringLiteral(
                                  "(was) RetryAfter until 00:00:00.000 (HTTP 503)")) +
                                  12);
    m_logView->setColumnWidth(RequestLog::Events, 200);
    m_logView->setColumnWidth(RequestLog::Breaker, 70);
    m_logView->setColumnWidth(RequestLog::SavedCopy, 90);
    connect(log, &QAbstractItemModel::rowsInserted, m_logView, &QTableView::scrollToBottom);
    logLayout->addWidget(m_logView, 1);
    layout->addWidget(logBox, 1);
    connect(copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(logText()); });

    m_poll.setInterval(1000);
    connect(&m_poll, &QTimer::timeout, this, &DeveloperWindow::updateActive);
    m_poll.start();
    updateActive();
}

void DeveloperWindow::showOffline(bool offline)
{
    if (m_offlineBox->isChecked() != offline)
        m_offlineBox->setChecked(offline);
    m_networkState->setText(offline ? tr("Now: offline (simulated); requests wait until this "
                                         "is switched off.")
                                    : tr("Now: using the network."));
}

QString DeveloperWindow::logText() const
{
    QList<int> rows;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        rows << m_proxy->mapToSource(m_proxy->index(r, 0)).row();
    return m_log->toText(rows);
}

void DeveloperWindow::validate()
{
    const QString spec = m_spec->text().trimmed();
    if (spec.isEmpty() || !m_hooks.validateFault) {
        m_add->setEnabled(false);
        m_specStatus->setText(tr("Keys: route, method, status, retry-after, latency, drop, count, "
                                 "rate."));
        return;
    }
    QString error;
    const bool ok = m_hooks.validateFault(spec, &error);
    m_add->setEnabled(ok);
    m_specStatus->setText(ok ? tr("Valid fault spec.") : tr("Not valid yet: %1").arg(error));
}

bool DeveloperWindow::addSpec(const QString &text)
{
    const QString spec = text.trimmed();
    QString error;
    if (spec.isEmpty() || !m_hooks.addFault || !m_hooks.addFault(spec, &error)) {
        // The text stays as typed, to be corrected.
        m_specStatus->setText(tr("Not added: %1").arg(error.isEmpty() ? tr("empty spec") : error));
        return false;
    }
    m_specStatus->setText(tr("Added: %1").arg(spec));
    updateActive();
    return true;
}

void DeveloperWindow::updateActive()
{
    QStringList items;
    if (m_hooks.isDown && m_hooks.isDown())
        items << tr("The server is down (connections refused)");
    if (m_hooks.faults)
        items << m_hooks.faults();
    if (items.isEmpty())
        items << tr("None: the server behaves.");
    QStringList shown;
    for (int i = 0; i < m_active->count(); ++i)
        shown << m_active->item(i)->text();
    if (shown != items) {
        m_active->clear();
        m_active->addItems(items);
    }
}

void DeveloperWindow::updateFaultsEnabled()
{
    const bool builtIn = bool(m_hooks.addFault) && (!m_hooks.isCurrent || m_hooks.isCurrent());
    const QString onlyBuiltIn = tr("These work only with the built-in demo server: choose the "
                                   "demo library in File ▸ Sign In to use them.");
    for (QWidget *control : std::as_const(m_faultControls)) {
        control->setEnabled(builtIn);
        control->setToolTip(builtIn ? QString() : onlyBuiltIn);
    }
    m_specStatus->setText(builtIn ? tr("Keys: route, method, status, retry-after, latency, drop, "
                                       "count, rate.")
                                  : onlyBuiltIn);
    if (!builtIn)
        m_add->setEnabled(false);
    else
        validate();
}
