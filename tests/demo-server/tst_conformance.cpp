// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// The demo server against wallabag's own API tests, rewritten as data in
// conformance/wallabag-api.json: one row per case, run against an in-process demo server.
// Where the demo server and a case disagree, the case is right and the demo changes.

#include "conformancewrites.h"
#include "demoserverthread.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QDateTime>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

#include <memory>

using KeepTrying::Demo::DemoServer;

namespace {

// The read side: entries list, filters and paging, one entry, version/info/anonymous
// access, errors, exists. The write-side cases (tags, PATCH, tokens, create and
// deduplication, delete) are listed in conformancewrites.cpp, with the fixture each needs.
const QStringList readSideCases = {
    // entries list, filters, paging
    QStringLiteral("entries_list_full"),
    QStringLiteral("entries_list_metadata"),
    QStringLiteral("entries_list_domain_name"),
    QStringLiteral("entries_list_full_options"),
    QStringLiteral("entries_list_public_only"),
    QStringLiteral("entries_list_page_two"),
    QStringLiteral("entries_list_bad_order"),
    QStringLiteral("entries_list_starred"),
    QStringLiteral("entries_list_archived"),
    QStringLiteral("entries_list_tagged"),
    QStringLiteral("entries_list_tags_array_ignored"),
    QStringLiteral("entries_list_since"),
    QStringLiteral("entries_list_since_future"),
    // one entry
    QStringLiteral("entry_get"),
    // version, info, anonymous access
    QStringLiteral("version"),
    QStringLiteral("info"),
    QStringLiteral("user_without_token"),
    // exists
    QStringLiteral("exists_url_return_id"),
    QStringLiteral("exists_url"),
    QStringLiteral("exists_hashed_url_return_id"),
    QStringLiteral("exists_hashed_url"),
    QStringLiteral("exists_urls_return_id"),
    QStringLiteral("exists_urls"),
    QStringLiteral("exists_hashed_urls_return_id"),
    QStringLiteral("exists_hashed_urls"),
    QStringLiteral("exists_url_missing"),
    QStringLiteral("exists_hashed_url_missing"),
    QStringLiteral("exists_empty_url"),
    QStringLiteral("exists_empty_hashed_url"),
    // errors (from not_covered_by_wallabag_tests: read in wallabag's source)
    QStringLiteral("entries_page_past_end"),
};

// Read-side cases not run, and why: each needs a fixture of wallabag's that the demo's
// sample library does not have.
const QHash<QString, QString> notRun = {
    { QStringLiteral("entries_list_with_annotations"),
      QStringLiteral("the demo's entries carry no annotations") },
    { QStringLiteral("entries_list_without_annotations"),
      QStringLiteral("fixture URLs of entries with and without annotations") },
    { QStringLiteral("entry_get_origin_url"),
      QStringLiteral("no sample entry has an origin_url (it is null, as entry_get shows)") },
    { QStringLiteral("info_registration_allowed"),
      QStringLiteral("the demo has registration switched off") },
};

} // namespace

class tst_Conformance : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void wallabagCase_data();
    void wallabagCase();
    void wallabagWriteCase_data();
    void wallabagWriteCase();
    void entryFieldsAndTypes_data();
    void entryFieldsAndTypes();
    void sinceIsStrict();

private:
    using Reply = Conformance::Reply;
    Reply send(const QByteArray &method, const QString &path, const QUrlQuery &query,
               const QByteArray &body, bool authenticated);
    Reply sendWith(const QByteArray &method, const QString &path, const QUrlQuery &query,
                   const QByteArray &body, const QByteArray &bearer);
    void runCase(const QJsonObject &wallabagCase, const QByteArray &bearer);
    QString substitute(QString text) const;
    QByteArray token();

    std::unique_ptr<KeepTrying::Test::DemoServerThread> m_server;
    std::unique_ptr<QNetworkAccessManager> m_manager;
    QByteArray m_token;
    QList<QPair<QString, QString>> m_fixture; // wallabag fixture text → the demo's
};

void tst_Conformance::initTestCase()
{
    m_server = std::make_unique<KeepTrying::Test::DemoServerThread>();
    QVERIFY(m_server->listen() != 0);
    m_manager = std::make_unique<QNetworkAccessManager>();
    QVERIFY(!token().isEmpty());

    // wallabag's fixtures, mapped onto the demo's sample library.
    const QJsonObject entry1 =
        QJsonDocument::fromJson(
            send("GET", QStringLiteral("/api/entries/1.json"), {}, {}, true).body)
            .object();
    const QJsonObject entry2 =
        QJsonDocument::fromJson(
            send("GET", QStringLiteral("/api/entries/2.json"), {}, {}, true).body)
            .object();
    const QJsonArray tags = entry1.value(QLatin1String("tags")).toArray();
    QVERIFY(tags.size() >= 2);
    const QString foo = tags.at(0).toObject().value(QLatin1String("label")).toString();
    const QString bar = tags.at(1).toObject().value(QLatin1String("label")).toString();
    // The newest entry of a domain heads a domain_name list (ordered by id, descending).
    const QJsonArray newest =
        QJsonDocument::fromJson(send("GET", QStringLiteral("/api/entries.json"),
                                     QUrlQuery(QStringLiteral("perPage=100")), {}, true)
                                    .body)
            .object()
            .value(QLatin1String("_embedded"))
            .toObject()
            .value(QLatin1String("items"))
            .toArray();
    QJsonObject newestWithDomain;
    for (const QJsonValue &item : newest) {
        if (item.toObject().value(QLatin1String("domain_name")).isString()) {
            newestWithDomain = item.toObject();
            break;
        }
    }
    QVERIFY(!newestWithDomain.isEmpty());
    const QString url2 = entry2.value(QLatin1String("url")).toString();
    m_fixture = {
        { QStringLiteral("\"{entry.tag_count}\""),
          QString::number(entry1.value(QLatin1String("tags")).toArray().size()) },
        { QStringLiteral("\"{entry.user_id}\""), QStringLiteral("1") },
        { QStringLiteral("{entry.id}"), QStringLiteral("1") },
        { QStringLiteral("{entry.title}"), entry1.value(QLatin1String("title")).toString() },
        { QStringLiteral("{entry.url}"), entry1.value(QLatin1String("url")).toString() },
        { QStringLiteral("{entry.user_name}"), DemoServer::demoUsername() },
        { QStringLiteral("{entry.user_email}"), QStringLiteral("demo@example.org") },
        { QStringLiteral("{wallabag_core.version}"), QStringLiteral("2.6.14") },
        { QStringLiteral("{now+1000}"),
          QString::number(QDateTime::currentSecsSinceEpoch() + 1000) },
        { QStringLiteral("domain.io"),
          newestWithDomain.value(QLatin1String("domain_name")).toString() },
        { QStringLiteral("test title entry6"),
          newestWithDomain.value(QLatin1String("title")).toString() },
        { QStringLiteral("http://0.0.0.0/entry2"), url2 },
        { QStringLiteral("tags=foo,bar"), QStringLiteral("tags=") + foo + QLatin1Char(',') + bar },
        { QStringLiteral("tags=foo"), QStringLiteral("tags=") + foo },
        { QStringLiteral("\"foo,bar\""),
          QLatin1Char('"') + foo + QLatin1Char(',') + bar + QLatin1Char('"') },
        { QStringLiteral("\"foo\""), QLatin1Char('"') + foo + QLatin1Char('"') },
        { QStringLiteral("\"bar\""), QLatin1Char('"') + bar + QLatin1Char('"') },
    };
}

void tst_Conformance::cleanupTestCase()
{
    m_manager.reset();
    m_server.reset();
}

QByteArray tst_Conformance::token()
{
    if (!m_token.isEmpty())
        return m_token;
    QNetworkRequest request(
        QUrl(m_server->server()->baseUrl().toString() + QStringLiteral("/oauth/v2/token")));
    request.setHeader(QNetworkRequest::ContentTypeHeader,
                      QByteArrayLiteral("application/x-www-form-urlencoded"));
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("password"));
    form.addQueryItem(QStringLiteral("client_id"), DemoServer::demoClientId());
    form.addQueryItem(QStringLiteral("client_secret"), DemoServer::demoClientSecret());
    form.addQueryItem(QStringLiteral("username"), DemoServer::demoUsername());
    form.addQueryItem(QStringLiteral("password"), DemoServer::demoPassword());
    QNetworkReply *reply = m_manager->post(request, form.toString(QUrl::FullyEncoded).toLatin1());
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!finished.wait(10000))
        return {};
    m_token = QJsonDocument::fromJson(reply->readAll())
                  .object()
                  .value(QLatin1String("access_token"))
                  .toString()
                  .toLatin1();
    reply->deleteLater();
    return m_token;
}

tst_Conformance::Reply tst_Conformance::send(const QByteArray &method, const QString &path,
                                             const QUrlQuery &query, const QByteArray &body,
                                             bool authenticated)
{
    return sendWith(method, path, query, body, authenticated ? token() : QByteArray());
}

tst_Conformance::Reply tst_Conformance::sendWith(const QByteArray &method, const QString &path,
                                                 const QUrlQuery &query, const QByteArray &body,
                                                 const QByteArray &bearer)
{
    QUrl url(m_server->server()->baseUrl().toString() + path);
    url.setQuery(query);
    QNetworkRequest request(url);
    if (!bearer.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + bearer);
    QByteArray sent = body;
    if (path.startsWith(QLatin1String("/oauth/"))) {
        // A token request is a form, as OAuth 2 clients send it.
        QUrlQuery form;
        const QJsonObject fields = QJsonDocument::fromJson(body).object();
        for (auto it = fields.begin(); it != fields.end(); ++it)
            form.addQueryItem(it.key(), it.value().toString());
        sent = form.toString(QUrl::FullyEncoded).toLatin1();
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/x-www-form-urlencoded"));
    } else if (!body.isEmpty()) {
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
    }
    QNetworkReply *reply = m_manager->sendCustomRequest(request, method, sent);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    Reply result;
    if (!finished.wait(10000))
        return result;
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    result.body = reply->readAll();
    result.headers = reply->rawHeaderPairs();
    reply->deleteLater();
    return result;
}

QString tst_Conformance::substitute(QString text) const
{
    for (const auto &[from, to] : m_fixture)
        text.replace(from, to);
    // {sha1('…')}, after the URLs inside were mapped.
    static const QRegularExpression sha1(QStringLiteral("\\{sha1\\('([^']*)'\\)\\}"));
    QRegularExpressionMatch match;
    while ((match = sha1.match(text)).hasMatch()) {
        text.replace(match.capturedStart(), match.capturedLength(),
                     QString::fromLatin1(QCryptographicHash::hash(match.captured(1).toUtf8(),
                                                                  QCryptographicHash::Sha1)
                                             .toHex()));
    }
    return text;
}

void tst_Conformance::wallabagCase_data()
{
    QTest::addColumn<QJsonObject>("wallabagCase");
    QFile file(QStringLiteral(KEEPTRYING_CONFORMANCE_JSON));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    const QJsonObject document = QJsonDocument::fromJson(file.readAll()).object();
    QJsonArray cases = document.value(QLatin1String("cases")).toArray();
    const QJsonArray notCovered = document.value(QLatin1String("not_covered_by_wallabag_tests"))
                                      .toObject()
                                      .value(QLatin1String("cases"))
                                      .toArray();
    for (const QJsonValue &c : notCovered)
        cases.append(c);
    QSet<QString> found;
    for (const QJsonValue &value : std::as_const(cases)) {
        const QString name = value.toObject().value(QLatin1String("name")).toString();
        if (!readSideCases.contains(name))
            continue;
        found.insert(name);
        const QString text =
            substitute(QString::fromUtf8(QJsonDocument(value.toObject()).toJson()));
        QTest::newRow(qPrintable(name)) << QJsonDocument::fromJson(text.toUtf8()).object();
    }
    for (const QString &name : readSideCases)
        QVERIFY2(found.contains(name), qPrintable(name + QStringLiteral(" is not in the file")));
    for (auto it = notRun.cbegin(); it != notRun.cend(); ++it)
        QVERIFY(!readSideCases.contains(it.key()));
}

namespace {

// The values at a dot path: [n] an index, [*] every element; a segment that is a URL or a
// hash is a literal key. Several values only through [*].
QJsonArray valuesAt(const QJsonValue &root, const QString &path, bool *found)
{
    QJsonArray current { root };
    *found = true;
    if (path.isEmpty())
        return current;
    QStringList segments;
    if (path.startsWith(QLatin1String("http")) ||
        QRegularExpression(QStringLiteral("^[0-9a-f]{40}$")).match(path).hasMatch())
        segments << path;
    else
        segments = path.split(QLatin1Char('.'));
    static const QRegularExpression indexed(QStringLiteral("^([^\\[]*)\\[(\\*|[0-9]+)\\]$"));
    for (const QString &segment : std::as_const(segments)) {
        const QRegularExpressionMatch match = indexed.match(segment);
        const QString key = match.hasMatch() ? match.captured(1) : segment;
        QJsonArray next;
        for (const QJsonValue &value : std::as_const(current)) {
            QJsonValue child = value;
            if (!key.isEmpty()) {
                if (!value.toObject().contains(key)) {
                    *found = false;
                    continue;
                }
                child = value.toObject().value(key);
            }
            if (!match.hasMatch()) {
                next.append(child);
            } else if (match.captured(2) == QLatin1String("*")) {
                for (const QJsonValue &element : child.toArray())
                    next.append(element);
            } else {
                const int index = match.captured(2).toInt();
                if (index >= child.toArray().size())
                    *found = false;
                else
                    next.append(child.toArray().at(index));
            }
        }
        current = next;
    }
    return current;
}

bool isEmptyValue(const QJsonValue &v)
{
    return v.isNull() || (v.isString() && v.toString().isEmpty()) ||
        (v.isArray() && v.toArray().isEmpty());
}

bool hasType(const QJsonValue &v, const QString &type)
{
    static const QRegularExpression date(
        QStringLiteral("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{4}$"));
    if (type == QLatin1String("int"))
        return v.isDouble() && v.toDouble() == double(qint64(v.toDouble()));
    if (type == QLatin1String("string"))
        return v.isString();
    if (type == QLatin1String("bool"))
        return v.isBool();
    if (type == QLatin1String("array"))
        return v.isArray();
    if (type == QLatin1String("object"))
        return v.isObject();
    if (type == QLatin1String("date"))
        return v.isString() && date.match(v.toString()).hasMatch();
    return false;
}

// Checks one {"path": …, "<check>": …} of a case; an empty string when it holds.
QString check(const QJsonValue &body, const QJsonObject &spec)
{
    const QString path = spec.value(QLatin1String("path")).toString();
    const bool wildcard = path.contains(QLatin1String("[*]"));
    bool found = false;
    const QJsonArray values = valuesAt(body, path, &found);
    const QJsonValue value = wildcard ? QJsonValue(values)
        : values.isEmpty()            ? QJsonValue()
                                      : values.first();
    const QString where =
        QStringLiteral("'%1' = %2")
            .arg(path,
                 QString::fromUtf8(
                     QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact)));
    for (auto it = spec.begin(); it != spec.end(); ++it) {
        const QString name = it.key();
        const QJsonValue expected = it.value();
        bool ok = true;
        if (name == QLatin1String("path"))
            continue;
        if (name == QLatin1String("present"))
            ok = found == expected.toBool();
        else if (name == QLatin1String("absent"))
            ok = found != expected.toBool();
        else if (!found && !wildcard)
            return QStringLiteral("'%1' is missing (%2)").arg(path, name);
        else if (name == QLatin1String("null"))
            ok = value.isNull() == expected.toBool();
        else if (name == QLatin1String("not_null"))
            ok = !value.isNull() == expected.toBool();
        else if (name == QLatin1String("equals"))
            ok = value == expected ||
                (value.isDouble() && expected.isDouble() &&
                 value.toDouble() == expected.toDouble());
        else if (name == QLatin1String("type"))
            ok = hasType(value, expected.toString());
        else if (name == QLatin1String("count"))
            ok = value.isArray() && value.toArray().size() == expected.toInt();
        else if (name == QLatin1String("count_min"))
            ok = value.isArray() && value.toArray().size() >= expected.toInt();
        else if (name == QLatin1String("min") && expected.isString())
            ok = hasType(value, QStringLiteral("date")) &&
                hasType(expected, QStringLiteral("date")) &&
                QDateTime::fromString(value.toString(), QStringLiteral("yyyy-MM-dd'T'HH:mm:sst")) >=
                    QDateTime::fromString(expected.toString(),
                                          QStringLiteral("yyyy-MM-dd'T'HH:mm:sst"));
        else if (name == QLatin1String("min"))
            ok = value.isDouble() && value.toDouble() >= expected.toDouble();
        else if (name == QLatin1String("gt"))
            ok = value.isDouble() && value.toDouble() > expected.toDouble();
        else if (name == QLatin1String("contains") || name == QLatin1String("not_contains"))
            ok = (value.isString()
                      ? value.toString().contains(expected.toString())
                      : value.toArray().contains(expected)) == (name == QLatin1String("contains"));
        else if (name == QLatin1String("empty"))
            ok = isEmptyValue(value) == expected.toBool();
        else if (name == QLatin1String("not_empty"))
            ok = !isEmptyValue(value) == expected.toBool();
        else if (name == QLatin1String("each_empty") || name == QLatin1String("each_not_empty"))
            ok = std::all_of(values.begin(), values.end(), [&](const QJsonValue &v) {
                return isEmptyValue(v) == (name == QLatin1String("each_empty"));
            });
        else
            return QStringLiteral("unknown check '%1'").arg(name);
        if (!ok)
            return QStringLiteral("%1: %2 %3 failed")
                .arg(where, name,
                     QString::fromUtf8(
                         QJsonDocument(QJsonArray { expected }).toJson(QJsonDocument::Compact)));
    }
    return QString();
}

} // namespace

void tst_Conformance::wallabagCase()
{
    QFETCH(QJsonObject, wallabagCase);
    runCase(wallabagCase, token());
}

void tst_Conformance::wallabagWriteCase_data()
{
    QTest::addColumn<QJsonObject>("wallabagCase");
    QFile file(QStringLiteral(KEEPTRYING_CONFORMANCE_JSON));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    const QJsonObject document = QJsonDocument::fromJson(file.readAll()).object();
    QJsonArray cases = document.value(QLatin1String("cases")).toArray();
    const QJsonArray notCovered = document.value(QLatin1String("not_covered_by_wallabag_tests"))
                                      .toObject()
                                      .value(QLatin1String("cases"))
                                      .toArray();
    for (const QJsonValue &c : notCovered)
        cases.append(c);
    QHash<QString, QJsonObject> byName;
    for (const QJsonValue &value : std::as_const(cases))
        byName.insert(value.toObject().value(QLatin1String("name")).toString(), value.toObject());
    // In the order of the list: some cases build on the one before, and the last ones
    // expire every token.
    for (const QString &name : Conformance::writeSideCases()) {
        QVERIFY2(byName.contains(name), qPrintable(name + QStringLiteral(" is not in the file")));
        QVERIFY(!readSideCases.contains(name));
        QTest::newRow(qPrintable(name)) << byName.value(name);
    }
}

// A write case: its fixture is made through the API first, on the shared server.
void tst_Conformance::wallabagWriteCase()
{
    QFETCH(QJsonObject, wallabagCase);
    const QString name = wallabagCase.value(QLatin1String("name")).toString();
    const Conformance::Setup setup = Conformance::setUp(
        name,
        [this](const QByteArray &method, const QString &path, const QUrlQuery &query,
               const QByteArray &body,
               const QByteArray &bearer) { return sendWith(method, path, query, body, bearer); },
        m_server->server(), token());
    if (!setup.token.isEmpty())
        m_token.clear(); // every token issued so far has expired
    QVERIFY2(setup.error.isEmpty(), qPrintable(setup.error));
    QString text = QString::fromUtf8(QJsonDocument(wallabagCase).toJson(QJsonDocument::Compact));
    for (const auto &[from, to] : setup.substitutions)
        text.replace(from, to);
    const QJsonDocument substituted = QJsonDocument::fromJson(substitute(text).toUtf8());
    QVERIFY2(substituted.isObject(), qPrintable(text));
    const QString auth = wallabagCase.value(QLatin1String("request"))
                             .toObject()
                             .value(QLatin1String("auth"))
                             .toString();
    runCase(substituted.object(),
            auth == QLatin1String("expired token") ? setup.token
                : auth == QLatin1String("none")    ? QByteArray()
                                                   : token());
}

void tst_Conformance::runCase(const QJsonObject &wallabagCase, const QByteArray &bearer)
{
    const QJsonObject request = wallabagCase.value(QLatin1String("request")).toObject();
    const QJsonObject expect = wallabagCase.value(QLatin1String("expect")).toObject();

    QUrlQuery query;
    const QJsonObject items = request.value(QLatin1String("query")).toObject();
    for (auto it = items.begin(); it != items.end(); ++it) {
        const QJsonArray values =
            it.value().isArray() ? it.value().toArray() : QJsonArray { it.value() };
        for (const QJsonValue &v : values)
            query.addQueryItem(it.key(),
                               v.isDouble() ? QString::number(v.toInteger()) : v.toString());
    }
    const QByteArray body = request.contains(QLatin1String("body"))
        ? QJsonDocument(request.value(QLatin1String("body")).toObject()).toJson()
        : QByteArray();
    // Cases read from the source name no auth: they are an authenticated user's, except at
    // the token endpoint, which has no firewall.
    const QString path = request.value(QLatin1String("path")).toString();
    const bool authenticated =
        request.value(QLatin1String("auth")).toString() != QLatin1String("none") &&
        !path.startsWith(QLatin1String("/oauth/"));
    const Reply reply = sendWith(request.value(QLatin1String("method")).toString().toLatin1(), path,
                                 query, body, authenticated ? bearer : QByteArray());
    QVERIFY2(reply.status == expect.value(QLatin1String("status")).toInt(),
             qPrintable(QStringLiteral("HTTP %1: ").arg(reply.status) +
                        QString::fromUtf8(reply.body.left(400))));
    const QJsonObject headers = expect.value(QLatin1String("headers")).toObject();
    for (auto it = headers.begin(); it != headers.end(); ++it) {
        if (it.key() == QLatin1String("Content-Type")) {
            QVERIFY2(reply.contentType.startsWith(it.value().toString().toLatin1()),
                     reply.contentType.constData());
            continue;
        }
        QByteArray got;
        for (const auto &[name, value] : reply.headers) {
            if (name.compare(it.key().toLatin1(), Qt::CaseInsensitive) == 0)
                got = value;
        }
        QCOMPARE(QString::fromLatin1(got), it.value().toString());
    }

    const QJsonValue json = expect.value(QLatin1String("json"));
    if (json.isUndefined())
        return;
    // The body may be a bare JSON value (/api/version answers a string).
    const QJsonDocument wrapped = QJsonDocument::fromJson("[" + reply.body + "]");
    QVERIFY2(wrapped.isArray() && wrapped.array().size() == 1, reply.body.constData());
    const QJsonValue answer = wrapped.array().first();
    if (json.isObject()) {
        // An object: the body holds these keys with these values. A key that is a path
        // (tags[*].label) compares the values there: with a list, as a set; with
        // 'contains "x"', as holding x.
        const QJsonObject want = json.toObject();
        for (auto it = want.begin(); it != want.end(); ++it) {
            if (!it.key().contains(QLatin1Char('.')) && !it.key().contains(QLatin1Char('['))) {
                QCOMPARE(answer.toObject().value(it.key()), it.value());
                continue;
            }
            bool found = false;
            const QJsonArray values = valuesAt(answer, it.key(), &found);
            QStringList got;
            for (const QJsonValue &v : values)
                got << v.toString();
            got.sort();
            if (it.value().isArray()) {
                QStringList expected;
                for (const QJsonValue &v : it.value().toArray())
                    expected << v.toString();
                expected.sort();
                QCOMPARE(got, expected);
            } else {
                static const QRegularExpression contains(QStringLiteral("^contains \"(.*)\"$"));
                const QRegularExpressionMatch m = contains.match(it.value().toString());
                QVERIFY2(m.hasMatch(), qPrintable(it.value().toString()));
                QVERIFY2(got.contains(m.captured(1)), qPrintable(got.join(QLatin1Char(','))));
            }
        }
        return;
    }
    for (const QJsonValue &spec : json.toArray()) {
        const QString failure = check(answer, spec.toObject());
        QVERIFY2(
            failure.isEmpty(),
            qPrintable(failure + QStringLiteral("\n") + QString::fromUtf8(reply.body.left(600))));
    }
}

void tst_Conformance::entryFieldsAndTypes_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("query");
    QTest::newRow("one entry") << QStringLiteral("/api/entries/47.json") << QString();
    QTest::newRow("full list") << QStringLiteral("/api/entries.json")
                               << QStringLiteral("perPage=100");
    QTest::newRow("metadata list")
        << QStringLiteral("/api/entries.json") << QStringLiteral("perPage=100&detail=metadata");
}

void tst_Conformance::entryFieldsAndTypes()
{
    // docs/wallabag.md, "The entry as serialised": every key, null where it has no value.
    QFETCH(QString, path);
    QFETCH(QString, query);
    const Reply reply = send("GET", path, QUrlQuery(query), {}, true);
    QCOMPARE(reply.status, 200);
    const QJsonObject body = QJsonDocument::fromJson(reply.body).object();
    const QJsonArray items = body.contains(QLatin1String("_embedded"))
        ? body.value(QLatin1String("_embedded")).toObject().value(QLatin1String("items")).toArray()
        : QJsonArray { body };
    QVERIFY(!items.isEmpty());
    const bool metadata = query.contains(QLatin1String("metadata"));
    // key → type; "?" after it: may be null.
    const QList<QPair<const char *, const char *>> fields {
        { "id", "int" },
        { "uid", "string?" },
        { "title", "string?" },
        { "url", "string?" },
        { "hashed_url", "string?" },
        { "given_url", "string?" },
        { "hashed_given_url", "string?" },
        { "origin_url", "string?" },
        { "content", metadata ? "null" : "string?" },
        { "created_at", "date" },
        { "updated_at", "date" },
        { "archived_at", "date?" },
        { "starred_at", "date?" },
        { "published_at", "date?" },
        { "published_by", "array?" },
        { "annotations", "array" },
        { "mimetype", "string?" },
        { "language", "string?" },
        { "http_status", "string?" },
        { "headers", "object?" },
        { "reading_time", "int" },
        { "domain_name", "string?" },
        { "preview_picture", "string?" },
        { "tags", "array" },
        { "is_archived", "int" },
        { "is_starred", "int" },
        { "is_public", "bool" },
        { "user_id", "int" },
        { "user_name", "string" },
        { "user_email", "string" },
        { "_links", "object" },
    };
    bool sawPublic = false;
    for (const QJsonValue &value : items) {
        const QJsonObject entry = value.toObject();
        for (const auto &[key, type] : fields) {
            QVERIFY2(entry.contains(QLatin1String(key)), key);
            const QJsonValue v = entry.value(QLatin1String(key));
            QString want = QString::fromLatin1(type);
            if (want == QLatin1String("null")) {
                QVERIFY2(v.isNull(), key);
                continue;
            }
            const bool nullable = want.endsWith(QLatin1Char('?'));
            want.remove(QLatin1Char('?'));
            QVERIFY2((nullable && v.isNull()) || hasType(v, want), key);
        }
        const int archived = entry.value(QLatin1String("is_archived")).toInt();
        QVERIFY(archived == 0 || archived == 1);
        QCOMPARE(entry.value(QLatin1String("is_public")).toBool(),
                 !entry.value(QLatin1String("uid")).isNull());
        sawPublic = sawPublic || entry.value(QLatin1String("is_public")).toBool();
        QVERIFY(entry.value(QLatin1String("_links"))
                    .toObject()
                    .value(QLatin1String("self"))
                    .toObject()
                    .value(QLatin1String("href"))
                    .toString()
                    .startsWith(QLatin1String("/api/entries/")));
        for (const QJsonValue &tag : entry.value(QLatin1String("tags")).toArray()) {
            QVERIFY(hasType(tag.toObject().value(QLatin1String("id")), QStringLiteral("int")));
            QVERIFY(tag.toObject()
                        .value(QLatin1String("slug"))
                        .toString()
                        .startsWith(QLatin1String("t:"))); // 2.6
        }
    }
    QVERIFY(sawPublic); // entry 47 is public
}

void tst_Conformance::sinceIsStrict()
{
    // not_covered_by_wallabag_tests/entries_since_strict: updatedAt > since, whole seconds.
    const QJsonObject entry =
        QJsonDocument::fromJson(
            send("GET", QStringLiteral("/api/entries/3.json"), {}, {}, true).body)
            .object();
    const QDateTime updated =
        QDateTime::fromString(entry.value(QLatin1String("updated_at")).toString(),
                              QStringLiteral("yyyy-MM-dd'T'HH:mm:sst"));
    QVERIFY(updated.isValid());
    const auto ids = [&](qint64 since) {
        QList<int> result;
        const QJsonArray items =
            QJsonDocument::fromJson(
                send("GET", QStringLiteral("/api/entries.json"),
                     QUrlQuery(QStringLiteral("perPage=1000&since=%1").arg(since)), {}, true)
                    .body)
                .object()
                .value(QLatin1String("_embedded"))
                .toObject()
                .value(QLatin1String("items"))
                .toArray();
        for (const QJsonValue &item : items)
            result << item.toObject().value(QLatin1String("id")).toInt();
        return result;
    };
    QVERIFY(!ids(updated.toSecsSinceEpoch()).contains(3));
    QVERIFY(ids(updated.toSecsSinceEpoch() - 1).contains(3));
}

QTEST_GUILESS_MAIN(tst_Conformance)
#include "tst_conformance.moc"
