// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "redirectrules_p.h"

#include <QtCore/QCoreApplication>

namespace KeepTrying::RedirectRules {

bool isRedirect(int status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

QNetworkAccessManager::Operation operationAfter(int status,
                                                QNetworkAccessManager::Operation operation)
{
    if (status == 307 || status == 308 || operation == QNetworkAccessManager::HeadOperation)
        return operation;
    return QNetworkAccessManager::GetOperation;
}

static int portOf(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    return url.port(scheme == QLatin1String("https")      ? 443
                        : scheme == QLatin1String("http") ? 80
                                                          : -1);
}

bool isSameOrigin(const QUrl &a, const QUrl &b)
{
    return a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0 &&
        a.host().compare(b.host(), Qt::CaseInsensitive) == 0 && portOf(a) == portOf(b);
}

QNetworkReply::NetworkError check(QNetworkRequest::RedirectPolicy policy, const QUrl &from,
                                  const QUrl &to, QString *why)
{
    const QString scheme = to.scheme().toLower();
    if (!to.isValid() || to.host().isEmpty() ||
        (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
        *why = QCoreApplication::translate("RetryingReply", "Unsupported redirect to %1")
                   .arg(to.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery));
        return QNetworkReply::ProtocolUnknownError;
    }
    const bool downgrade =
        from.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0 &&
        scheme == QLatin1String("http");
    if ((policy == QNetworkRequest::NoLessSafeRedirectPolicy && downgrade) ||
        (policy == QNetworkRequest::SameOriginRedirectPolicy && !isSameOrigin(from, to))) {
        *why = QCoreApplication::translate("RetryingReply", "Insecure redirect to %1")
                   .arg(to.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery));
        return QNetworkReply::InsecureRedirectError;
    }
    return QNetworkReply::NoError;
}

void stripCredentials(QNetworkRequest &request)
{
    for (const char *name : { "Authorization", "Proxy-Authorization", "Cookie" }) {
        const QByteArray header(name);
        if (request.hasRawHeader(header))
            request.setRawHeader(header, QByteArray());
    }
    request.setHeader(QNetworkRequest::CookieHeader, QVariant());
}

bool carriesCredentials(const QNetworkRequest &request)
{
    // One pass over the caller's headers (most requests have none or a few).
    const QList<QByteArray> names = request.rawHeaderList();
    for (const QByteArray &name : names) {
        for (const char *credential : { "Authorization", "Proxy-Authorization", "Cookie" }) {
            if (name.compare(credential, Qt::CaseInsensitive) == 0)
                return true;
        }
    }
    return !request.url().userName().isEmpty() || !request.url().password().isEmpty();
}

void stripBodyHeaders(QNetworkRequest &request)
{
    request.setHeader(QNetworkRequest::ContentTypeHeader, QVariant());
    request.setHeader(QNetworkRequest::ContentLengthHeader, QVariant());
    for (const char *name :
         { "Content-Encoding", "Content-Language", "Content-Location", "Idempotency-Key" }) {
        const QByteArray header(name);
        if (request.hasRawHeader(header))
            request.setRawHeader(header, QByteArray());
    }
}

} // namespace KeepTrying::RedirectRules
