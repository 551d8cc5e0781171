// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "tageditordialog.h"

#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QVBoxLayout>

TagEditorDialog::TagEditorDialog(const QString &title, const QStringList &tags, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Edit Tags"));
    setObjectName(QStringLiteral("tagEditor"));
    auto *layout = new QVBoxLayout(this);
    auto *heading = new QLabel(tr("Tags of “%1”").arg(title), this);
    heading->setWordWrap(true);
    layout->addWidget(heading);
    if (tags.isEmpty()) {
        auto *none = new QLabel(tr("No tags yet."), this);
        none->setForegroundRole(QPalette::PlaceholderText);
        layout->addWidget(none);
    } else {
        auto *hint = new QLabel(tr("Untick a tag to remove it."), this);
        hint->setForegroundRole(QPalette::PlaceholderText);
        layout->addWidget(hint);
    }
    for (const QString &tag : tags) {
        auto *box = new QCheckBox(tag, this);
        box->setObjectName(QStringLiteral("tag:") + tag);
        box->setChecked(true);
        box->setToolTip(tr("Untick to remove “%1” from this article").arg(tag));
        layout->addWidget(box);
        m_boxes << box;
    }
    auto *form = new QFormLayout;
    m_add = new QLineEdit(this);
    m_add->setObjectName(QStringLiteral("addTags"));
    m_add->setPlaceholderText(tr("New tags, separated by commas"));
    form->addRow(tr("&Add:"), m_add);
    layout->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    // Typing adds: the field to type into has the focus, empty.
    m_add->setFocus(Qt::OtherFocusReason);
    resize(qMax(360, sizeHint().width()), sizeHint().height());
}

QCheckBox *TagEditorDialog::tagBox(const QString &tag) const
{
    for (QCheckBox *box : m_boxes) {
        if (box->text() == tag)
            return box;
    }
    return nullptr;
}

QStringList TagEditorDialog::tags() const
{
    QStringList result;
    const auto add = [&result](const QString &tag) {
        const QString trimmed = tag.trimmed();
        if (!trimmed.isEmpty() && !result.contains(trimmed, Qt::CaseInsensitive))
            result << trimmed;
    };
    for (const QCheckBox *box : m_boxes) {
        if (box->isChecked())
            add(box->text());
    }
    const QStringList typed = m_add->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &tag : typed)
        add(tag);
    return result;
}
