// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "conformancewrites.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

using KeepTrying::Demo::DemoServer;

namespace Conformance {

namespace {

QJsonObject objectOf(const Reply &reply)
{
    return QJsonDocument::fromJson(reply.body).object();
}

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// The demo's client credentials in a token request's body, where wallabag's test names its
// own (or none: the cases read from the source leave them out).
QList<QPair<QString, QString>> clientCredentials()
{
    const QString client = QStringLiteral("\"client_id\":\"%1\",\"client_secret\":\"%2\"")
                               .arg(DemoServer::demoClientId(), DemoServer::demoClientSecret());
    return {
        { QStringLiteral("\"grant_type\":\"password\""),
          client + QStringLiteral(",\"grant_type\":\"password\"") },
        { QStringLiteral("\"grant_type\":\"refresh_token\""),
          client + QStringLiteral(",\"grant_type\":\"refresh_token\"") },
    };
}

QJsonObject passwordGrant(const Send &send, const QString &username = DemoServer::demoUsername(),
                          const QString &password = DemoServer::demoPassword())
{
    return objectOf(send("POST", QStringLiteral("/oauth/v2/token"), {},
                         json({ { QStringLiteral("grant_type"), QStringLiteral("password") },
                                { QStringLiteral("client_id"), DemoServer::demoClientId() },
                                { QStringLiteral("client_secret"), DemoServer::demoClientSecret() },
                                { QStringLiteral("username"), username },
                                { QStringLiteral("password"), password } }),
                         {}));
}

} // namespace

const QStringList &writeSideCases()
{
    static const QStringList cases = {
        // delete
        QStringLiteral("entry_delete"),
        QStringLiteral("entry_delete_again"),
        QStringLiteral("entry_delete_expect_id"),
        QStringLiteral("entry_delete_expect_invalid"),
        // create and deduplication
        QStringLiteral("entry_post"),
        QStringLiteral("entry_post_same_url"),
        QStringLiteral("entry_post_archived_starred"),
        QStringLiteral("entry_post_archived_starred_ints"),
        QStringLiteral("entry_post_existing_keeps_archived"),
        QStringLiteral("entry_post_existing_keeps_starred"),
        // PATCH, flags
        QStringLiteral("entry_patch"),
        QStringLiteral("entry_patch_ints_and_author_array"),
        QStringLiteral("entry_patch_keeps_archived"),
        QStringLiteral("entry_patch_keeps_starred"),
        // tags of an entry
        QStringLiteral("entry_tags_get"),
        QStringLiteral("entry_tags_add"),
        QStringLiteral("entry_tag_remove"),
        // tokens
        QStringLiteral("token_password"),
        QStringLiteral("token_bad_client"),
        // from not_covered_by_wallabag_tests (read in wallabag's source)
        QStringLiteral("token_wrong_password"),
        QStringLiteral("token_refresh_reused"),
        QStringLiteral("patch_tags_replace"),
        QStringLiteral("remove_tag_not_on_entry"),
        QStringLiteral("tag_labels_lower_cased"),
        // another user's entry (wallabag's bob)
        QStringLiteral("entry_get_other_users"),
        QStringLiteral("entry_get_other_users_body"),
        QStringLiteral("entry_patch_other_users"),
        QStringLiteral("entry_delete_other_users"),
        QStringLiteral("entry_tags_get_other_users"),
        QStringLiteral("entry_tags_add_other_users"),
        QStringLiteral("entry_tag_remove_other_users"),
        QStringLiteral("entries_list_other_users_not_listed"),
        // last: they expire every token issued so far
        QStringLiteral("expired_access_token"),
        QStringLiteral("expired_token_on_anonymous_path"),
    };
    return cases;
}

Setup setUp(const QString &name, const Send &send, DemoServer *server, const QByteArray &token)
{
    Setup setup;
    static int serial = 0;
    // An entry of the demo user, made as a client makes one; its answer.
    const auto create = [&](QJsonObject fields) {
        if (!fields.contains(QLatin1String("url")))
            fields.insert(QStringLiteral("url"),
                          QStringLiteral("http://0.0.0.0/%1-%2").arg(name).arg(++serial));
        const Reply reply =
            send("POST", QStringLiteral("/api/entries.json"), {}, json(fields), token);
        if (reply.status != 200)
            setup.error = QStringLiteral("creating the fixture entry: HTTP %1").arg(reply.status);
        return objectOf(reply);
    };
    // Placeholders of the entry \a entry: quoted ones become JSON numbers.
    const auto entryIs = [&](const QJsonObject &entry) {
        const QString id = QString::number(entry.value(QLatin1String("id")).toInt());
        setup.substitutions << QPair<QString, QString> { QStringLiteral("\"{entry.id}\""), id }
                            << QPair<QString, QString> { QStringLiteral("{entry.id}"), id };
        setup.substitutions << QPair<QString, QString> { QStringLiteral("{id}"), id };
        for (const char *field : { "url", "title", "content", "language" })
            setup.substitutions << QPair<QString, QString> {
                QStringLiteral("{entry.%1}").arg(QLatin1String(field)),
                entry.value(QLatin1String(field)).toString()
            };
    };
    const auto tagCount = [](const QJsonObject &entry) {
        return int(entry.value(QLatin1String("tags")).toArray().size());
    };
    const QJsonObject tags { { QStringLiteral("tags"), QStringLiteral("one,two") } };
    setup.substitutions << QPair<QString, QString> {
        QStringLiteral("{unique}"), QString::number(++serial)
    } << QPair<QString, QString> { QStringLiteral("\"{user.id}\""), QStringLiteral("1") };

    if (name == QLatin1String("entry_delete")) {
        entryIs(
            create({ { QStringLiteral("url"), QStringLiteral("http://0.0.0.0/test-delete-entry") },
                     { QStringLiteral("title"), QStringLiteral("Test delete entry") } }));
    } else if (name == QLatin1String("entry_delete_again")) {
        const QJsonObject entry = create({});
        entryIs(entry);
        send("DELETE",
             QStringLiteral("/api/entries/%1.json").arg(entry.value(QLatin1String("id")).toInt()),
             {}, {}, token);
    } else if (name == QLatin1String("entry_delete_expect_id")) {
        entryIs(create(
            { { QStringLiteral("url"), QStringLiteral("http://0.0.0.0/test-delete-entry-id") } }));
    } else if (name == QLatin1String("entry_post")) {
        // wallabag's count includes 'foot', which a tagging rule of its test user adds; the
        // demo has no tagging rules.
        setup.substitutions << QPair<QString, QString> {
            QStringLiteral("{\"count\":2,\"path\":\"tags\"}"),
            QStringLiteral("{\"count\":1,\"path\":\"tags\"}")
        };
    } else if (name == QLatin1String("entry_post_same_url")) {
        create({ { QStringLiteral("url"),
                   QStringLiteral("https://www.lemonde.fr/pixels/article/2015/03/28/"
                                  "plongee-dans-l-univers-d-ingress-le-jeu-de-google-aux-"
                                  "frontieres-du-reel_4601155_4408996.html") },
                 { QStringLiteral("archive"), 1 },
                 { QStringLiteral("tags"), QStringLiteral("google,apple") } });
        setup.substitutions << QPair<QString, QString> {
            // google, apple; no 'foot' (above)
            QStringLiteral("{\"count\":3,\"path\":\"tags\"}"),
            QStringLiteral("{\"count\":2,\"path\":\"tags\"}")
        };
    } else if (name == QLatin1String("entry_post_archived_starred")) {
        setup.substitutions << QPair<QString, QString> {
            QStringLiteral("{request_time}"),
            QDateTime::currentDateTimeUtc().addSecs(-1).toString(
                QStringLiteral("yyyy-MM-dd'T'HH:mm:ss'+0000'"))
        };
    } else if (name == QLatin1String("entry_post_existing_keeps_archived")) {
        entryIs(create({ { QStringLiteral("archive"), 1 } }));
    } else if (name == QLatin1String("entry_post_existing_keeps_starred")) {
        entryIs(create({ { QStringLiteral("starred"), 1 } }));
    } else if (name == QLatin1String("entry_patch") ||
               name == QLatin1String("entry_patch_ints_and_author_array")) {
        entryIs(create({ { QStringLiteral("title"), QStringLiteral("A title") },
                         { QStringLiteral("content"), QStringLiteral("some content") },
                         { QStringLiteral("language"), QStringLiteral("fr") } }));
    } else if (name == QLatin1String("entry_patch_keeps_archived")) {
        entryIs(create({ { QStringLiteral("title"), QStringLiteral("Kept archived") },
                         { QStringLiteral("archive"), 1 } }));
    } else if (name == QLatin1String("entry_patch_keeps_starred")) {
        entryIs(create({ { QStringLiteral("title"), QStringLiteral("Kept starred") },
                         { QStringLiteral("starred"), 1 } }));
    } else if (name == QLatin1String("entry_tags_get")) {
        const QJsonObject entry = create(tags);
        entryIs(entry);
        QJsonArray expected;
        for (const QJsonValue &tag : entry.value(QLatin1String("tags")).toArray()) {
            const QJsonObject t = tag.toObject();
            expected.append(
                QJsonObject { { QStringLiteral("id"), t.value(QLatin1String("id")) },
                              { QStringLiteral("label"), t.value(QLatin1String("label")) },
                              { QStringLiteral("slug"), t.value(QLatin1String("slug")) } });
        }
        setup.substitutions << QPair<QString, QString> {
            QStringLiteral("\"[{id,label,slug} for each tag of the entry]\""),
            QString::fromUtf8(QJsonDocument(expected).toJson(QJsonDocument::Compact))
        };
    } else if (name == QLatin1String("entry_tags_add")) {
        const QJsonObject entry = create(tags);
        entryIs(entry);
        setup.substitutions << QPair<QString, QString> { QStringLiteral("\"{N+3}\""),
                                                         QString::number(tagCount(entry) + 3) };
    } else if (name == QLatin1String("entry_tag_remove")) {
        const QJsonObject entry = create(tags);
        entryIs(entry);
        setup.substitutions << QPair<QString, QString> { QStringLiteral("{tag.id}"),
                                                         QString::number(
                                                             entry.value(QLatin1String("tags"))
                                                                 .toArray()
                                                                 .first()
                                                                 .toObject()
                                                                 .value(QLatin1String("id"))
                                                                 .toInt()) }
                            << QPair<QString, QString> { QStringLiteral("\"{N-1}\""),
                                                         QString::number(tagCount(entry) - 1) };
    } else if (name.startsWith(QLatin1String("token_"))) {
        setup.substitutions << QPair<QString, QString> { QStringLiteral("{client.public_id}"),
                                                         DemoServer::demoClientId() }
                            << QPair<QString, QString> { QStringLiteral("{client.secret}"),
                                                         DemoServer::demoClientSecret() }
                            << QPair<QString, QString> { QStringLiteral("\"username\":\"admin\""),
                                                         QStringLiteral("\"username\":\"%1\"")
                                                             .arg(DemoServer::demoUsername()) }
                            << QPair<QString, QString> { QStringLiteral("\"mypassword\""),
                                                         QStringLiteral("\"%1\"").arg(
                                                             DemoServer::demoPassword()) };
        if (name != QLatin1String("token_password") && name != QLatin1String("token_bad_client"))
            setup.substitutions << clientCredentials();
        if (name == QLatin1String("token_refresh_reused")) {
            const QString refresh =
                passwordGrant(send).value(QLatin1String("refresh_token")).toString();
            const Reply first =
                send("POST", QStringLiteral("/oauth/v2/token"), {},
                     json({ { QStringLiteral("grant_type"), QStringLiteral("refresh_token") },
                            { QStringLiteral("client_id"), DemoServer::demoClientId() },
                            { QStringLiteral("client_secret"), DemoServer::demoClientSecret() },
                            { QStringLiteral("refresh_token"), refresh } }),
                     {});
            if (refresh.isEmpty() || first.status != 200)
                setup.error = QStringLiteral("the first refresh failed: HTTP %1").arg(first.status);
            setup.substitutions << QPair<QString, QString> {
                QStringLiteral("{a refresh token already used once}"), refresh
            };
        }
    } else if (name == QLatin1String("patch_tags_replace")) {
        entryIs(create({ { QStringLiteral("tags"), QStringLiteral("x,y") } }));
    } else if (name == QLatin1String("remove_tag_not_on_entry")) {
        const QJsonObject other =
            create({ { QStringLiteral("tags"), QStringLiteral("only-there") } });
        entryIs(create({}));
        setup.substitutions << QPair<QString, QString> {
            QStringLiteral("{existing tag id not on the entry}"),
            QString::number(other.value(QLatin1String("tags"))
                                .toArray()
                                .first()
                                .toObject()
                                .value(QLatin1String("id"))
                                .toInt())
        };
    } else if (name == QLatin1String("tag_labels_lower_cased")) {
        entryIs(create({}));
    } else if (name.contains(QLatin1String("_other_users"))) {
        // wallabag's bob: the demo's second user saves an entry with a tag of its own.
        const QByteArray bob =
            passwordGrant(send, DemoServer::otherUsername(), DemoServer::otherPassword())
                .value(QLatin1String("access_token"))
                .toString()
                .toLatin1();
        const Reply reply =
            send("POST", QStringLiteral("/api/entries.json"), {},
                 json({ { QStringLiteral("url"),
                          QStringLiteral("http://0.0.0.0/%1-%2").arg(name).arg(++serial) },
                        { QStringLiteral("tags"), QStringLiteral("bob") } }),
                 bob);
        if (bob.isEmpty() || reply.status != 200)
            setup.error = QStringLiteral("the other user's entry: HTTP %1").arg(reply.status);
        const QJsonObject entry = objectOf(reply);
        entryIs(entry);
        setup.substitutions << QPair<QString, QString> { QStringLiteral("{tag.id}"),
                                                         QString::number(
                                                             entry.value(QLatin1String("tags"))
                                                                 .toArray()
                                                                 .first()
                                                                 .toObject()
                                                                 .value(QLatin1String("id"))
                                                                 .toInt()) };
    } else if (name.startsWith(QLatin1String("expired_"))) {
        setup.token =
            passwordGrant(send).value(QLatin1String("access_token")).toString().toLatin1();
        if (setup.token.isEmpty())
            setup.error = QStringLiteral("no token to expire");
        server->expireAccessTokens();
    }
    return setup;
}

} // namespace Conformance
