#ifndef KEEPTRYING_LOGGING_P_H
#define KEEPTRYING_LOGGING_P_H

#include <QtCore/QLoggingCategory>
#include <QtCore/QUrl>

namespace KeepTrying {

Q_DECLARE_LOGGING_CATEGORY(lcNetwork)
Q_DECLARE_LOGGING_CATEGORY(lcReachability)
Q_DECLARE_LOGGING_CATEGORY(lcBreaker)

// URLs go into logs without user info or query: both may carry credentials or tokens.
inline QString loggableUrl(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment)
        .toDisplayString();
}

} // namespace KeepTrying

#endif // KEEPTRYING_LOGGING_P_H
