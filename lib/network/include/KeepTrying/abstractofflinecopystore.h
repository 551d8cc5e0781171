// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_ABSTRACTOFFLINECOPYSTORE_H
#define KEEPTRYING_ABSTRACTOFFLINECOPYSTORE_H

#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/offlinecopy.h>

#include <QtCore/QObject>

#include <optional>

namespace KeepTrying {

/*!
    Where a RetryingNetworkAccessManager keeps offline copies (see KeepTrying::OfflineCopy),
    as QAbstractNetworkCache is where a QNetworkAccessManager keeps its cache: the manager
    decides when a copy is looked up, offered, revalidated, stored or dropped; the store
    keeps them. Give one to the manager with
    RetryingNetworkAccessManager::setOfflineCopyStore(). KeepTrying::OfflineCopyStore
    (library KeepTrying::OfflineCopies) keeps them in SQLite; a test or an app with a store
    of its own implements this.

    Every call names the account (OfflineCopy::Settings::accountKey) and the URL the request
    asked for (after redirects, still that URL). A store never returns a copy stored under
    one account to a call for another; the empty key is an account of its own. How a URL
    becomes a key is the store's: it must at least drop user info and the fragment, so
    that credentials in a URL are never written down.

    The rules of RFC 9111 the store keeps, so that every store behaves as the manager
    expects:
    - store(): only a 2xx other than 206 is kept; hop-by-hop fields and Set-Cookie are not
      (§3.1); `Cache-Control: no-store` is not stored, and the older copy removed, unless
      the request says OfflineCopy::StoreDespiteNoStore (§5.2.2.5); `no-cache` and
      `must-revalidate` are stored and reported in the copy's flags; the copy's initial age
      is §4.2.3's corrected_initial_age from its Age and Date fields.
    - refresh() after a 304: the fields of the 304 replace the stored ones of the same name
      except Content-Length (§3.2), the time stored becomes now, the body stays; a 304
      whose ETag is not the copy's (weak comparison) leaves it alone (§4.3.4); a 304 that
      says no-store removes it.

    Units: sizes in bytes, ages in seconds, times in UTC.

    Threading: the manager calls every function on its own thread, one call at a time; the
    store must live in that thread. Nothing is called from inside another call.

    Errors: a store that cannot do what is asked logs why and answers as if there were no
    copy (lookup() returns none, store() Failed): requests then run as they would with no
    copy stored, never worse. Nothing here may block for long: each call runs on the
    thread of the manager, between the events of its replies.

    \\note Pure virtual: a later version may add functions, as Qt adds them to such
    interfaces, only with a new major version.
*/
class KEEPTRYING_NETWORK_EXPORT AbstractOfflineCopyStore : public QObject
{
    Q_OBJECT
public:
    /*! A header field: name, value. */
    using RawHeaderPair = OfflineCopy::Copy::RawHeaderPair;

    /*! What store() did. */
    enum class StoreResult {
        Stored, //!< Kept (replacing the account's older copy of the URL).
        NotStorable, //!< Not 2xx, or 206 (a part is not the whole).
        NoStore, //!< `Cache-Control: no-store` without the override; an older copy was removed.
        TooLarge, //!< The copy alone is larger than the store may keep.
        NoRoom, //!< Unpinned, and pinned copies leave no room for it.
        Failed //!< The store is not open or could not write (logged).
    };
    Q_ENUM(StoreResult)
    /*! What refresh() did. */
    enum class RefreshResult {
        Refreshed, //!< Headers and time updated.
        Missing, //!< No copy of the URL in this account.
        ValidatorMismatch, //!< The 304's ETag is not the copy's: not the copy validated.
        Removed, //!< The 304 says no-store (without the override): the copy was removed.
        Failed //!< The store is not open or could not write (logged).
    };
    Q_ENUM(RefreshResult)

    explicit AbstractOfflineCopyStore(QObject *parent = nullptr);
    ~AbstractOfflineCopyStore() override;

    /*! True while the store can keep and hand out copies. While false the manager neither
        looks copies up nor stores them. */
    virtual bool isOpen() const = 0;
    /*! Bytes one copy's body may have: the reply keeps at most this much of a response in
        memory to store it when it finishes; a larger one is not stored. */
    virtual qint64 maximumCopySize() const = 0;

    /*! The copy of \\a url in account \\a accountKey, or none (also when it is damaged or
        the store is closed). Counts as a use, for a store that evicts the least recently
        used. */
    virtual std::optional<OfflineCopy::Copy> lookup(const QString &accountKey, const QUrl &url) = 0;
    /*! True when account \\a accountKey has a copy of \\a url. Not a use. */
    virtual bool contains(const QString &accountKey, const QUrl &url) const = 0;
    /*! Keeps the response to a GET of \\a url (status, header fields, the whole decoded
        body) in account \\a accountKey, replacing the older copy. \\a pin pins it; a copy
        pinned before stays pinned. \\a overrides are the request's
        OfflineCopy::OverrideAttribute. */
    virtual StoreResult store(const QString &accountKey, const QUrl &url, int status,
                              const QList<RawHeaderPair> &headers, const QByteArray &body, bool pin,
                              OfflineCopy::Overrides overrides) = 0;
    /*! A 304 with header fields \\a headers answered the revalidation of the copy of \\a url
        in account \\a accountKey (see the class's RFC 9111 rules). */
    virtual RefreshResult refresh(const QString &accountKey, const QUrl &url,
                                  const QList<RawHeaderPair> &headers,
                                  OfflineCopy::Overrides overrides) = 0;
    /*! Pins or unpins the copy; false when there is none. */
    virtual bool setPinned(const QString &accountKey, const QUrl &url, bool pinned) = 0;
    /*! Removes the copy (a 404 or 410 said the resource is gone, or the app asked); false
        when there was none. */
    virtual bool remove(const QString &accountKey, const QUrl &url) = 0;
    /*! Removes every copy of account \\a accountKey. */
    virtual void clear(const QString &accountKey) = 0;
    /*! Bytes kept, all accounts; -1 when closed. */
    virtual qint64 size() const = 0;
    /*! Of size(), the bytes of pinned copies; -1 when closed. */
    virtual qint64 pinnedSize() const = 0;
};

} // namespace KeepTrying

#endif // KEEPTRYING_ABSTRACTOFFLINECOPYSTORE_H
