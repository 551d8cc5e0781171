// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "readingpane.h"

#include "imagestore.h"

#include <QtGui/QTextDocument>
#include <QtWidgets/QScrollBar>

namespace {

// Qt's rich text understands a subset of CSS 2.1; these are the rules it honours.
const char StyleSheet[] = R"(
    body { color: #1f2328; }
    h1 { font-size: 20pt; font-weight: 600; color: #111418; margin-bottom: 4px; }
    h2 { font-size: 15pt; font-weight: 600; margin-top: 18px; }
    h3 { font-size: 13pt; font-weight: 600; margin-top: 14px; }
    p { margin-top: 0px; margin-bottom: 14px; line-height: 140%; }
    a { color: #1a5fb4; text-decoration: none; }
    blockquote { color: #4b5563; margin-left: 18px; }
    pre, code { font-family: monospace; background-color: #f3f4f6; }
    .meta { color: #6b7280; font-size: 10pt; margin-bottom: 18px; }
    .tag { color: #6b5400; background-color: #fff1c2; }
    .source { color: #6b7280; font-size: 10pt; margin-top: 24px; }
    .placeholder { color: #6b7280; font-size: 12pt; }
)";

} // namespace

ReadingPane::ReadingPane(ImageStore *images, QWidget *parent)
    : QTextBrowser(parent), m_images(images)
{
    setOpenExternalLinks(true);
    setFrameShape(QFrame::NoFrame);
    document()->setDefaultStyleSheet(QString::fromUtf8(StyleSheet));
    document()->setDocumentMargin(36);
    QFont body = font();
    body.setPointSizeF(body.pointSizeF() * 1.15);
    document()->setDefaultFont(body);
    connect(m_images, &ImageStore::imageReady, this, &ReadingPane::imageArrived);
}

void ReadingPane::showArticle(const Article &article)
{
    m_articleId = article.id;
    m_waitingFor.clear();
    m_names.clear();

    QStringList meta;
    if (!article.domain.isEmpty())
        meta << article.domain.toHtmlEscaped();
    if (article.readingTimeMinutes > 0)
        meta << tr("%1 min read").arg(article.readingTimeMinutes);
    if (article.createdAt.isValid())
        meta << QLocale().toString(article.createdAt.date(), QLocale::ShortFormat);
    QString tags;
    for (const QString &tag : article.tags)
        tags += QStringLiteral(" <span class=\"tag\">&nbsp;") + tag.toHtmlEscaped() +
            QStringLiteral("&nbsp;</span>");

    QString html = QStringLiteral("<h1>") + article.title.toHtmlEscaped() +
        QStringLiteral("</h1><p class=\"meta\">") + meta.join(QStringLiteral(" &nbsp;·&nbsp; ")) +
        tags + QStringLiteral("</p>");
    if (article.content.isEmpty())
        html += QStringLiteral("<p class=\"placeholder\">") + tr("Loading the article…") +
            QStringLiteral("</p>");
    else
        html += article.content;
    if (article.url.isValid()) {
        html += QStringLiteral("<p class=\"source\">") + tr("Original: ") +
            QStringLiteral("<a href=\"") + article.url.toString().toHtmlEscaped() +
            QStringLiteral("\">") + article.url.toDisplayString().toHtmlEscaped() +
            QStringLiteral("</a></p>");
    }
    setHtml(html);
    verticalScrollBar()->setValue(0);
}

void ReadingPane::showPlaceholder(const QString &title, const QString &text)
{
    m_articleId = 0;
    m_waitingFor.clear();
    setHtml(QStringLiteral("<h1>") + title.toHtmlEscaped() +
            QStringLiteral("</h1><p class=\"placeholder\">") + text.toHtmlEscaped() +
            QStringLiteral("</p>"));
}

QVariant ReadingPane::loadResource(int type, const QUrl &name)
{
    // Articles come from a server: they may show web images, never local files.
    const QUrl url = m_server.resolved(name);
    if (type != QTextDocument::ImageResource ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return {};
    const QImage image = m_images->image(url);
    if (!image.isNull())
        return image;
    // Not here yet: ask for it and lay the document out again when it comes.
    m_waitingFor.insert(url);
    if (name != url)
        m_names.insert(url, name);
    m_images->request(url);
    return {};
}

void ReadingPane::setServer(const QUrl &server)
{
    m_server = server;
}

void ReadingPane::imageArrived(const QUrl &url)
{
    if (!m_waitingFor.remove(url))
        return;
    // Registered under the name the document uses, which may be relative.
    const QList<QUrl> names = m_names.values(url);
    for (const QUrl &name : names)
        document()->addResource(QTextDocument::ImageResource, name, m_images->image(url));
    document()->addResource(QTextDocument::ImageResource, url, m_images->image(url));
    document()->markContentsDirty(0, document()->characterCount());
}
