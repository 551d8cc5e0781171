#ifndef KEEPTRYING_DEMO_DEMOSERVER_P_H
#define KEEPTRYING_DEMO_DEMOSERVER_P_H

#include "articlestore_p.h"
#include "faultspec_p.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QHash>
#include <QtCore/QLoggingCategory>
#include <QtCore/QMap>
#include <QtCore/QMutex>
#include <QtCore/QPointer>
#include <QtCore/QRandomGenerator>
#include <QtCore/QSet>
#include <QtCore/QUrlQuery>

#include <atomic>
#include <deque>

QT_BEGIN_NAMESPACE
class QHttpServer;
class QHttpServerRequest;
class QHttpServerResponder;
class QTcpServer;
class QTcpSocket;
class QTimer;
QT_END_NAMESPACE

Q_DECLARE_LOGGING_CATEGORY(lcDemoServer)

namespace KeepTrying::Demo {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

/*! A copy of what the handlers need from a QHttpServerRequest, which dies with its socket. */
struct HttpRequest
{
    QByteArray method;
    QString path;
    QUrlQuery query;
    QString rawQuery;
    HeaderList headers;
    QByteArray body;
    QHostAddress remoteAddress;

    /*! The first value of header \a name (case-insensitive), or empty. */
    QByteArray header(const QByteArray &name) const;
};

struct HttpResponse
{
    int status = 200;
    QByteArray contentType;
    HeaderList headers;
    QByteArray body;

    static HttpResponse json(const QJsonValue &value, int status = 200);
    /*! OAuth 2.0 error shape (RFC 6749 §5.2), used by the token endpoint and for 401. */
    static HttpResponse oauthError(int status, const QString &error, const QString &description);
    /*! wallabag's REST error shape: {"error": {"code": N, "message": "..."}}. */
    static HttpResponse restError(int status, const QString &message);
};

class DemoServerPrivate
{
    Q_DECLARE_PUBLIC(DemoServer)

public:
    explicit DemoServerPrivate(DemoServer *q);

    static HttpRequest copyOf(const QHttpServerRequest &request);
    void onRequest(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void onAdminRequest(const QHttpServerRequest &request, QHttpServerResponder &&responder);
    void respond(const HttpRequest &request, const std::optional<FaultSpec> &fault,
                 QHttpServerResponder &responder, QTcpSocket *socket);
    static void write(QHttpServerResponder &responder, const HttpResponse &response, bool head,
                      qsizetype bodyBytes = -1);
    HttpResponse handleAdmin(const HttpRequest &request, int *downMs);

    // The handlers below run with mutex held.
    HttpResponse process(const HttpRequest &request);
    HttpResponse route(const HttpRequest &request);
    HttpResponse token(const HttpRequest &request);
    HttpResponse listEntries(const HttpRequest &request);
    HttpResponse createEntry(const HttpRequest &request);
    HttpResponse patchEntry(const HttpRequest &request, int id);
    HttpResponse deleteEntry(const HttpRequest &request, int id);
    HttpResponse image(const HttpRequest &request, const QString &name) const;
    QString publicBaseUrl(const HttpRequest &request) const;
    std::optional<FaultSpec> takeFault(const HttpRequest &request);
    void requestDone(); // a request that counted against the capacity was answered
    QJsonObject statsLocked() const;

    void goDown(int milliseconds);
    void comeUp();

    DemoServer *q_ptr;
    QHttpServer *http = nullptr; //!< the wallabag API: the listener an outage closes
    QHttpServer *admin = nullptr; //!< the admin API, on a port of its own: it stays up
    QTimer *upTimer = nullptr;
    std::atomic<bool> down { false };
    struct Endpoint
    {
        QPointer<QTcpServer> server;
        QHostAddress address;
        quint16 port = 0;
    };
    QList<Endpoint> closedEndpoints; //!< server thread only

    mutable QMutex mutex; // guards everything below
    QHostAddress address;
    quint16 port = 0;
    QHostAddress adminAddress;
    quint16 adminPort = 0;
    ArticleStore store;
    QList<FaultSpec> faults;
    QRandomGenerator random;
    QSet<QByteArray> accessTokens;
    QSet<QByteArray> refreshTokens;
    struct StoredResponse
    {
        QByteArray fingerprint;
        HttpResponse response;
    };
    QHash<QByteArray, StoredResponse> idempotentResponses;
    qint64 totalRequests = 0;
    qint64 writesApplied = 0;
    qint64 duplicateWritesRejected = 0;
    qint64 faultsInjected = 0;
    int maxConcurrent = 0; // 0: no limit
    int serviceTimeMs = 0;
    int inProgress = 0;
    int peakInProgress = 0;
    qint64 capacityRejections = 0;
    QMap<QString, qint64> requestsPerRoute;
    std::deque<RecordedRequest> recorded;
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_DEMOSERVER_P_H
