// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REDIRECTRULES_P_H
#define KEEPTRYING_REDIRECTRULES_P_H

#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

namespace KeepTrying {

// The rules a RetryingReply follows redirects by, so that a retry can go to the hop that
// failed: Qt's own when it follows a redirect (method, policy, limit), plus one Qt 6.4
// lacks: credentials never go to another origin.
namespace RedirectRules {

// True for the statuses that redirect a request: 301, 302, 303, 307, 308.
bool isRedirect(int status);

// The operation after a redirect: 307 and 308 keep it and the body (RFC 9110 §15.4.8,
// §15.4.9); 301, 302 and 303 turn everything but HEAD into a GET without a body, as Qt and
// browsers do (RFC 9110 §15.4.2–§15.4.4).
QNetworkAccessManager::Operation operationAfter(int status,
                                                QNetworkAccessManager::Operation operation);

// Scheme, host and port alike (RFC 6454 §4, default ports filled in).
bool isSameOrigin(const QUrl &a, const QUrl &b);

// NoError when \a policy lets a request go from \a from to \a to; else the error Qt gives
// for it, with a message in \a why.
QNetworkReply::NetworkError check(QNetworkRequest::RedirectPolicy policy, const QUrl &from,
                                  const QUrl &to, QString *why);

// Removes Authorization, Proxy-Authorization and Cookie: what a server must not learn
// from a request another origin redirected there (urllib3's rule; RFC 9110 §15.4 leaves
// it to the client).
void stripCredentials(QNetworkRequest &request);
// Whether the caller set credentials stripCredentials() would remove, or put some in the URL.
bool carriesCredentials(const QNetworkRequest &request);

// Removes what describes a body that a redirect dropped.
void stripBodyHeaders(QNetworkRequest &request);

} // namespace RedirectRules

} // namespace KeepTrying

#endif // KEEPTRYING_REDIRECTRULES_P_H
