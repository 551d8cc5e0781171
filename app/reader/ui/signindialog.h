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
    Pressing Sign In does not close the dialog: it emits accountSubmitted() and waits
    (fields disabled, "Signing in…") for its owner to try the account and either accept()
    it or call setError() with the refusal in words (a wrong password), which is shown
    under the fields, keeping what was typed. Where the secrets are kept is said plainly:
    the system keychain, or this session only.
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
    /*! A plain line above the fields (why the dialog opened); empty: none. */
    void setNotice(const QString &text);
    QString notice() const;
    /*! Shows why the last sign-in failed (empty: nothing), and lets the user edit and
        press Sign In again. */
    void setError(const QString &message);
    QString error() const;
    /*! The text that says where secrets are kept. */
    QString storageNote() const;
    /*! True between Sign In and the owner's answer. */
    bool isSigningIn() const { return m_signingIn; }

Q_SIGNALS:
    /*! Sign In was pressed with \a account; the dialog waits for accept() or setError(). */
    void accountSubmitted(const SignInDialog::Account &account);

private:
    void submit();
    void updateEnabled();

    QCheckBox *m_demo = nullptr;
    QLineEdit *m_server = nullptr;
    QLineEdit *m_clientId = nullptr;
    QLineEdit *m_clientSecret = nullptr;
    QLineEdit *m_username = nullptr;
    QLineEdit *m_password = nullptr;
    QLabel *m_notice = nullptr;
    QLabel *m_storage = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_ok = nullptr;
    bool m_signingIn = false;
};

#endif // KEEPTRYING_READER_SIGNINDIALOG_H
