// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SIGNINDIALOG_H
#define KEEPTRYING_READER_SIGNINDIALOG_H

#include <QtCore/QUrl>
#include <QtWidgets/QDialog>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

/*
    Sign in to a wallabag server: its address, the API client's id and secret (made in
    wallabag under API clients management), the user name and password. "Use the demo
    library" (the default while nothing else is set) reads the built-in demo server instead.
    A refusal (a wrong password) is shown in words under the fields, which keep what was
    typed. Where the secrets are kept is said plainly: the system keychain, or this session
    only.
*/
class SignInDialog : public QDialog
{
    Q_OBJECT

public:
    struct Account
    {
        bool demo = true;
        QUrl server;
        QString clientId;
        QString clientSecret;
        QString username;
        QString password;
    };

    explicit SignInDialog(QWidget *parent = nullptr);

    void setAccount(const Account &account);
    Account account() const;
    /*! Says where secrets are kept: \a sessionOnly true "only for this session". */
    void setStorageNote(bool sessionOnly);
    /*! Shows why the last sign-in failed (empty: nothing). */
    void setError(const QString &message);
    QString error() const;

private:
    void updateEnabled();

    QCheckBox *m_demo = nullptr;
    QLineEdit *m_server = nullptr;
    QLineEdit *m_clientId = nullptr;
    QLineEdit *m_clientSecret = nullptr;
    QLineEdit *m_username = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_storage = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_ok = nullptr;
};

#endif // KEEPTRYING_READER_SIGNINDIALOG_H
