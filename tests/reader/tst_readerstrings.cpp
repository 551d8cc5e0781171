// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include <QtCore/QFile>
#include <QtCore/QRegularExpression>
#include <QtCore/QXmlStreamReader>
#include <QtTest/QTest>

/*
    Every string of the reader a person can see, as lupdate lists them in the German .ts
    (the build's update_translations target keeps it complete): none names a route, an HTTP
    status, an attempt count, a header or a port. Those belong in the Developer window and
    the log, whose contexts are left aside here. The German translations obey the same
    rules, and every string has one (with each plural form where the text counts with %n).
*/
class tst_ReaderStrings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void noEngineeringWords_data();
    void noEngineeringWords();
    void everyStringTranslated();

private:
    struct Message
    {
        QString context;
        QString source;
        QStringList translations; // one per plural form
        bool unfinished = false;
        bool numerus = false;
    };
    QList<Message> m_messages;
};

namespace {

// Where the engineer's words are the point: Developer ▸ Faults and Request Log.
const QStringList developerContexts = { QStringLiteral("DeveloperWindow"),
                                        QStringLiteral("RequestLog") };

struct Rule
{
    const char *name;
    QRegularExpression pattern;
};

QList<Rule> rules()
{
    const auto re = [](const char *p) {
        return QRegularExpression(QString::fromUtf8(p), QRegularExpression::CaseInsensitiveOption);
    };
    return {
        { "a route", re("/api/|/oauth/|\\.json\\b") },
        // 1xx–5xx next to HTTP, or alone in parentheses: "HTTP 503", "(422)", "(422 Unpro…)".
        { "an HTTP status", re("HTTP\\s*(%\\d|[1-5]\\d\\d\\b)|\\(\\s*[1-5]\\d\\d\\b") },
        // A status filled in: "it answered %2", "(%2 %3)" (code and reason phrase).
        { "an HTTP status filled in", re("answered %\\d|\\(%\\d %\\d\\)") },
        { "an attempt count", re("\\battempt") },
        { "a header name", re("Idempotency|Retry-After|Content-Range") },
        // ":8080", or a port filled in after a host: "%1:%2".
        { "a port", re(":\\d{2,5}\\b|%\\d:%\\d") },
    };
}

} // namespace

void tst_ReaderStrings::initTestCase()
{
    QFile file(QStringLiteral(KEEPTRYING_READER_TS));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    QXmlStreamReader xml(&file);
    QString context;
    Message message;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1String("message")) {
            message = Message();
            message.context = context;
            message.numerus =
                xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        } else if (xml.name() == QLatin1String("source")) {
            message.source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            const QString type = xml.attributes().value(QLatin1String("type")).toString();
            message.unfinished =
                type == QLatin1String("unfinished") || type == QLatin1String("obsolete");
            if (!message.numerus) {
                message.translations << xml.readElementText();
                m_messages << message;
            } else {
                while (xml.readNextStartElement()) {
                    if (xml.name() == QLatin1String("numerusform"))
                        message.translations << xml.readElementText();
                    else
                        xml.skipCurrentElement();
                }
                m_messages << message;
            }
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(m_messages.size() > 100);
}

void tst_ReaderStrings::noEngineeringWords_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("text");
    for (const Message &m : std::as_const(m_messages)) {
        if (developerContexts.contains(m.context))
            continue;
        QTest::addRow("%s: %s", qPrintable(m.context), qPrintable(m.source.left(60)))
            << m.context << m.source;
        for (const QString &t : m.translations) {
            if (!t.isEmpty())
                QTest::addRow("%s (de): %s", qPrintable(m.context), qPrintable(t.left(60)))
                    << m.context << t;
        }
    }
}

void tst_ReaderStrings::noEngineeringWords()
{
    QFETCH(QString, context);
    QFETCH(QString, text);
    for (const Rule &rule : rules()) {
        const QRegularExpressionMatch match = rule.pattern.match(text);
        QVERIFY2(
            !match.hasMatch(),
            qPrintable(QStringLiteral("%1 says %2 (“%3”) to the user: “%4”")
                           .arg(context, QString::fromUtf8(rule.name), match.captured(), text)));
    }
}

void tst_ReaderStrings::everyStringTranslated()
{
    QStringList missing;
    for (const Message &m : std::as_const(m_messages)) {
        bool complete = !m.unfinished && !m.translations.isEmpty();
        for (const QString &t : m.translations)
            complete = complete && !t.trimmed().isEmpty();
        // German has two plural forms: singular and plural.
        if (m.numerus)
            complete = complete && m.translations.size() == 2;
        if (!complete)
            missing << m.context + QStringLiteral(": ") + m.source;
    }
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("%1 strings without a German translation, e.g.\n  %2")
                            .arg(missing.size())
                            .arg(missing.mid(0, 10).join(QStringLiteral("\n  ")))));
}

QTEST_APPLESS_MAIN(tst_ReaderStrings)

#include "tst_readerstrings.moc"
