// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "offlinecopyoffer_p.h"

#include <QtCore/QDateTime>

namespace KeepTrying {

std::unique_ptr<OfflineCopyOffer> OfflineCopyOffer::forRequest(QNetworkAccessManager::Operation op,
                                                               const QNetworkRequest &request,
                                                               AbstractOfflineCopyStore *store,
                                                               const QString &accountKey)
{
    if (op != QNetworkAccessManager::GetOperation || !store || !store->isOpen())
        return nullptr;
    const int mode = request.attribute(OfflineCopy::ModeAttribute).toInt();
    if (mode != OfflineCopy::Keep && mode != OfflineCopy::KeepPinned)
        return nullptr;
    // A part of a resource is not the resource.
    if (request.hasRawHeader("Range"))
        return nullptr;
    auto offer = std::make_unique<OfflineCopyOffer>();
    offer->m_url = request.url();
    offer->m_mode = OfflineCopy::Mode(mode);
    offer->m_overrides =
        OfflineCopy::Overrides(request.attribute(OfflineCopy::OverrideAttribute).toInt());
    offer->m_accountKey = accountKey;
    offer->m_copy = store->lookup(accountKey, offer->m_url);
    return offer;
}

bool OfflineCopyOffer::mayOffer() const
{
    if (m_offered || !m_copy)
        return false;
    // must-revalidate forbids serving it stale (RFC 9111 §5.2.2.2) unless the app says so.
    return !m_copy->mustRevalidate || m_overrides.testFlag(OfflineCopy::OfferDespiteMustRevalidate);
}

qint64 OfflineCopyOffer::offer()
{
    m_offered = true;
    return m_copy ? m_copy->ageSeconds(QDateTime::currentDateTimeUtc()) : 0;
}

void OfflineCopyOffer::addValidators(QNetworkRequest &attemptRequest, qint64 handedOver)
{
    m_validatorsAdded = false;
    if (!m_copy || handedOver > 0 || attemptRequest.url() != m_url)
        return;
    for (const char *condition :
         { "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range" }) {
        if (attemptRequest.hasRawHeader(condition))
            return; // the caller's own conditional request: its 304 is the caller's
    }
    const auto validators = m_copy->revalidationHeaders();
    for (const auto &[name, value] : validators)
        attemptRequest.setRawHeader(name, value);
    m_validatorsAdded = !validators.isEmpty();
}

std::optional<OfflineCopy::Copy> OfflineCopyOffer::revalidated(AbstractOfflineCopyStore *store,
                                                               const QString &accountKey,
                                                               const QNetworkReply *response)
{
    if (!store || !m_copy)
        return std::nullopt;
    if (accountKey != m_accountKey)
        return m_copy; // confirmed, but the manager is another account's now: not noted
    using RefreshResult = AbstractOfflineCopyStore::RefreshResult;
    const auto result =
        store->refresh(m_accountKey, m_url, response->rawHeaderPairs(), m_overrides);
    if (result == RefreshResult::Refreshed) {
        if (m_mode == OfflineCopy::KeepPinned && !m_copy->pinned)
            store->setPinned(m_accountKey, m_url, true);
        if (auto refreshed = store->lookup(m_accountKey, m_url))
            m_copy = std::move(refreshed);
        return m_copy;
    }
    if (result == RefreshResult::Failed || result == RefreshResult::Missing)
        return m_copy; // confirmed all the same; only the store could not note it
    return std::nullopt; // another copy was validated, or the server forbade keeping it
}

void OfflineCopyOffer::gone(AbstractOfflineCopyStore *store, const QString &accountKey)
{
    if (store && accountKey == m_accountKey)
        store->remove(m_accountKey, m_url);
}

void OfflineCopyOffer::keep(AbstractOfflineCopyStore *store, const QString &accountKey, int status,
                            const QList<QNetworkReply::RawHeaderPair> &headers,
                            const QByteArray &body)
{
    if (!store || accountKey != m_accountKey)
        return;
    // The body is stored as the caller got it: decoded, whole.
    QList<QNetworkReply::RawHeaderPair> kept;
    kept.reserve(headers.size());
    for (const auto &header : headers) {
        if (header.first.compare("Content-Encoding", Qt::CaseInsensitive) != 0 &&
            header.first.compare("Content-Length", Qt::CaseInsensitive) != 0)
            kept.append(header);
    }
    store->store(m_accountKey, m_url, status, kept, body, m_mode == OfflineCopy::KeepPinned,
                 m_overrides);
}

} // namespace KeepTrying
