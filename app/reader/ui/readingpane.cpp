// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "readingpane.h"

#include "library/imagestore.h"

#include <QtCore/QLocale>
#include <QtGui/QResizeEvent>
#include <QtGui/QTextDocument>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QToolButton>

namespace {

// Qt's rich text understands a subset of CSS 2.1; these are the rules it honours.
QString articleStyleSheet(bool dark)
{
    const QString text = dark ? QStringLiteral("#e6e6e6") : QStringLiteral("#1f2328");
    const QString heading = dark ? QStringLiteral("#f5f5f5") : QStringLiteral("#111418");
    const QString muted = dark ? QStringLiteral("#a0a7b4") : QStringLiteral("#5f6673");
    const QString link = dark ? QStringLiteral("#8cb4ff") : QStringLiteral("#1a5fb4");
    const QString code = dark ? QStringLiteral("#2b2f36") : QStringLiteral("#f3f4f6");
    const QString tagText = dark ? QStringLiteral("#ffe08a") : QStringLiteral("#6b5400");
    const QString tagBack = dark ? QStringLiteral("#4a3d12") : QStringLiteral("#fff1c2");
    return QStringLiteral(
               "body { color: %1; }"
               "h1 { font-size: x-large; font-weight: 600; color: %2; margin-bottom: 4px; }"
               "h2 { font-size: large; font-weight: 600; margin-top: 18px; color: %2; }"
               "h3 { font-weight: 600; margin-top: 14px; color: %2; }"
               "p { margin-top: 0px; margin-bottom: 14px; line-height: 150%; }"
               "li { line-height: 150%; }"
               "a { color: %4; text-decoration: none; }"
               "blockquote { color: %3; margin-left: 18px; }"
               "pre, code { font-family: monospace; background-color: %5; }"
               ".meta { color: %3; margin-bottom: 18px; }"
               ".tag { color: %6; background-color: %7; }"
               ".source { color: %3; margin-top: 24px; }"
               ".placeholder { color: %3; }")
        .arg(text, heading, muted, link, code, tagText, tagBack);
}

} // namespace

ReadingPane::ReadingPane(ImageStore *images, QWidget *parent)
    : QTextBrowser(parent), m_images(images)
{
    // The window opens links, and says so when no browser can (QDesktopServices fails
    // silently here).
    setOpenLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        // A placeholder's action is a link within the page ("#…"): never handed to a browser.
        if (m_articleId == 0 && url.path().isEmpty() &&
            url.fragment() == QLatin1String("placeholder-action"))
            Q_EMIT placeholderActionChosen();
        else if (url.isRelative() && url.path().isEmpty() && url.hasFragment())
            scrollToAnchor(url.fragment()); // a footnote in the article
        else
            Q_EMIT linkActivated(m_server.resolved(url));
    });
    setFrameShape(QFrame::NoFrame);

    // Star and Archive, above the text, in a strip of their own that does not scroll.
    m_controls = new QWidget(this);
    m_controls->setObjectName(QStringLiteral("articleControls"));
    m_controls->setAutoFillBackground(true);
    auto *row = new QHBoxLayout(m_controls);
    row->setContentsMargins(30, 6, 30, 2);
    const auto button = [this](const QString &name, const QString &tip) {
        auto *b = new QToolButton(m_controls);
        b->setObjectName(name);
        b->setCheckable(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setAutoRaise(true);
        b->setToolTip(tip);
        return b;
    };
    m_star = button(QStringLiteral("starButton"), tr("Star or unstar this article (F)"));
    m_archive =
        button(QStringLiteral("archiveButton"), tr("Archive this article, or move it back (A)"));
    // As wide as the wider of their two words: "☆ Star" becoming "★ Starred" does not
    // push Archive aside.
    const auto stableWidth = [](QToolButton *b, const QStringList &texts) {
        int widest = 0;
        for (const QString &text : texts) {
            b->setText(text);
            widest = qMax(widest, b->sizeHint().width());
        }
        b->setMinimumWidth(widest);
    };
    stableWidth(m_star, { tr("★ Starred"), tr("☆ Star") });
    stableWidth(m_archive, { tr("✓ Archived"), tr("Archive") });
    row->addWidget(m_star);
    row->addWidget(m_archive);
    row->addStretch();
    connect(m_star, &QToolButton::clicked, this, &ReadingPane::starClicked);
    connect(m_archive, &QToolButton::clicked, this, &ReadingPane::archiveClicked);
    // The strip keeps its height when a placeholder hides the buttons: no jump.
    m_controls->setFixedHeight(m_controls->sizeHint().height());
    setViewportMargins(0, m_controls->height(), 0, 0);
    showState(nullptr);
    document()->setDocumentMargin(36);
    m_pointSize = font().pointSizeF() * 1.15;
    applyLook();
    connect(m_images, &ImageStore::imageReady, this, &ReadingPane::imageArrived);
}

void ReadingPane::applyLook()
{
    QPalette p = palette();
    p.setColor(QPalette::Base, m_dark ? QColor(0x1e, 0x20, 0x24) : QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Text, m_dark ? QColor(0xe6, 0xe6, 0xe6) : QColor(0x1f, 0x23, 0x28));
    setPalette(p);
    if (m_controls) {
        m_controls->setPalette(p);
        QPalette buttons = m_controls->palette();
        buttons.setColor(QPalette::Window, p.color(QPalette::Base));
        buttons.setColor(QPalette::ButtonText, p.color(QPalette::Text));
        buttons.setColor(QPalette::WindowText, p.color(QPalette::Text));
        m_controls->setPalette(buttons);
    }
    document()->setDefaultStyleSheet(articleStyleSheet(m_dark));
    QFont body = font();
    body.setPointSizeF(m_pointSize);
    document()->setDefaultFont(body);
    if (!m_html.isEmpty()) {
        const int position = verticalScrollBar()->value();
        setHtml(m_html); // the style sheet applies when the HTML is read
        verticalScrollBar()->setValue(position);
    }
}

void ReadingPane::showState(const Article *article)
{
    m_controls->setEnabled(article);
    m_star->setVisible(article);
    m_archive->setVisible(article);
    if (!article)
        return;
    // The words say the state, the check shows it: "★ Starred" pressed, "☆ Star" not.
    m_star->setChecked(article->starred);
    m_star->setText(article->starred ? tr("★ Starred") : tr("☆ Star"));
    m_star->setAccessibleName(article->starred ? tr("Starred") : tr("Star"));
    m_archive->setChecked(article->archived);
    m_archive->setText(article->archived ? tr("✓ Archived") : tr("Archive"));
    m_archive->setAccessibleName(article->archived ? tr("Archived") : tr("Archive"));
}

void ReadingPane::placeControls()
{
    const QRect area = viewport()->geometry();
    const int height = m_controls->height();
    m_controls->setGeometry(area.left(), area.top() - height, area.width(), height);
}

void ReadingPane::resizeEvent(QResizeEvent *event)
{
    QTextBrowser::resizeEvent(event);
    placeControls();
}

void ReadingPane::setFontPointSize(qreal points)
{
    m_pointSize = qBound<qreal>(8, points, 32);
    applyLook();
}

void ReadingPane::setDark(bool dark)
{
    m_dark = dark;
    applyLook();
}

void ReadingPane::showArticle(const Article &article, const QString &missingText,
                              int scrollPosition)
{
    m_articleId = article.id;
    m_waitingFor.clear();
    m_names.clear();
    m_showsContent = article.hasContent;
    showState(&article);

    QStringList meta;
    if (!article.domain.isEmpty())
        meta << article.domain.toHtmlEscaped();
    if (article.readingTimeMinutes > 0)
        meta << tr("%1 min read").arg(article.readingTimeMinutes);
    if (article.createdAt.isValid())
        meta << tr("saved %1")
                    .arg(QLocale().toString(article.createdAt.toLocalTime().date(),
                                            QLocale::ShortFormat));
    QString tags;
    for (const QString &tag : article.tags)
        tags += QStringLiteral(" <span class=\"tag\">&nbsp;") + tag.toHtmlEscaped() +
            QStringLiteral("&nbsp;</span>");

    QString html = QStringLiteral("<h1>") + article.title.toHtmlEscaped() +
        QStringLiteral("</h1><p class=\"meta\">") + meta.join(QStringLiteral(" &nbsp;·&nbsp; ")) +
        tags + QStringLiteral("</p>");
    if (article.syncState == SyncState::Failed && !article.syncError.isEmpty())
        html += QStringLiteral("<p class=\"placeholder\">") +
            tr("Your last change to this article was not saved: %1")
                .arg(article.syncError.toHtmlEscaped()) +
            QStringLiteral("</p>");
    if (!article.hasContent)
        html += QStringLiteral("<p class=\"placeholder\">") + missingText.toHtmlEscaped() +
            QStringLiteral("</p>");
    else
        html += article.content;
    if (article.url.isValid()) {
        html += QStringLiteral("<p class=\"source\">") + tr("Original: ") +
            QStringLiteral("<a href=\"") + article.url.toString().toHtmlEscaped() +
            QStringLiteral("\">") + article.url.toDisplayString().toHtmlEscaped() +
            QStringLiteral("</a></p>");
    }
    m_html = html;
    setHtml(html);
    verticalScrollBar()->setValue(scrollPosition);
}

void ReadingPane::showPlaceholder(const QString &title, const QString &text, const QString &action)
{
    m_articleId = 0;
    m_showsContent = false;
    m_waitingFor.clear();
    showState(nullptr);
    m_html = QStringLiteral("<h1>") + title.toHtmlEscaped() +
        QStringLiteral("</h1><p class=\"placeholder\">") + text.toHtmlEscaped() +
        QStringLiteral("</p>");
    if (!action.isEmpty())
        m_html += QStringLiteral("<p><a href=\"#placeholder-action\">") + action.toHtmlEscaped() +
            QStringLiteral("</a></p>");
    setHtml(m_html);
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
    m_images->request(url, ImageStore::Use::Article);
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
