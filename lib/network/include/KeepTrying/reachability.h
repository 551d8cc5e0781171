// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_REACHABILITY_H
#define KEEPTRYING_REACHABILITY_H

#include <KeepTrying/keeptrying_network_export.h>
#include <KeepTrying/reachabilitybackend.h>

#include <QtCore/QObject>
#include <QtCore/QUrl>
#include <QtNetwork/QNetworkReply>

#include <memory>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace KeepTrying {

class ReachabilityPrivate;

/*!
    Knows whether the network, and each origin (scheme, host, port) requests go to, can be
    reached, so that RetryingNetworkAccessManager can park requests instead of spending
    attempts while they cannot succeed, and send them the moment they can.

    It combines three sources:

    - a backend: QNetworkInformation by default (the platform's default backend, else one
        with the Reachability feature); none loads on many Linux machines, and then the
        state stays Unknown;
    - active probing: after reportFailure() for an origin, one probe stream per origin
        with its own schedule, however many requests wait for it; any HTTP response to its
        HTTP probe proves the origin reachable, as does reportSuccess() from a real request;
    - simulated offline mode for QA: setSimulatedOffline() or KEEPTRYING_SIMULATE_OFFLINE=1.


    Which probe, when, and why:

    - The connection was refused (nothing listens on the port: a server restarting, a
        service stopped, a proxy that is down): *connect probes*. A TCP connection is
        opened and closed at once, no byte of HTTP sent, so the server's application sees
        nothing and the kernel answers a refusal for next to nothing: they can come every
        200 ms (setConnectProbeSchedule()) and find a restarted server about 0.1 s after it
        listens again. The first once a connect succeeds is the HTTP probe, sent at once:
        a listener can be up before the application behind it answers.
    - Connections are accepted but then reset, or time out (a proxy or load balancer in
        front of a dead backend, a server that hangs), or nothing is known (watch()):
        *HTTP probes* only (a HEAD of the origin's root, or setProbeUrl()), on the slower
        schedule of setProbeSchedule(): there a connect succeeds and proves nothing. A probe
        that is refused switches the stream to connect probes, a connect that succeeds but
        whose HTTP probe then fails switches it back.
    - A server that answers with 5xx is reachable: that is the circuit breaker's matter,
        not reachability's.

    Probes go the way the requests go: through the proxy the failing request's manager uses
    for the origin (its proxy factory, its proxy, else the application's). A connect probe
    through a SOCKS5 proxy, or an HTTP proxy's CONNECT tunnel (https), reaches the origin
    itself; a plain http request goes to an HTTP proxy, so a connect probe goes to the proxy
    (it is what refused) and the HTTP probe through it to the origin. Probes never go
    anywhere but the origin requests go to, or the proxy they go through.

    One Reachability serves one manager by default; managers may share one
    (RetryingNetworkAccessManager::setReachability()), also managers in other threads (a QML
    engine's, see KeepTrying::Quick): isReachable(), state(), isSimulatedOffline(),
    setSimulatedOffline(), watch(), reportFailure() and reportSuccess() may be called from
    any thread. A failure reported from another thread makes the origin unreachable for
    every thread at once; its probes, like every probe, timer and backend signal, run in the
    Reachability's own thread, and originReachabilityChanged() is emitted there. The
    settings (setBackend(), setProbeSchedule(), …) belong to its thread.
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
        until a probe or a request gets a response, and probing starts, with HTTP probes
        through the application's proxy (nothing is known of the fault). */
    void reportFailure(const QUrl &url);
    /*! A request to \a url, sent through \a manager, met the connectivity fault \a error: as
        reportFailure(const QUrl &), and the fault chooses the probe: ConnectionRefusedError
        and ProxyConnectionRefusedError start with connect probes, anything else with HTTP
        probes (see the class comment). The probes go through the proxy \a manager would
        use for \a url (nullptr: the application's, as QNetworkAccessManager's default).
        Ignored while the origin is already known unreachable. */
    void reportFailure(const QUrl &url, QNetworkReply::NetworkError error,
                       const QNetworkAccessManager *manager);
    /*! A request to \a url got an HTTP response (any status): its origin is reachable. */
    void reportSuccess(const QUrl &url);
    void reportSuccess(const QString &origin);

    /*! A request to \a url waits for connectivity. When only the backend's Offline keeps it
        waiting, its origin is probed once that Offline has lasted backendOfflineGraceMs:
        backends can be wrong (a link with no default route reads "disconnected" while a
        server on it answers), and a probe that gets an answer lets the origin's requests go.
        That probe is an HTTP probe (nothing has failed yet to say a connect would tell).
        Nothing is probed in simulated offline mode. */
    void watch(const QUrl &url);
    /*! The same, for a request sent through \a manager: the probe goes through its proxy. */
    void watch(const QUrl &url, const QNetworkAccessManager *manager);
    /*! How long the backend's Offline is believed without checking, in milliseconds
        (default 3000). */
    void setBackendOfflineGrace(qint64 graceMs);

    /*! Probes \a origin (any URL on it) with a HEAD of \a probe instead of its root. */
    void setProbeUrl(const QUrl &origin, const QUrl &probe);
    /*! When an origin is probed with HTTP probes, in milliseconds: first after one to two
        \a intervalMs at random (so that the probes of clients that failed together do not
        line up), then every \a intervalMs ±20 % for the first \a steadyMs of the outage,
        then at intervals doubling up to \a maxMs. Defaults 900, 30000 and 30000: a server
        back within half a minute is found 0.45 s later at the median (half the interval),
        for about one HTTP request a second per client; a longer outage is probed less and
        less, down to once every 30 s. Connect probes back off the same way after their own
        steady phase. Values below 1 ms are taken as 1 ms. */
    void setProbeSchedule(qint64 intervalMs, qint64 maxMs, qint64 steadyMs = 30000);
    /*! When an origin that refuses connections is probed with connect probes, in
        milliseconds: first after 0.25 to 0.75 \a intervalMs at random, then every
        \a intervalMs ±25 % for the first \a steadyMs of the outage, then as the HTTP
        probes' backoff (setProbeSchedule()). Defaults 200 and 30000: the first after
        50–150 ms, then every 150–250 ms, five connects a second per client for half a
        minute at most, which a kernel refuses without waking any application. */
    void setConnectProbeSchedule(qint64 intervalMs, qint64 steadyMs = 30000);
    /*! Time a probe may take, in milliseconds (default 2000): an HTTP probe's transfer
        timeout, a connect probe's time to connect. */
    void setProbeTimeout(qint64 timeoutMs);
    /*! HTTP probes sent since construction (connect probes not included). */
    qint64 probeCount() const;
    /*! Connect probes sent since construction. */
    qint64 connectProbeCount() const;

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
