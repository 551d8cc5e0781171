// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REACHABILITY_H
#define KEEPTRYING_REACHABILITY_H

#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/reachabilitybackend.h>

#include <QtCore/QObject>
#include <QtCore/QUrl>

#include <memory>

namespace KeepTrying {

class ReachabilityPrivate;

/*!
    Knows whether the network, and each origin (scheme, host, port) requests go to, can be
    reached, so that RetryingNetworkAccessManager can park requests instead of spending
    attempts while they cannot succeed, and send them the moment they can.

    It combines three sources:
    \list
    \li a backend: QNetworkInformation by default (the platform's default backend, else one
        with the Reachability feature); none loads on many Linux machines, and then the
        state stays Unknown;
    \li active probing: after reportFailure() for an origin, one probe stream per origin
        (HEAD of the origin's root, or setProbeUrl()) with its own backoff, however many
        requests wait for it; any HTTP response proves the origin reachable, as does
        reportSuccess() from a real request;
    \li simulated offline mode for QA: setSimulatedOffline() or KEEPTRYING_SIMULATE_OFFLINE=1.
    \endlist

    One Reachability serves one manager by default; managers may share one
    (RetryingNetworkAccessManager::setReachability()). It lives in one thread.
*/
class KEEPTRYING_NETWORK_EXPORT Reachability : public QObject
{
    Q_OBJECT
    Q_PROPERTY(KeepTrying::ReachabilityBackend::State state READ state NOTIFY stateChanged)
    Q_PROPERTY(
        bool behindCaptivePortal READ isBehindCaptivePortal NOTIFY behindCaptivePortalChanged)
    Q_PROPERTY(bool simulatedOffline READ isSimulatedOffline WRITE setSimulatedOffline NOTIFY
                   simulatedOfflineChanged)

public:
    using State = ReachabilityBackend::State;

    /*! Loads the QNetworkInformation backend (logged once, with its name or its absence)
        and reads KEEPTRYING_SIMULATE_OFFLINE. */
    explicit Reachability(QObject *parent = nullptr);
    ~Reachability() override;

    /*! Replaces the backend; Reachability does not take ownership. nullptr means none
        (state Unknown unless simulated offline). */
    void setBackend(ReachabilityBackend *backend);
    /*! The backend's name, or an empty string when there is none. */
    QString backendName() const;

    /*! Offline when simulated offline or the backend says so; Online when the backend says
        so; otherwise Unknown. */
    State state() const;
    bool isBehindCaptivePortal() const;
    bool isSimulatedOffline() const;
    void setSimulatedOffline(bool offline);

    /*! The origin key of \a url: "scheme://host:port" with the default port filled in. */
    static QString originOf(const QUrl &url);

    /*! False while the origin of \a url is known to be unreachable, or the network is
        offline (state()) and no probe has shown this origin answering since; true otherwise,
        also when nothing is known. */
    bool isReachable(const QUrl &url) const;
    /*! The same, by origin key (originOf()). */
    bool isReachable(const QString &origin) const;
    /*! A request to \a url met a connectivity fault: its origin counts as unreachable
        until a probe or a request gets a response, and probing starts. */
    void reportFailure(const QUrl &url);
    /*! A request to \a url got an HTTP response (any status): its origin is reachable. */
    void reportSuccess(const QUrl &url);
    void reportSuccess(const QString &origin);

    /*! A request to \a url waits for connectivity. When only the backend's Offline keeps it
        waiting, its origin is probed once that Offline has lasted backendOfflineGraceMs:
        backends can be wrong (a link with no default route reads "disconnected" while a
        server on it answers), and a probe that gets an answer lets the origin's requests go.
        Nothing is probed in simulated offline mode. */
    void watch(const QUrl &url);
    /*! How long the backend's Offline is believed without checking, in milliseconds
        (default 3000). */
    void setBackendOfflineGrace(qint64 graceMs);

    /*! Probes \a origin (any URL on it) with a HEAD of \a probe instead of its root. */
    void setProbeUrl(const QUrl &origin, const QUrl &probe);
    /*! When an unreachable origin is probed, in milliseconds: first after one to two
        \a intervalMs at random (so that the probes of clients that failed together do not
        line up), then every \a intervalMs ±20 % for the first \a steadyMs of the outage,
        then at intervals doubling up to \a maxMs. Defaults 900, 30000 and 30000: a server
        back within half a minute is found 0.45 s later at the median (half the interval),
        for about one probe a second per client; a longer outage is probed less and less,
        down to once every 30 s. */
    void setProbeSchedule(qint64 intervalMs, qint64 maxMs, qint64 steadyMs = 30000);
    /*! Time a probe may take, in milliseconds (default 2000). */
    void setProbeTimeout(qint64 timeoutMs);
    /*! Probes sent since construction. */
    qint64 probeCount() const;

Q_SIGNALS:
    void stateChanged(KeepTrying::ReachabilityBackend::State state);
    void behindCaptivePortalChanged(bool behind);
    void simulatedOfflineChanged(bool offline);
    /*! The origin (as originOf()) became reachable or unreachable. */
    void originReachabilityChanged(const QString &origin, bool reachable);

private:
    Q_DECLARE_PRIVATE(Reachability)
    std::unique_ptr<ReachabilityPrivate> d_ptr;
};

} // namespace KeepTrying

#endif // KEEPTRYING_REACHABILITY_H
