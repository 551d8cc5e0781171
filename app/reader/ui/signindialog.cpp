// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "signindialog.h"

#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

SignInDialog::SignInDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Sign In to wallabag"));
    setObjectName(QStringLiteral("signInDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("KeepTrying Reader reads the articles you saved with wallabag. "
                                "Create an API client in wallabag (Developer ▸ Create a new "
                                "client) for its client ID and secret."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("signInNotice"));
    m_notice->setWordWrap(true);
    m_notice->hide();
    layout->addWidget(m_notice);
    m_demo = new QCheckBox(tr("Use the demo library (a built-in server on this computer)"), this);
    layout->addWidget(m_demo);

    auto *form = new QFormLayout;
    m_server = new QLineEdit(this);
    m_server->setPlaceholderText(QStringLiteral("https://wallabag.example.org"));
    m_clientId = new QLineEdit(this);
    m_clientSecret = new QLineEdit(this);
    m_clientSecret->setEchoMode(QLineEdit::Password);
    m_username = new QLineEdit(this);
    m_password = new QLineEdit(this);
    m_password->setEchoMode(QLineEdit::Password);
    form->addRow(tr("&Server address:"), m_server);
    form->addRow(tr("Client &ID:"), m_clientId);
    form->addRow(tr("Client s&ecret:"), m_clientSecret);
    form->addRow(tr("&User name:"), m_username);
    form->addRow(tr("&Password:"), m_password);
    layout->addLayout(form);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("signInError"));
    m_error->setWordWrap(true);
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText,
                          palette().color(QPalette::Window).lightness() > 128
                              ? QColor(0xb3, 0x26, 0x1e)
                              : QColor(0xff, 0x8a, 0x80));
    m_error->setPalette(errorPalette);
    m_error->hide();
    layout->addWidget(m_error);
    m_storage = new QLabel(this);
    m_storage->setObjectName(QStringLiteral("storageNote"));
    m_storage->setWordWrap(true);
    m_storage->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_storage);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Sign In"));
    connect(buttons, &QDialogButtonBox::accepted, this, &SignInDialog::submit);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    for (QLineEdit *field : { m_server, m_clientId, m_clientSecret, m_username, m_password })
        connect(field, &QLineEdit::textChanged, this, &SignInDialog::updateEnabled);
    connect(m_demo, &QCheckBox::toggled, this, &SignInDialog::updateEnabled);
    m_demo->setChecked(true);
    setStorageNote(true);
    resize(520, sizeHint().height());
}

void SignInDialog::setAccount(const Account &account)
{
    m_demo->setChecked(account.demo);
    m_server->setText(account.server.toString());
    m_clientId->setText(account.clientId);
    m_clientSecret->setText(account.clientSecret);
    m_username->setText(account.username);
    m_password->setText(account.password);
    updateEnabled();
    // The first field still to fill has the focus.
    for (QLineEdit *field : { m_server, m_clientId, m_clientSecret, m_username, m_password }) {
        if (field->isEnabled() && field->text().isEmpty()) {
            field->setFocus(Qt::OtherFocusReason);
            break;
        }
    }
}

SignInDialog::Account SignInDialog::account() const
{
    Account a;
    a.demo = m_demo->isChecked();
    a.server = QUrl::fromUserInput(m_server->text().trimmed());
    a.clientId = m_clientId->text().trimmed();
    a.clientSecret = m_clientSecret->text();
    a.username = m_username->text().trimmed();
    a.password = m_password->text();
    return a;
}

void SignInDialog::setStorageNote(bool sessionOnly)
{
    m_storage->setText(sessionOnly ? tr("Saved for this session only: no keychain is available on "
                                        "this computer, so the secret and password are kept until "
                                        "the reader quits, never on disk.")
                                   : tr("The secret and password are kept in your system keychain, "
                                        "never in a plain file."));
}

void SignInDialog::setNotice(const QString &text)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

QString SignInDialog::notice() const
{
    return m_notice->text();
}

QString SignInDialog::storageNote() const
{
    return m_storage->text();
}

void SignInDialog::submit()
{
    if (m_signingIn)
        return;
    m_error->clear();
    m_error->hide();
    m_signingIn = true;
    m_ok->setText(tr("Signing In…"));
    updateEnabled();
    Q_EMIT accountSubmitted(account());
}

void SignInDialog::setError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
    m_signingIn = false;
    m_ok->setText(tr("Sign In"));
    updateEnabled();
}

QString SignInDialog::error() const
{
    return m_error->text();
}

void SignInDialog::updateEnabled()
{
    const bool own = !m_demo->isChecked();
    m_demo->setEnabled(!m_signingIn);
    for (QLineEdit *field : { m_server, m_clientId, m_clientSecret, m_username, m_password })
        field->setEnabled(own && !m_signingIn);
    const QUrl server = QUrl::fromUserInput(m_server->text().trimmed());
    const bool complete = server.isValid() && !server.host().isEmpty() &&
        (server.scheme() == QLatin1String("http") || server.scheme() == QLatin1String("https")) &&
        !m_clientId->text().trimmed().isEmpty() && !m_username->text().trimmed().isEmpty() &&
        !m_password->text().isEmpty();
    m_ok->setEnabled(!m_signingIn && (!own || complete));
}
