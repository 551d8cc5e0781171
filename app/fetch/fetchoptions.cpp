// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "fetchoptions.h"

#include "fetchproxy.h"

#include <QtCore/QFile>
#include <QtCore/QStringList>

#include <cstdio>
#include <limits>

namespace {

// RFC 9110 §5.6.2: a field name (and a method) is a token.
bool isToken(const QByteArray &text)
{
    if (text.isEmpty())
        return false;
    for (char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
        if (!ok)
            return false;
    }
    return true;
}

// Keeps requests from being split: no CR, LF or NUL inside a field value.
bool isFieldValue(const QByteArray &text)
{
    return !text.contains('\r') && !text.contains('\n') && !text.contains('\0');
}

} // namespace

FetchCommandLine::FetchCommandLine()
    : m_helpOption(QStringList { QStringLiteral("h"), QStringLiteral("help") },
                   QStringLiteral("Show this help and the exit codes.")),
      m_versionOption(QStringLiteral("version"), QStringLiteral("Show the version.")),
      m_methodOption(QStringList { QStringLiteral("X"), QStringLiteral("request") },
                     QStringLiteral("HTTP method to use (default GET, or POST with -d)."),
                     QStringLiteral("METHOD")),
      m_dataOption(QStringList { QStringLiteral("d"), QStringLiteral("data") },
                   QStringLiteral("Request body; @FILE reads it from FILE (@- from stdin), "
                                  "byte for byte. Implies POST unless -X is given. Repeated "
                                  "bodies are joined with '&'."),
                   QStringLiteral("DATA|@FILE")),
      m_headerOption(QStringList { QStringLiteral("H"), QStringLiteral("header") },
                     QStringLiteral("Extra request header; may be repeated."),
                     QStringLiteral("'Name: value'")),
      m_outputOption(QStringList { QStringLiteral("o"), QStringLiteral("output") },
                     QStringLiteral("Write the body to FILE instead of stdout. FILE is "
                                    "replaced only when the download succeeds."),
                     QStringLiteral("FILE")),
      m_maxAttemptsOption(QStringLiteral("max-attempts"),
                          QStringLiteral("Total attempts, the first included, for server "
                                         "faults and for connectivity faults (default: 5 "
                                         "for server faults; without it, an unreachable "
                                         "host is waited for until the deadline, with "
                                         "probes instead of attempts)."),
                          QStringLiteral("N")),
      m_initialDelayOption(QStringLiteral("initial-delay"),
                           QStringLiteral("Backoff before the first retry (default 200)."),
                           QStringLiteral("MS")),
      m_maxDelayOption(QStringLiteral("max-delay"),
                       QStringLiteral("Largest backoff between attempts (default 30000)."),
                       QStringLiteral("MS")),
      m_jitterOption(QStringLiteral("jitter"),
                     QStringLiteral("Jitter of the backoff: none, full (default), equal or "
                                    "decorrelated."),
                     QStringLiteral("MODE")),
      m_timeoutOption(QStringLiteral("timeout"),
                      QStringLiteral("Per attempt: fail the attempt when nothing arrives for "
                                     "MS milliseconds (0: no limit, the default)."),
                      QStringLiteral("MS")),
      m_deadlineOption(QStringLiteral("deadline"),
                       QStringLiteral("Give up after MS milliseconds in all, retries and "
                                      "waits included (0: no limit, the default)."),
                       QStringLiteral("MS")),
      m_idempotencyKeyOption(QStringLiteral("idempotency-key"),
                             QStringLiteral("Send an Idempotency-Key header so that POST and "
                                            "PATCH may be retried: auto makes a new UUID, "
                                            "anything else is sent as the key."),
                             QStringLiteral("auto|KEY")),
      m_proxyOption(
          QStringList { QStringLiteral("x"), QStringLiteral("proxy") },
          QStringLiteral("Use this proxy, whatever the environment says: "
                         "http://[user:password@]host[:port], socks5:// or socks5h:// "
                         "(no scheme: http; no port: 1080). Without it, as curl: "
                         "http_proxy for http, https_proxy or HTTPS_PROXY for https, "
                         "else all_proxy or ALL_PROXY; with none of them set, the "
                         "system's proxy settings. A proxy that refuses ends the run at once "
                         "(exit code 7; 5 when its name does not resolve): it is "
                         "not waited for as an unreachable server is."),
          QStringLiteral("URL")),
      m_noProxyOption(QStringLiteral("noproxy"),
                      QStringLiteral("Hosts to reach directly, not through a proxy: a "
                                     "comma-separated list of names (each with its subdomains) "
                                     "and addresses; '*' for all. Replaces no_proxy/NO_PROXY."),
                      QStringLiteral("LIST")),
      m_simulateOfflineOption(QStringLiteral("simulate-offline"),
                              QStringLiteral("Pretend the network is down (as "
                                             "KEEPTRYING_SIMULATE_OFFLINE=1); nothing is sent. "
                                             "The request waits for the network without "
                                             "making attempts, so it ends only at --deadline "
                                             "(exit code 28) or when interrupted. With "
                                             "--max-attempts, each attempt fails at once as a "
                                             "connectivity fault instead (exit code 7 after "
                                             "the last).")),
      m_verboseOption(QStringList { QStringLiteral("v"), QStringLiteral("verbose") },
                      QStringLiteral("Print attempts, the status and the response headers "
                                     "on stderr (credentials are never printed)."))
{
    m_parser.setApplicationDescription(
        QStringLiteral("Fetches URL like curl --fail, but keeps trying: connectivity "
                       "faults and retryable HTTP statuses are retried with exponential "
                       "backoff through KeepTrying::RetryingNetworkAccessManager.\n"
                       "The body goes to stdout as it arrives (or to -o FILE); each retry "
                       "prints one line on stderr, e.g. \"retry 2 in 812 ms: HTTP 503\"."));
    m_parser.addPositionalArgument(QStringLiteral("URL"),
                                   QStringLiteral("The URL to fetch (http:// when no scheme)."));
    // Our own help and version options: addVersionOption() would take -v from --verbose.
    for (const QCommandLineOption *option :
         { &m_helpOption, &m_versionOption, &m_methodOption, &m_dataOption, &m_headerOption,
           &m_outputOption, &m_maxAttemptsOption, &m_initialDelayOption, &m_maxDelayOption,
           &m_jitterOption, &m_timeoutOption, &m_deadlineOption, &m_idempotencyKeyOption,
           &m_proxyOption, &m_noProxyOption, &m_simulateOfflineOption, &m_verboseOption })
        m_parser.addOption(*option);
}

QString FetchCommandLine::helpText() const
{
    return m_parser.helpText() + QLatin1Char('\n') + ExitCodes::helpTable();
}

QString FetchCommandLine::versionText()
{
    return QStringLiteral("keeptrying-fetch %1 (Qt %2)\n")
        .arg(QStringLiteral(KEEPTRYING_VERSION_STRING), QLatin1String(qVersion()));
}

FetchCommandLine::Result FetchCommandLine::fail(ExitCodes::Code code, const QString &message)
{
    m_errorExitCode = code;
    m_errorMessage = message;
    return Result::Error;
}

FetchCommandLine::Result FetchCommandLine::parse(const QStringList &arguments)
{
    if (!m_parser.parse(arguments))
        return fail(ExitCodes::Usage, m_parser.errorText() + QStringLiteral(" (see --help)"));
    if (m_parser.isSet(m_helpOption))
        return Result::ShowHelp;
    if (m_parser.isSet(m_versionOption))
        return Result::ShowVersion;

    const QStringList positional = m_parser.positionalArguments();
    if (positional.isEmpty())
        return fail(ExitCodes::Usage, QStringLiteral("no URL given (see --help)"));
    if (positional.size() > 1)
        return fail(ExitCodes::Usage,
                    QStringLiteral("one URL only, got %1 (see --help)").arg(positional.size()));

    QString urlText = positional.first();
    // Like curl, a URL without a scheme is http.
    if (!urlText.contains(QLatin1String("://")) && !urlText.startsWith(QLatin1String("file:")) &&
        !urlText.startsWith(QLatin1String("data:")))
        urlText.prepend(QLatin1String("http://"));
    m_options.url = QUrl(urlText, QUrl::StrictMode);
    const bool needsHost = m_options.url.scheme() == QLatin1String("http") ||
        m_options.url.scheme() == QLatin1String("https");
    if (!m_options.url.isValid() || m_options.url.scheme().isEmpty() ||
        (needsHost && m_options.url.host().isEmpty()))
        return fail(ExitCodes::MalformedUrl,
                    QStringLiteral("malformed URL '%1'").arg(positional.first()));

    if (m_parser.isSet(m_methodOption)) {
        m_options.method = m_parser.value(m_methodOption).toLatin1();
        if (!isToken(m_options.method))
            return fail(ExitCodes::Usage,
                        QStringLiteral("bad method '%1'").arg(m_parser.value(m_methodOption)));
    }

    if (!readHeaders() || !readBody())
        return Result::Error;

    m_options.outputFile = m_parser.value(m_outputOption);
    if (m_parser.isSet(m_outputOption) && m_options.outputFile.isEmpty())
        return fail(ExitCodes::Usage, QStringLiteral("-o needs a file name"));

    KeepTrying::RetryPolicy &policy = m_options.policy;
    if (m_parser.isSet(m_maxAttemptsOption)) {
        bool ok = false;
        const int attempts = m_parser.value(m_maxAttemptsOption).toInt(&ok);
        if (!ok || attempts < 1)
            return fail(ExitCodes::Usage,
                        QStringLiteral("--max-attempts needs a whole number of at least 1, "
                                       "got '%1'")
                            .arg(m_parser.value(m_maxAttemptsOption)));
        // Both limits, so that a run against an unreachable host ends too; waiting for
        // connectivity makes no attempts, so it would never reach the limit.
        policy.maxAttempts = attempts;
        policy.maxConnectivityAttempts = attempts;
        policy.waitForConnectivity = false;
    }
    if (!readMilliseconds(m_initialDelayOption, 0, &policy.initialDelayMs) ||
        !readMilliseconds(m_maxDelayOption, 0, &policy.maxDelayMs) ||
        !readMilliseconds(m_timeoutOption, 0, &policy.attemptTimeoutMs) ||
        !readMilliseconds(m_deadlineOption, 0, &policy.deadlineMs))
        return Result::Error;

    if (m_parser.isSet(m_jitterOption)) {
        const QString mode = m_parser.value(m_jitterOption).toLower();
        if (mode == QLatin1String("none"))
            policy.jitter = KeepTrying::Jitter::None;
        else if (mode == QLatin1String("full"))
            policy.jitter = KeepTrying::Jitter::Full;
        else if (mode == QLatin1String("equal"))
            policy.jitter = KeepTrying::Jitter::Equal;
        else if (mode == QLatin1String("decorrelated"))
            policy.jitter = KeepTrying::Jitter::Decorrelated;
        else
            return fail(ExitCodes::Usage,
                        QStringLiteral("--jitter must be none, full, equal or decorrelated, "
                                       "got '%1'")
                            .arg(m_parser.value(m_jitterOption)));
    }

    if (m_parser.isSet(m_idempotencyKeyOption)) {
        const QString key = m_parser.value(m_idempotencyKeyOption);
        if (key == QLatin1String("auto")) {
            policy.addIdempotencyKey = true;
        } else {
            const QByteArray value = key.toUtf8();
            if (value.isEmpty() || !isFieldValue(value))
                return fail(ExitCodes::Usage,
                            QStringLiteral("--idempotency-key needs auto or a key"));
            m_options.headers.append({ QByteArrayLiteral("Idempotency-Key"), value });
        }
    }

    m_options.proxy = m_parser.value(m_proxyOption);
    if (m_parser.isSet(m_proxyOption) && m_options.proxy.trimmed().isEmpty())
        return fail(ExitCodes::Usage, QStringLiteral("-x needs a proxy URL"));
    m_options.hasNoProxy = m_parser.isSet(m_noProxyOption);
    m_options.noProxy = m_parser.value(m_noProxyOption);
    QString proxyError;
    if (!FetchProxyFactory(m_options.proxy, m_options.hasNoProxy, m_options.noProxy)
             .isValid(&proxyError))
        return fail(ExitCodes::Usage, proxyError);

    m_options.simulateOffline = m_parser.isSet(m_simulateOfflineOption);
    m_options.verbose = m_parser.isSet(m_verboseOption);
    return Result::Run;
}

bool FetchCommandLine::readMilliseconds(const QCommandLineOption &option, qint64 minimum,
                                        qint64 *value)
{
    if (!m_parser.isSet(option))
        return true;
    const QString text = m_parser.value(option);
    bool ok = false;
    const qint64 number = text.toLongLong(&ok);
    // A year is more than any sensible wait, and keeps all arithmetic far from overflow.
    constexpr qint64 maximum = qint64(365) * 24 * 3600 * 1000;
    if (!ok || number < minimum || number > maximum) {
        fail(ExitCodes::Usage,
             QStringLiteral("--%1 needs milliseconds (a whole number from %2), got '%3'")
                 .arg(option.names().constLast())
                 .arg(minimum)
                 .arg(text));
        return false;
    }
    *value = number;
    return true;
}

bool FetchCommandLine::readHeaders()
{
    const QStringList values = m_parser.values(m_headerOption);
    for (const QString &header : values) {
        const QByteArray raw = header.toUtf8();
        const qsizetype colon = raw.indexOf(':');
        const QByteArray name = colon < 0 ? QByteArray() : raw.left(colon);
        const QByteArray value = colon < 0 ? QByteArray() : raw.mid(colon + 1).trimmed();
        if (!isToken(name) || !isFieldValue(value)) {
            fail(ExitCodes::Usage,
                 QStringLiteral("bad header '%1': use -H 'Name: value'").arg(header));
            return false;
        }
        m_options.headers.append({ name, value });
    }
    return true;
}

bool FetchCommandLine::readBody()
{
    const QStringList values = m_parser.values(m_dataOption);
    if (values.isEmpty())
        return true;
    QList<QByteArray> parts;
    for (const QString &value : values) {
        if (!value.startsWith(QLatin1Char('@'))) {
            parts.append(value.toUtf8());
            continue;
        }
        const QString fileName = value.mid(1);
        QFile file(fileName);
        const bool opened = fileName == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly)
                                                           : file.open(QIODevice::ReadOnly);
        QByteArray content;
        if (opened)
            content = file.readAll();
        if (!opened || file.error() != QFileDevice::NoError) {
            fail(ExitCodes::ReadError,
                 QStringLiteral("could not read '%1': %2").arg(fileName, file.errorString()));
            return false;
        }
        parts.append(content);
    }
    m_options.body = parts.join('&');
    m_options.hasBody = true;
    return true;
}
