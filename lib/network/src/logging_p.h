// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_LOGGING_P_H
#define KEEPTRYING_LOGGING_P_H

#include <KeepTrying/redaction.h>

#include <QtCore/QLoggingCategory>
#include <QtCore/QUrl>

namespace KeepTrying {

Q_DECLARE_LOGGING_CATEGORY(lcNetwork)
Q_DECLARE_LOGGING_CATEGORY(lcReachability)
Q_DECLARE_LOGGING_CATEGORY(lcBreaker)
Q_DECLARE_LOGGING_CATEGORY(lcBanner)

// URLs go into logs without user info or fragment, and with the values of credential query
// parameters replaced (redaction.h holds the rule, shared with keeptrying-fetch).
inline QString loggableUrl(const QUrl &url)
{
    return redactedUrl(url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveFragment)).toDisplayString();
}

} // namespace KeepTrying

#endif // KEEPTRYING_LOGGING_P_H
