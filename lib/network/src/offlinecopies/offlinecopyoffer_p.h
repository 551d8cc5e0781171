// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_OFFLINECOPYOFFER_P_H
#define KEEPTRYING_OFFLINECOPYOFFER_P_H

#include <KeepTrying/abstractofflinecopystore.h>
#include <KeepTrying/offlinecopy.h>

#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

#include <memory>
#include <optional>

namespace KeepTrying {

/*
    One GET's offline copy (it opted in with OfflineCopy::ModeAttribute): the copy found
    when it started, whether it may be offered stale, the validators its attempts carry to
    revalidate it, and what is stored when the fresh answer has come.

    The reply owns it and says when: offer() once the request cannot be answered fresh soon
    (offline, waiting for connectivity or the breaker, or still running after offerAfterMs),
    revalidated() for a 304 to validators we added (the copy is then the answer, RFC 9111
    §4.3.4), keep() for a fresh 2xx. The store and the account are the manager's, which may
    go first or switch account meanwhile: every call takes both and does nothing without a
    store.
*/
class OfflineCopyOffer
{
public:
    // Null when the request did not opt in, is not a GET, or the manager keeps no copies.
    static std::unique_ptr<OfflineCopyOffer> forRequest(QNetworkAccessManager::Operation op,
                                                        const QNetworkRequest &request,
                                                        AbstractOfflineCopyStore *store,
                                                        const QString &accountKey);

    int offerAfterMs() const { return m_offerAfterMs; }
    void setOfferAfterMs(int ms) { m_offerAfterMs = ms; }
    // A copy exists that may be offered stale and has not been yet.
    bool mayOffer() const;
    // Marks it offered; its age in seconds now (RFC 9111 §4.2.3).
    qint64 offer();
    bool wasOffered() const { return m_offered; }
    const std::optional<OfflineCopy::Copy> &copy() const { return m_copy; }

    // Adds If-None-Match / If-Modified-Since for the stored copy to a first-hop attempt
    // (\a handedOver == 0) whose caller set no condition of its own.
    void addValidators(QNetworkRequest &attemptRequest, qint64 handedOver);
    // Whether the current attempt carries our validators: its 304 is the copy confirmed.
    bool revalidates() const { return m_validatorsAdded; }
    // The 304 \a response confirmed the copy: refreshes it in \a store and returns the
    // answer the caller gets (the copy with the 304's headers), or none when it could not
    // be confirmed (the store removed or lost it).
    std::optional<OfflineCopy::Copy> revalidated(AbstractOfflineCopyStore *store,
                                                 const QString &accountKey,
                                                 const QNetworkReply *response);
    // The copy cannot be what a 304 confirmed (another validator): it is set aside, and the
    // next attempt asks without conditions.
    void dropCopy() { m_copy.reset(); }
    // The fresh 2xx answer: \a headers and \a body as the caller got them (decoded). It is
    // stored under the URL the caller asked for (not a redirect's) and the account the
    // request started in: an answer that arrives after the app switched accounts is not
    // stored at all.
    void keep(AbstractOfflineCopyStore *store, const QString &accountKey, int status,
              const QList<QNetworkReply::RawHeaderPair> &headers, const QByteArray &body);
    // The final answer says the resource is gone (404, 410): its copy goes too.
    void gone(AbstractOfflineCopyStore *store, const QString &accountKey);

private:
    std::optional<OfflineCopy::Copy> m_copy;
    QUrl m_url;
    QString m_accountKey; // the manager's account when the request started
    OfflineCopy::Mode m_mode = OfflineCopy::Off;
    OfflineCopy::Overrides m_overrides;
    int m_offerAfterMs = 1000;
    bool m_offered = false;
    bool m_validatorsAdded = false;
};

} // namespace KeepTrying

#endif // KEEPTRYING_OFFLINECOPYOFFER_P_H
