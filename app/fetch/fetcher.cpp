// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "fetcher.h"

#include <KeepTrying/circuitbreaker.h>
#include <KeepTrying/reachability.h>
#include <KeepTrying/redaction.h>
#include <KeepTrying/retrybudget.h>
#include <KeepTrying/retryingreply.h>

#include <QtCore/QDebug>
#include <QtCore/QMetaEnum>
#include <QtNetwork/QNetworkRequest>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <utility>

namespace {

void printLine(const QString &line)
{
    const QByteArray bytes = line.toLocal8Bit() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

// "127.0.0.1:8080", "[::1]:443": what a user calls the server.
QString hostAndPort(const QUrl &url)
{
    QString host = url.host();
    if (host.contains(QLatin1Char(':')))
        host = QLatin1Char('[') + host + QLatin1Char(']');
    const int port = url.port(url.scheme() == QLatin1String("https") ? 443 : 80);
    return host + QLatin1Char(':') + QString::number(port);
}

QString printable(const QUrl &url)
{
    return KeepTrying::redactedUrl(url).toDisplayString();
}

// The proxy itself failed: it refused, its name did not resolve, it closed or timed out.
bool isProxyFault(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::ProxyAuthenticationRequiredError:
    case QNetworkReply::UnknownProxyError:
        return true;
    default:
        return false;
    }
}

} // namespace

Fetcher::Fetcher(const FetchOptions &options, QObject *parent) : QObject(parent), m_options(options)
{
    // curl's choice of proxy (-x, --noproxy, the environment), else the system's settings.
    // The manager's reachability probes ask the same factory, so they go the same way.
    m_proxies = new FetchProxyFactory(m_options.proxy, m_options.hasNoProxy, m_options.noProxy);
    m_manager.setProxyFactory(m_proxies);
    KeepTrying::RetryPolicy policy = m_options.policy;
    const QNetworkProxy::ProxyType proxyType = m_proxies->choose(m_options.url).proxy.type();
    if (proxyType != QNetworkProxy::NoProxy && proxyType != QNetworkProxy::DefaultProxy &&
        !policy.shouldRetry) {
        // A proxy that cannot be reached is not an origin that is away for a while: waiting
        // for it would wait for a setting to change. Like curl, end at once and say so.
        policy.shouldRetry = [](const KeepTrying::RetryContext &context) {
            return !isProxyFault(context.error) &&
                context.fault != KeepTrying::FaultClass::Permanent;
        };
    }
    m_manager.setRetryPolicy(policy);
    connect(&m_proxyCheck, &ProxyCheck::finished, this, &Fetcher::onProxyChecked);
    // Only switch it on: KEEPTRYING_SIMULATE_OFFLINE=1 may already have done so.
    if (m_options.simulateOffline)
        m_manager.setSimulatedOffline(true);

    // This manager carries one request only, so every signal is about it (the first
    // attempt may even start before get() has returned the reply).
    connect(&m_manager, &KeepTrying::RetryingNetworkAccessManager::attemptStarted, this,
            &Fetcher::onAttemptStarted);
    connect(&m_manager, &KeepTrying::RetryingNetworkAccessManager::retryScheduled, this,
            &Fetcher::onRetryScheduled);
    connect(&m_manager, &KeepTrying::RetryingNetworkAccessManager::gaveUp, this,
            &Fetcher::onGaveUp);
    connect(&m_manager, &KeepTrying::RetryingNetworkAccessManager::waitReasonChanged, this,
            &Fetcher::onWaitReasonChanged);
}

void Fetcher::setLineHandler(std::function<void(const QString &)> handler)
{
    m_lineHandler = std::move(handler);
}

void Fetcher::say(const QString &line) const
{
    if (m_lineHandler)
        m_lineHandler(line);
    else
        printLine(line);
}

// Qt puts the whole URL into some error strings; ours never shows its credentials.
QString Fetcher::withoutCredentials(QString text) const
{
    const QUrl &url = m_options.url;
    const QString redacted = printable(url);
    for (const QString &form : { url.toString(), url.toString(QUrl::FullyEncoded),
                                 url.toDisplayString(), url.toString(QUrl::RemovePassword) })
        text.replace(form, redacted);
    return text;
}

Fetcher::~Fetcher()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

bool Fetcher::start()
{
    m_elapsed.start();
    if (!openOutput())
        return false;

    QNetworkRequest request(m_options.url);
    bool hasContentType = false;
    bool hasUserAgent = false;
    for (const auto &header : std::as_const(m_options.headers)) {
        request.setRawHeader(header.first, header.second);
        hasContentType |= header.first.compare("content-type", Qt::CaseInsensitive) == 0;
        hasUserAgent |= header.first.compare("user-agent", Qt::CaseInsensitive) == 0;
    }
    const QByteArray method = m_options.method.isEmpty()
        ? (m_options.hasBody ? QByteArrayLiteral("POST") : QByteArrayLiteral("GET"))
        : m_options.method;
    // curl's default for -d; also keeps Qt from warning about a POST without one.
    if (!hasContentType && (m_options.hasBody || method == "POST")) {
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/x-www-form-urlencoded"));
    }
    if (!hasUserAgent) {
        request.setHeader(QNetworkRequest::UserAgentHeader,
                          QByteArray("keeptrying-fetch/" KEEPTRYING_VERSION_STRING));
    }

    if (m_options.verbose) {
        say(QStringLiteral("* %1 %2").arg(QString::fromLatin1(method), printable(m_options.url)));
        say(QStringLiteral("* connection: %1")
                .arg(FetchProxyFactory::describe(m_proxies->choose(m_options.url))));
        const QList<QByteArray> names = request.rawHeaderList();
        for (const QByteArray &name : names) {
            say(QStringLiteral("> %1: %2")
                    .arg(QString::fromLatin1(name),
                         QString::fromUtf8(
                             KeepTrying::redactedHeaderValue(name, request.rawHeader(name)))));
        }
    }

    QNetworkReply *reply = send(request);
    m_reply = reply;
    connect(reply, &QNetworkReply::metaDataChanged, this, &Fetcher::onMetaDataChanged);
    connect(reply, &QIODevice::readyRead, this, &Fetcher::onReadyRead);
    connect(reply, &QNetworkReply::finished, this, &Fetcher::onFinished);
    connect(reply, &QNetworkReply::redirected, this, &Fetcher::onRedirected);
    if (reply->isFinished())
        onFinished();
    return true;
}

QNetworkReply *Fetcher::send(const QNetworkRequest &request)
{
    const QByteArray &body = m_options.body;
    const QByteArray method = m_options.method.isEmpty()
        ? (m_options.hasBody ? QByteArrayLiteral("POST") : QByteArrayLiteral("GET"))
        : m_options.method;
    if (m_options.hasBody) {
        if (method == "POST")
            return m_manager.post(request, body);
        if (method == "PUT")
            return m_manager.put(request, body);
        return m_manager.sendCustomRequest(request, method, body);
    }
    if (method == "GET")
        return m_manager.get(request);
    if (method == "HEAD")
        return m_manager.head(request);
    if (method == "DELETE")
        return m_manager.deleteResource(request);
    if (method == "POST")
        return m_manager.post(request, QByteArray());
    if (method == "PUT")
        return m_manager.put(request, QByteArray());
    return m_manager.sendCustomRequest(request, method);
}

bool Fetcher::openOutput()
{
    const QString &fileName = m_options.outputFile;
    if (fileName.isEmpty() || fileName == QLatin1String("-")) {
        // Unbuffered: each chunk reaches stdout as soon as it arrived.
        if (!m_stdout.open(fileno(stdout), QIODevice::WriteOnly | QIODevice::Unbuffered,
                           QFileDevice::DontCloseHandle)) {
            end(ExitCodes::WriteError,
                QStringLiteral("could not open stdout: %1").arg(m_stdout.errorString()));
            return false;
        }
        m_output = &m_stdout;
        return true;
    }
    // QSaveFile: the file appears only on commit(), so a failed download leaves no half file.
    m_saveFile = std::make_unique<QSaveFile>(fileName);
    if (!m_saveFile->open(QIODevice::WriteOnly)) {
        end(ExitCodes::WriteError,
            QStringLiteral("could not open '%1' for writing: %2")
                .arg(fileName, m_saveFile->errorString()));
        return false;
    }
    m_output = m_saveFile.get();
    return true;
}

void Fetcher::onAttemptStarted(QNetworkReply *, int attempt)
{
    m_attempts = attempt;
    if (!m_resumeLine.isEmpty()) {
        say(m_resumeLine.arg(attempt));
        m_resumeLine.clear();
    }
    if (m_options.verbose)
        say(QStringLiteral("* attempt %1").arg(attempt));
}

void Fetcher::onRetryScheduled(QNetworkReply *reply, int attempt, qint64 delayMs,
                               const QString &reason)
{
    checkProxy(reply && reply->url().isValid() ? reply->url() : m_options.url);
    m_lastRetryReason = reason; // the log form, shown as it is
    // The number is the attempt about to be made.
    say(QStringLiteral("retry %1 in %2 ms: %3").arg(attempt + 1).arg(delayMs).arg(reason));
}

// A retry is coming: if a proxy stands in the way, make sure it is the origin that failed
// and not the proxy, which the manager would otherwise wait for as for an origin away.
void Fetcher::checkProxy(const QUrl &url)
{
    const QNetworkProxy proxy = m_proxies->choose(url).proxy;
    if (m_ended || proxy.type() == QNetworkProxy::NoProxy ||
        proxy.type() == QNetworkProxy::DefaultProxy)
        return;
    m_checkedUrl = url;
    const qint64 timeout =
        m_options.policy.attemptTimeoutMs > 0 ? m_options.policy.attemptTimeoutMs : 10000;
    m_proxyCheck.start(proxy, int(std::min<qint64>(timeout, 10000)));
}

void Fetcher::onProxyChecked(bool accepted, ExitCodes::Code code, const QString &reason)
{
    m_proxyChecked = true;
    if (accepted && m_pendingEnd) {
        // The proxy is there: the request's own failure is the answer.
        const auto pending = *m_pendingEnd;
        m_pendingEnd.reset();
        end(pending.first, pending.second);
        return;
    }
    if (accepted || m_ended || !m_reply)
        return;
    const QString message =
        QStringLiteral("could not connect to %1: %2; check the proxy setting, or use "
                       "--noproxy '*' to go direct")
            .arg(FetchProxyFactory::describeProxy(m_proxies->choose(m_checkedUrl)), reason);
    QNetworkReply *reply = m_reply;
    reply->disconnect(this);
    end(code, message);
    reply->abort(); // nothing more is sent
}

void Fetcher::onGaveUp(QNetworkReply *reply, const QString &)
{
    if (auto *retrying = qobject_cast<KeepTrying::RetryingReply *>(reply))
        m_giveUp = retrying->giveUpReason();
    if (m_options.verbose) {
        QString line;
        QDebug(&line).noquote().nospace() << m_giveUp;
        say(QStringLiteral("* gave up: %1").arg(line));
    }
}

namespace {

// The fault a wait follows, for developers: "HTTP 503", "ConnectionRefusedError".
QString faultOf(const KeepTrying::WaitReason &reason)
{
    if (reason.httpStatus() > 0)
        return QStringLiteral("HTTP %1").arg(reason.httpStatus());
    return QString::fromLatin1(
        QMetaEnum::fromType<QNetworkReply::NetworkError>().valueToKey(reason.networkError()));
}

} // namespace

// Without these lines a run would print "retry 2 in 8 ms" and then say nothing for as long
// as the server is away: the manager probes it instead of spending attempts. Each line
// renders the typed reason; nothing is read from the log-form text.
void Fetcher::onWaitReasonChanged(QNetworkReply *, const KeepTrying::WaitReason &reason)
{
    using KeepTrying::WaitReason;
    const WaitReason::Kind was = std::exchange(m_lastWait, reason.kind());
    const QString server = hostAndPort(reason.isWaiting() ? reason.origin() : m_options.url);
    // The server the ended wait was for (after a redirect, not the URL asked for).
    const QString origin = std::exchange(m_lastWaitServer, server);
    if (was == reason.kind() && reason.kind() != WaitReason::Backoff &&
        reason.kind() != WaitReason::RetryAfter)
        return; // the same wait, renewed (a breaker's next probe time, say)
    // A wait that ended tells the next attempt's line why it goes now.
    if (was == WaitReason::Unreachable && m_resumeLine.isEmpty())
        m_resumeLine =
            QStringLiteral("%1 answers again, attempt %2").arg(origin, QStringLiteral("%1"));
    if (was == WaitReason::BreakerOpen && m_resumeLine.isEmpty()) {
        m_resumeLine = QStringLiteral("the circuit breaker of %1 lets attempt %2 through")
                           .arg(origin, QStringLiteral("%1"));
    }

    switch (reason.kind()) {
    case WaitReason::None:
        if (m_options.verbose && was != WaitReason::None)
            say(QStringLiteral("* waiting over"));
        return;
    case WaitReason::Offline:
        if (m_manager.isSimulatedOffline()) {
            say(QStringLiteral("waiting: the network is offline (simulated), nothing is sent"));
            m_resumeLine = QStringLiteral("simulated offline mode is off, attempt %1");
        } else {
            say(QStringLiteral("waiting for the network to come back"));
            m_resumeLine = QStringLiteral("the network is back, attempt %1");
        }
        return;
    case WaitReason::Unreachable:
        say(QStringLiteral("waiting for %1 to answer").arg(server));
        m_resumeLine.clear();
        return;
    case WaitReason::BreakerOpen:
        say(reason.remainingMs() >= 0
                ? QStringLiteral("waiting: the circuit breaker of %1 is open after repeated "
                                 "failures; a request may go through in %2 ms")
                      .arg(server)
                      .arg(reason.remainingMs())
                : QStringLiteral("waiting: the circuit breaker of %1 is open after repeated "
                                 "failures; a probe request is on its way")
                      .arg(server));
        return;
    case WaitReason::BudgetExhausted:
        say(QStringLiteral("waiting: the retry budget of %1 is spent; the next retry may go in "
                           "%2 ms")
                .arg(server)
                .arg(reason.remainingMs()));
        return;
    case WaitReason::WindowFull:
        if (m_options.verbose) {
            say(QStringLiteral("* waiting: %1 request(s) ahead in the concurrency window of %2")
                    .arg(reason.queuedBehind())
                    .arg(server));
        }
        return;
    case WaitReason::Backoff:
    case WaitReason::RetryAfter:
        // The retry line follows; -v adds the typed detail.
        if (m_options.verbose) {
            say(QStringLiteral("* waiting %1 ms (until %2): %3 after %4")
                    .arg(reason.remainingMs())
                    .arg(reason.until().toString(Qt::ISODateWithMs),
                         reason.kind() == WaitReason::RetryAfter
                             ? QStringLiteral("the server's Retry-After")
                             : QStringLiteral("backoff"),
                         faultOf(reason)));
        }
        return;
    case WaitReason::Authenticating:
        break;
    }
    if (m_options.verbose)
        say(QStringLiteral("* waiting: %1").arg(int(reason.kind())));
}

void Fetcher::onRedirected(const QUrl &url)
{
    if (!m_options.verbose)
        return;
    say(QStringLiteral("* redirected to %1").arg(printable(url)));
    m_headPrinted = false; // the next response's head is printed as well
}

void Fetcher::onMetaDataChanged()
{
    if (m_options.verbose && !m_headPrinted)
        printResponseHead();
}

void Fetcher::printResponseHead()
{
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid())
        return;
    m_headPrinted = true;
    const bool http2 = m_reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool();
    const QString reason = QString::fromLatin1(
        m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray());
    say(QStringLiteral("< %1 %2 %3")
            .arg(http2 ? QStringLiteral("HTTP/2") : QStringLiteral("HTTP/1.1"))
            .arg(status.toInt())
            .arg(reason));
    const QList<QNetworkReply::RawHeaderPair> headers = m_reply->rawHeaderPairs();
    for (const auto &header : headers) {
        say(QStringLiteral("< %1: %2")
                .arg(QString::fromLatin1(header.first),
                     QString::fromUtf8(
                         KeepTrying::redactedHeaderValue(header.first, header.second))));
    }
}

bool Fetcher::consumeBody()
{
    if (!m_reply || m_reply->bytesAvailable() <= 0)
        return m_writeError.isEmpty();
    const QByteArray chunk = m_reply->readAll();
    if (chunk.isEmpty() || !m_writeError.isEmpty())
        return m_writeError.isEmpty();
    // As curl --fail: the body of an error response is not output.
    if (m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() >= 400)
        return true;
    errno = 0;
    if (m_output->write(chunk) != chunk.size()) {
        // QFile on a plain descriptor reports "Unknown error"; errno says what happened.
        const QString reason = m_saveFile ? m_saveFile->errorString() : qt_error_string(errno);
        m_writeError = QStringLiteral("could not write the body to %1: %2")
                           .arg(m_saveFile ? QStringLiteral("'%1'").arg(m_options.outputFile)
                                           : QStringLiteral("stdout"),
                                reason);
        return false;
    }
    m_bytesWritten += chunk.size();
    return true;
}

void Fetcher::onReadyRead()
{
    // abort() emits finished() before it returns; onFinished() then ends the run.
    if (!consumeBody() && m_reply)
        m_reply->abort();
}

void Fetcher::onFinished()
{
    if (m_ended || !m_reply)
        return;
    consumeBody();
    if (!m_writeError.isEmpty()) {
        end(ExitCodes::WriteError, m_writeError);
        return;
    }
    if (m_options.verbose && !m_headPrinted)
        printResponseHead();

    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const ExitCodes::Code code = ExitCodes::forReply(m_reply->error(), status);
    if (m_options.verbose && m_reply->error() != QNetworkReply::NoError) {
        say(QStringLiteral("* ended with %1 after %2 ms")
                .arg(QLatin1String(QMetaEnum::fromType<QNetworkReply::NetworkError>().valueToKey(
                    m_reply->error())))
                .arg(m_elapsed.elapsed()));
    }
    if ((code == ExitCodes::CouldNotConnect || code == ExitCodes::HostNotFound) &&
        !m_proxyCheck.isRunning() && !m_proxyChecked) {
        // The last attempt failed to connect through a proxy no check has seen yet: ask it
        // first, so that a dead proxy is named as such (onProxyChecked() ends the run).
        m_pendingEnd = { code, failureMessage(code) };
        checkProxy(m_reply->url().isValid() ? m_reply->url() : m_options.url);
        if (m_proxyCheck.isRunning())
            return;
        m_pendingEnd.reset();
    }
    if (code != ExitCodes::Success) {
        end(code, failureMessage(code));
        return;
    }
    if (m_saveFile && !m_saveFile->commit()) {
        end(ExitCodes::WriteError,
            QStringLiteral("could not write '%1': %2")
                .arg(m_options.outputFile, m_saveFile->errorString()));
        return;
    }
    if (m_options.verbose) {
        say((m_attempts == 1 ? QStringLiteral("* done: %1 bytes in %2 attempt, %3 ms")
                             : QStringLiteral("* done: %1 bytes in %2 attempts, %3 ms"))
                .arg(m_bytesWritten)
                .arg(m_attempts)
                .arg(m_elapsed.elapsed()));
    }
    end(ExitCodes::Success);
}

QString Fetcher::failureMessage(ExitCodes::Code code) const
{
    const KeepTrying::RetryPolicy &policy = m_options.policy;
    QString text;
    if (code == ExitCodes::HttpError) {
        const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QString reason = QString::fromLatin1(
            m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray());
        // Not errorString(): Qt puts the whole URL, password included, into it.
        text = QStringLiteral("HTTP %1").arg(status);
        if (!reason.isEmpty())
            text += QLatin1Char(' ') + reason;
    } else if (code == ExitCodes::Timeout && policy.deadlineMs > 0 &&
               (m_elapsed.elapsed() >= policy.deadlineMs ||
                m_giveUp.kind() == KeepTrying::GiveUpReason::DeadlineExceeded)) {
        // The manager may stop early, when the next wait would pass the deadline.
        text = QStringLiteral("deadline of %1 ms reached").arg(policy.deadlineMs);
    } else if (code == ExitCodes::Timeout && policy.attemptTimeoutMs > 0) {
        text =
            QStringLiteral("nothing received for %1 ms (--timeout)").arg(policy.attemptTimeoutMs);
    } else if (isProxyFault(m_reply->error())) {
        // Qt's words name neither the proxy nor where it came from.
        const QUrl url = m_reply->url().isValid() ? m_reply->url() : m_options.url;
        text = QStringLiteral("%1 failed: %2; check the proxy setting, or use --noproxy '*' "
                              "to go direct")
                   .arg(FetchProxyFactory::describeProxy(m_proxies->choose(url)),
                        withoutCredentials(m_reply->errorString()));
    } else if (code == ExitCodes::Timeout) {
        text = QStringLiteral("timed out: %1").arg(withoutCredentials(m_reply->errorString()));
    } else {
        text = withoutCredentials(m_reply->errorString());
    }
    if (m_attempts > 1)
        text += QStringLiteral(" after %1 attempts").arg(m_attempts);
    if (m_giveUp.kind() == KeepTrying::GiveUpReason::BreakerOpen)
        text += QStringLiteral("; the circuit breaker of %1 opened, so no more were sent")
                    .arg(KeepTrying::Reachability::originOf(m_options.url));
    else if (code == ExitCodes::HttpError &&
             m_giveUp.kind() == KeepTrying::GiveUpReason::DeadlineExceeded)
        text += QStringLiteral("; the deadline of %1 ms was reached").arg(policy.deadlineMs);
    if (code == ExitCodes::Timeout && !m_lastRetryReason.isEmpty())
        text += QStringLiteral(" (last error: %1)").arg(m_lastRetryReason);
    return text;
}

void Fetcher::end(ExitCodes::Code code, const QString &message)
{
    if (m_ended)
        return;
    m_ended = true;
    m_exitCode = code;
    if (m_saveFile && code != ExitCodes::Success)
        m_saveFile->cancelWriting();
    if (!message.isEmpty())
        say(QStringLiteral("keeptrying-fetch: %1").arg(message));
    if (m_reply)
        m_reply->deleteLater();
    Q_EMIT finished(int(code));
}
