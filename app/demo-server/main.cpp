// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// keeptrying-demo-server: the demo wallabag server with fault injection, on its own.

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QLoggingCategory>
#include <QtCore/QRegularExpression>

#include <cstdio>

using KeepTrying::Demo::DemoServer;

namespace {

int usageError(const QString &message)
{
    std::fprintf(stderr, "keeptrying-demo-server: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("keeptrying-demo-server"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral(
            "A wallabag-compatible demo server with fault injection, for trying KeepTrying.\n"
            "Log in with client id '%1', client secret '%2', user '%3', password '%4'.\n"
            "A second user '%5', password '%6', owns what it saves; each user gets 403\n"
            "for the other's entries, as in wallabag.\n\n"
            "Fault SPEC: comma-separated key=value: route=GLOB, method=METHOD, status=CODE,\n"
            "count=N, rate=P, retry-after=SECONDS|HTTP-DATE, latency=MS,\n"
            "drop=before-headers|mid-body. Example: route=/api/entries*,status=503,count=2\n\n"
            "Capacity: --service-time MS makes every request take MS to serve, and\n"
            "--max-concurrent N sheds requests over N in progress with 503.\n\n"
            "At run time, on the admin port (loopback only; it stays up while the API is\n"
            "down): GET|POST|DELETE /_admin/faults, POST /_admin/down?seconds=S,\n"
            "POST /_admin/up, GET /_admin/stats, POST /_admin/stats/reset.\n\n"
            "Prints 'listening on http://127.0.0.1:PORT' and then 'admin on\n"
            "http://127.0.0.1:ADMIN_PORT' on stdout.")
            .arg(DemoServer::demoClientId(), DemoServer::demoClientSecret(),
                 DemoServer::demoUsername(), DemoServer::demoPassword(),
                 DemoServer::otherUsername(), DemoServer::otherPassword()));
    parser.addHelpOption();
    const QCommandLineOption portOption(QStringLiteral("port"),
                                        QStringLiteral("Port to listen on (0: any free port)."),
                                        QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption adminPortOption(
        QStringLiteral("admin-port"),
        QStringLiteral("Port of the admin API on loopback (0: any free port)."),
        QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption hostOption(QStringLiteral("host"),
                                        QStringLiteral("Address to listen on."),
                                        QStringLiteral("ADDRESS"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption faultOption(QStringLiteral("fault"),
                                         QStringLiteral("Inject a fault (repeatable)."),
                                         QStringLiteral("SPEC"));
    const QCommandLineOption seedOption(
        QStringLiteral("seed"), QStringLiteral("Seed for rate= faults, for repeatable runs."),
        QStringLiteral("N"));
    const QCommandLineOption verboseOption(
        QStringList { QStringLiteral("v"), QStringLiteral("verbose") },
        QStringLiteral("Log every request on stderr."));
    const QCommandLineOption maxConcurrentOption(
        QStringLiteral("max-concurrent"),
        QStringLiteral("Serve at most N requests at once, 503 above (0: no limit)."),
        QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption serviceTimeOption(
        QStringLiteral("service-time"),
        QStringLiteral("Answer every request MS milliseconds after it arrived (0..600000)."),
        QStringLiteral("MS"), QStringLiteral("0"));
    const QCommandLineOption articlesOption(
        QStringLiteral("articles"),
        QStringLiteral("Serve N entries: the sample library, then copies of it (default: the "
                       "sample's own count)."),
        QStringLiteral("N"));
    const QCommandLineOption publicBaseOption(
        QStringLiteral("public-base"),
        QStringLiteral("Build the list's absolute _links on this scheme://host:port, as wallabag "
                       "behind a reverse proxy does (default: the request's Host)."),
        QStringLiteral("URL"));
    const QCommandLineOption utcOffsetOption(
        QStringLiteral("utc-offset"),
        QStringLiteral("Write dates in this offset from UTC, as a PHP server writes its own "
                       "time zone (default +0200)."),
        QStringLiteral("+HHMM"), QStringLiteral("+0200"));
    const QCommandLineOption tokenLifetimeOption(
        QStringLiteral("token-lifetime"),
        QStringLiteral("Access tokens expire after S seconds (wallabag's default: 3600)."),
        QStringLiteral("S"), QStringLiteral("3600"));
    const QCommandLineOption addFetchDelayOption(
        QStringLiteral("add-fetch-delay"),
        QStringLiteral("An add of a new URL takes MS more, between its look-up and its "
                       "creation, as wallabag's page fetch (0..600000)."),
        QStringLiteral("MS"), QStringLiteral("0"));
    const QCommandLineOption idempotencyKeysOption(
        QStringLiteral("idempotency-keys"),
        QStringLiteral("Honour Idempotency-Key on writes (wallabag does not; for tests)."));
    parser.addOptions({ portOption, adminPortOption, hostOption, faultOption, seedOption,
                        maxConcurrentOption, serviceTimeOption, articlesOption, publicBaseOption,
                        utcOffsetOption, tokenLifetimeOption, addFetchDelayOption,
                        idempotencyKeysOption, verboseOption });
    parser.process(app);

    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("unexpected argument '") +
                          parser.positionalArguments().constFirst() + QStringLiteral("'"));
    bool ok = false;
    const uint port = parser.value(portOption).toUInt(&ok);
    if (!ok || port > 65535)
        return usageError(QStringLiteral("--port must be a number from 0 to 65535"));
    const uint adminPort = parser.value(adminPortOption).toUInt(&ok);
    if (!ok || adminPort > 65535)
        return usageError(QStringLiteral("--admin-port must be a number from 0 to 65535"));
    const QHostAddress host(parser.value(hostOption));
    if (host.isNull())
        return usageError(QStringLiteral("--host must be an IP address"));

    DemoServer server;
    if (parser.isSet(seedOption)) {
        const quint32 seed = parser.value(seedOption).toUInt(&ok);
        if (!ok)
            return usageError(QStringLiteral("--seed must be a non-negative integer"));
        server.setSeed(seed);
    }
    const int maxConcurrent = parser.value(maxConcurrentOption).toInt(&ok);
    if (!ok || maxConcurrent < 0)
        return usageError(QStringLiteral("--max-concurrent must be a non-negative integer"));
    server.setMaxConcurrent(maxConcurrent);
    const int serviceTime = parser.value(serviceTimeOption).toInt(&ok);
    if (!ok || serviceTime < 0 || serviceTime > 600000)
        return usageError(QStringLiteral("--service-time must be milliseconds from 0 to 600000"));
    server.setServiceTime(serviceTime);
    if (parser.isSet(articlesOption)) {
        const int articles = parser.value(articlesOption).toInt(&ok);
        if (!ok || articles < 1 || articles > 10000000)
            return usageError(QStringLiteral("--articles must be a number from 1 to 10000000"));
        server.setArticleCount(articles);
    }
    if (parser.isSet(publicBaseOption)) {
        const QUrl base(parser.value(publicBaseOption), QUrl::StrictMode);
        if (!base.isValid() || base.host().isEmpty() ||
            (base.scheme() != QLatin1String("http") && base.scheme() != QLatin1String("https")))
            return usageError(QStringLiteral("--public-base must be an http(s)://host[:port] URL"));
        server.setPublicBaseUrl(base);
    }
    static const QRegularExpression offsetPattern(QStringLiteral("^([+-])([0-9]{2}):?([0-9]{2})$"));
    const QRegularExpressionMatch offset = offsetPattern.match(parser.value(utcOffsetOption));
    if (!offset.hasMatch() || offset.captured(2).toInt() > 14 || offset.captured(3).toInt() > 59)
        return usageError(QStringLiteral("--utc-offset must be +HHMM or -HHMM"));
    server.setUtcOffset((offset.captured(1) == QLatin1String("-") ? -1 : 1) *
                        (offset.captured(2).toInt() * 3600 + offset.captured(3).toInt() * 60));
    const int tokenLifetime = parser.value(tokenLifetimeOption).toInt(&ok);
    if (!ok || tokenLifetime < 1)
        return usageError(QStringLiteral("--token-lifetime must be a positive number of seconds"));
    server.setAccessTokenLifetime(tokenLifetime);
    const int addFetchDelay = parser.value(addFetchDelayOption).toInt(&ok);
    if (!ok || addFetchDelay < 0 || addFetchDelay > 600000)
        return usageError(
            QStringLiteral("--add-fetch-delay must be milliseconds from 0 to 600000"));
    server.setAddFetchDelay(addFetchDelay);
    server.setIdempotencyKeysHonoured(parser.isSet(idempotencyKeysOption));
    const QStringList faults = parser.values(faultOption);
    for (const QString &spec : faults) {
        QString errorMessage;
        if (!server.addFault(spec, &errorMessage))
            return usageError(errorMessage);
    }
    if (parser.isSet(verboseOption))
        QLoggingCategory::setFilterRules(QStringLiteral("keeptrying.demoserver.debug=true"));

    if (server.listen(host, quint16(port), quint16(adminPort)) == 0) {
        std::fprintf(stderr,
                     "keeptrying-demo-server: cannot listen on %s port %u (admin port %u)\n",
                     qPrintable(host.toString()), port, adminPort);
        return 1;
    }
    // Scripts read these two lines; the first stays first.
    std::printf("listening on %s\n", qPrintable(server.baseUrl().toString()));
    std::printf("admin on %s\n", qPrintable(server.adminUrl().toString()));
    std::fflush(stdout);
    return app.exec();
}
