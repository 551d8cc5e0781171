// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_READINGPANE_H
#define KEEPTRYING_READER_READINGPANE_H

#include "library/article.h"

#include <QtCore/QMultiHash>
#include <QtCore/QSet>
#include <QtWidgets/QTextBrowser>

QT_BEGIN_NAMESPACE
class QToolButton;
QT_END_NAMESPACE

class ImageStore;

/*
    Shows one article: its title, site, reading time and tags, then its HTML content, in
    comfortable type (a readable measure, generous line height) at the size the user chose,
    light or dark. Pictures inside the article come from the ImageStore (and so through
    the retrying manager) and appear when they arrive. An article whose content is not here
    says so instead, with the reason the window gives. Above the article, Star and Archive
    buttons show its state and change it (as f and a do); links go to linkActivated(), for
    the window to open and to say so when no browser can.
*/
class ReadingPane : public QTextBrowser
{
    Q_OBJECT

public:
    explicit ReadingPane(ImageStore *images, QWidget *parent = nullptr);

    /*! Relative links and pictures in articles are resolved against \a server. */
    void setServer(const QUrl &server);
    /*! Shows \a article; without content, \a missingText says why (e.g. "not available
        offline yet"). Scrolls to \a scrollPosition (pixels). */
    void showArticle(const Article &article, const QString &missingText, int scrollPosition = 0);
    /*! Shows \a title and \a text in place of an article; a non-empty \a action is a link
        below them that emits placeholderActionChosen() (e.g. "Sign In…"). */
    void showPlaceholder(const QString &title, const QString &text,
                         const QString &action = QString());
    qint64 articleId() const { return m_articleId; }
    /*! True when the article shown has its content. */
    bool showsContent() const { return m_showsContent; }
    QToolButton *starButton() const { return m_star; }
    QToolButton *archiveButton() const { return m_archive; }

    /*! Body text size in points (8..32). */
    void setFontPointSize(qreal points);
    qreal fontPointSize() const { return m_pointSize; }
    void setDark(bool dark);
    bool isDark() const { return m_dark; }

Q_SIGNALS:
    /*! The link of the placeholder's action was clicked or pressed. */
    void placeholderActionChosen();
    /*! The Star button was pressed: star the article shown, or unstar it. */
    void starClicked();
    /*! The Archive button was pressed: archive the article shown, or move it back. */
    void archiveClicked();
    /*! A link in the article (or its original's address) was clicked. */
    void linkActivated(const QUrl &url);

protected:
    QVariant loadResource(int type, const QUrl &name) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void imageArrived(const QUrl &url);
    void applyLook();
    void showState(const Article *article);
    void placeControls();

    ImageStore *m_images;
    QWidget *m_controls = nullptr;
    QToolButton *m_star = nullptr;
    QToolButton *m_archive = nullptr;
    QUrl m_server;
    QSet<QUrl> m_waitingFor;
    QMultiHash<QUrl, QUrl> m_names; // resolved URL -> name in the document
    QString m_html;
    qint64 m_articleId = 0;
    qreal m_pointSize = 12;
    bool m_dark = false;
    bool m_showsContent = false;
};

#endif // KEEPTRYING_READER_READINGPANE_H
