// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_AUTHENTICATOR_P_H
#define KEEPTRYING_AUTHENTICATOR_P_H

#include <KeepTrying/authenticator.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QPointer>
#include <QtCore/QTimer>

#include <atomic>
#include <functional>

namespace KeepTrying {

class AuthenticatorPrivate
{
public:
    using Waiter = std::function<void(Authenticator::Result)>;

    struct Account
    {
        bool renewing = false;
        bool rejected = false;
        quint64 generation = 0;
        int failures = 0; // Unavailable in a row
        QTimer *retry = nullptr; // the next renew() after Unavailable (a child of q)
        // Requests waiting for the renewal: told once it ends Renewed or Rejected. The
        // context is the request's reply; a reply gone meanwhile is skipped.
        QList<QPair<QPointer<QObject>, Waiter>> waiters;
    };

    explicit AuthenticatorPrivate(Authenticator *q) : q_ptr(q) { ++live; }
    ~AuthenticatorPrivate() { --live; }

    // Authenticators in the process: while there are none, a request looks for none (its
    // attributes are not even read).
    static std::atomic<int> live;

    static AuthenticatorPrivate *get(Authenticator *a) { return a->d_func(); }
    static const AuthenticatorPrivate *get(const Authenticator *a) { return a->d_func(); }

    // The authenticator \a request names (AuthenticatorAttribute), else \a fallback.
    static Authenticator *of(const QNetworkRequest &request, Authenticator *fallback);

    // Calls \a waiter (from the event loop, in \a context) when the renewal of \a key
    // ends Renewed or Rejected.
    void wait(const QString &key, QObject *context, Waiter waiter);
    void start(const QString &key);
    const Account *account(const QString &key) const
    {
        const auto it = accounts.constFind(key);
        return it == accounts.cend() ? nullptr : &*it;
    }

    Authenticator *q_ptr;
    QHash<QString, Account> accounts;
    qint64 initialRetryMs = 1000;
    qint64 maximumRetryMs = 60000;
    Q_DECLARE_PUBLIC(Authenticator)
};

} // namespace KeepTrying

#endif // KEEPTRYING_AUTHENTICATOR_P_H
