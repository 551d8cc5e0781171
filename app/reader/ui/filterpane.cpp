// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "filterpane.h"

#include <QtCore/QLocale>
#include <QtGui/QPainter>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyledItemDelegate>

namespace {

constexpr int ViewRole = Qt::UserRole + 1;
constexpr int TagRole = Qt::UserRole + 2;
constexpr int CountRole = Qt::UserRole + 3;
constexpr int NoView = -1;

// Paints the count right-aligned and muted after the name.
class CountDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        size.setHeight(qMax(size.height(), option.fontMetrics.height() + 12));
        return size;
    }

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        opt.rect.adjust(10, 0, -10, 0);
        const QVariant count = index.data(CountRole);
        if (!count.isValid()) {
            QStyledItemDelegate::paint(painter, opt, index);
            return;
        }
        // The name ends, elided, before the count begins (a long tag never runs into it).
        initStyleOption(&opt, index);
        opt.text = FilterPane::fitName(opt.text, opt.fontMetrics, opt.rect.width(),
                                       QLocale().toString(count.toInt()));
        const QWidget *widget = option.widget;
        QStyle *style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
        painter->save();
        QColor muted = option.palette.color(
            option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text);
        muted.setAlpha(150);
        painter->setPen(muted);
        painter->drawText(opt.rect.adjusted(0, 0, -6, 0), Qt::AlignRight | Qt::AlignVCenter,
                          QLocale().toString(count.toInt()));
        painter->restore();
    }
};

} // namespace

FilterPane::FilterPane(LocalStore *store, QWidget *parent) : QListWidget(parent), m_store(store)
{
    setFrameShape(QFrame::NoFrame);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setAccessibleName(tr("Filters"));
    setItemDelegate(new CountDelegate(this));
    m_updateSoon.setSingleShot(true);
    m_updateSoon.setInterval(0);
    connect(&m_updateSoon, &QTimer::timeout, this, &FilterPane::updateCounts);
    // A refresh is one reset, with the list reloaded in the same turn of the event loop: the
    // counts follow in that same turn, or a screenshot (or a user's glance) taken then
    // shows zeros beside a full list. A burst of single changes (confirmations) is read
    // once, from the event loop.
    connect(store, &LocalStore::reset, this, &FilterPane::updateCounts);
    connect(store, &LocalStore::articleChanged, &m_updateSoon, qOverload<>(&QTimer::start));
    connect(this, &QListWidget::currentItemChanged, this,
            [this](QListWidgetItem *current) { chosen(current); });
    updateCounts();
}

void FilterPane::updateCounts()
{
    m_updateSoon.stop();
    m_updating = true;
    const LocalStore::Counts counts = m_store->counts();
    clear();
    const auto addView = [this](LocalStore::View view, const QString &name, int count) {
        auto *item = new QListWidgetItem(name, this);
        item->setData(ViewRole, int(view));
        item->setData(CountRole, count);
        // English has its singular spelled out: no English translation is loaded.
        item->setToolTip(count == 1 ? tr("%1: 1 article").arg(name)
                                    : tr("%1: %n articles", nullptr, count).arg(name));
        if (m_tag.isEmpty() && m_view == view)
            setCurrentItem(item);
    };
    addView(LocalStore::View::Unread, tr("Unread"), counts.unread);
    addView(LocalStore::View::Starred, tr("Starred"), counts.starred);
    addView(LocalStore::View::Archive, tr("Archive"), counts.archive);
    addView(LocalStore::View::All, tr("All"), counts.all);
    if (!counts.tags.isEmpty()) {
        auto *header = new QListWidgetItem(tr("Tags"), this);
        header->setFlags(Qt::NoItemFlags);
        QFont bold = header->font();
        bold.setBold(true);
        header->setFont(bold);
        header->setData(ViewRole, NoView);
    }
    for (const auto &[label, count] : counts.tags) {
        auto *item = new QListWidgetItem(QStringLiteral("# ") + label, this);
        item->setData(ViewRole, int(LocalStore::View::All));
        item->setData(CountRole, count);
        item->setData(TagRole, label);
        item->setToolTip(count == 1 ? tr("Tagged “%1”: 1 article").arg(label)
                                    : tr("Tagged “%1”: %n articles", nullptr, count).arg(label));
        if (m_tag == label)
            setCurrentItem(item);
    }
    m_updating = false;
    // A view lays new items out from a timer; do it now, or a grab in this same turn shows
    // an empty pane.
    doItemsLayout();
}

QString FilterPane::fitName(const QString &name, const QFontMetrics &metrics, int width,
                            const QString &count)
{
    // The item's own margins (about a character each side), the count and a gap before it.
    const int room = width - metrics.horizontalAdvance(count) - 6 -
        3 * metrics.horizontalAdvance(QLatin1Char(' ')) - 2 * metrics.averageCharWidth();
    return metrics.elidedText(name, Qt::ElideRight, qMax(0, room));
}

QList<QPair<QString, int>> FilterPane::shownCounts() const
{
    QList<QPair<QString, int>> shown;
    for (int row = 0; row < count(); ++row) {
        const QVariant n = item(row)->data(CountRole);
        // Laid out, so painted (or a scroll away): an item without a place is not shown.
        if (n.isValid() && !visualItemRect(item(row)).isEmpty())
            shown.append({ item(row)->text(), n.toInt() });
    }
    return shown;
}

void FilterPane::select(LocalStore::View view, const QString &tag)
{
    m_view = view;
    m_tag = tag;
    updateCounts();
}

void FilterPane::focusTags()
{
    for (int row = 0; row < count(); ++row) {
        if (!item(row)->data(TagRole).toString().isEmpty()) {
            setFocus(Qt::ShortcutFocusReason);
            setCurrentRow(row);
            return;
        }
    }
    setFocus(Qt::ShortcutFocusReason);
}

void FilterPane::chosen(QListWidgetItem *item)
{
    if (m_updating || !item || item->data(ViewRole).toInt() == NoView)
        return;
    m_view = LocalStore::View(item->data(ViewRole).toInt());
    m_tag = item->data(TagRole).toString();
    Q_EMIT filterChosen(m_view, m_tag);
}
