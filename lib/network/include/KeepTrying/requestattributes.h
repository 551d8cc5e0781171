// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REQUESTATTRIBUTES_H
#define KEEPTRYING_REQUESTATTRIBUTES_H

#include <QtNetwork/QNetworkRequest>

#include <array>
#include <cstddef>

namespace KeepTrying {

/*!
    Every QNetworkRequest attribute id KeepTrying reads or sets, in one place.

    Qt leaves QNetworkRequest::User to QNetworkRequest::UserMax to applications; KeepTrying
    takes QNetworkRequest::User + 0x4B54 ("KT") and the ids after it. The classes that read
    an attribute also name it (RetryingNetworkAccessManager::RetryPolicyAttribute,
    OfflineCopy::ModeAttribute, RetryBannerController::UserWaitingAttribute, …): those names
    are these values. A new attribute gets the next free id here and joins all(), so that
    the compile-time check below sees it; two parts of the library never share an id, and
    setting one attribute never changes what another part of the library reads.
*/
namespace RequestAttributes {

constexpr int FirstId = QNetworkRequest::User + 0x4B54;

/*! A RetryPolicy (QVariant::fromValue) that replaces the manager's for this request. */
constexpr auto RetryPolicy = QNetworkRequest::Attribute(FirstId + 0);
/*! A bool that replaces RetryPolicy::waitForConnectivity for this request. */
constexpr auto WaitForConnectivity = QNetworkRequest::Attribute(FirstId + 1);
/*! A bool: the request's credentials follow a redirect to another origin
    (RetryingNetworkAccessManager::KeepCredentialsOnRedirectAttribute). */
constexpr auto KeepCredentialsOnRedirect = QNetworkRequest::Attribute(FirstId + 2);
/*! An int holding an OfflineCopy::Mode: whether this GET keeps an offline copy. */
constexpr auto OfflineCopyMode = QNetworkRequest::Attribute(FirstId + 3);
/*! An int holding OfflineCopy::Overrides (request). */
constexpr auto OfflineCopyOverride = QNetworkRequest::Attribute(FirstId + 4);
/*! A bool on the reply: what it hands over is the stored copy (OfflineCopy). */
constexpr auto OfflineCopyIsStale = QNetworkRequest::Attribute(FirstId + 5);
/*! A QDateTime (UTC) on the reply: when the offered copy arrived (OfflineCopy). */
constexpr auto OfflineCopyStoredAt = QNetworkRequest::Attribute(FirstId + 6);
/*! A qint64 on the reply: the offered copy's age in seconds (OfflineCopy). */
constexpr auto OfflineCopyAge = QNetworkRequest::Attribute(FirstId + 7);
/*! A bool: the user is waiting for this request (RetryBannerController). Until 0.1 it had
    the id of OfflineCopyMode, so that marking a request opted it into offline copies. */
constexpr auto UserWaiting = QNetworkRequest::Attribute(FirstId + 8);
/*! A qint64, milliseconds (≥ 0; 0: none): replaces RetryPolicy::deadlineMs for this
    request, so one call site can bound its request without copying the whole policy. */
constexpr auto Deadline = QNetworkRequest::Attribute(FirstId + 9);
/*! A QObject * (an Authenticator, or null for none) that replaces the manager's
    authenticator for this request (Authenticator::AuthenticatorAttribute). */
constexpr auto Authenticator = QNetworkRequest::Attribute(FirstId + 10);

/*! Every id above, for the check below and for tests. */
constexpr std::array<QNetworkRequest::Attribute, 11> all()
{
    return { RetryPolicy,
             WaitForConnectivity,
             KeepCredentialsOnRedirect,
             OfflineCopyMode,
             OfflineCopyOverride,
             OfflineCopyIsStale,
             OfflineCopyStoredAt,
             OfflineCopyAge,
             UserWaiting,
             Deadline,
             Authenticator };
}

namespace Detail {
template<std::size_t N>
constexpr bool allDistinctAndUser(const std::array<QNetworkRequest::Attribute, N> &ids)
{
    for (std::size_t i = 0; i < N; ++i) {
        if (ids[i] < QNetworkRequest::User || ids[i] > QNetworkRequest::UserMax)
            return false;
        for (std::size_t j = i + 1; j < N; ++j) {
            if (ids[i] == ids[j])
                return false;
        }
    }
    return true;
}
} // namespace Detail

static_assert(Detail::allDistinctAndUser(all()),
              "two KeepTrying request attributes share an id, or one is outside Qt's user range");

} // namespace RequestAttributes
} // namespace KeepTrying

#endif // KEEPTRYING_REQUESTATTRIBUTES_H
