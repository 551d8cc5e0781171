// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#include "certificatedialog.h"

#include <QtGui/QFontDatabase>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStyle>
#include <QtWidgets/QVBoxLayout>

namespace {

QString names(const QSslCertificate &certificate)
{
    QStringList all = certificate.subjectInfo(QSslCertificate::CommonName);
    const auto alternates = certificate.subjectAlternativeNames();
    for (auto it = alternates.cbegin(); it != alternates.cend(); ++it) {
        if (!all.contains(it.value()))
            all << it.value();
    }
    return all.isEmpty() ? QObject::tr("no name") : all.join(QStringLiteral(", "));
}

QString issuer(const QSslCertificate &certificate)
{
    if (certificate.issuerDisplayName() == certificate.subjectDisplayName() &&
        certificate.issuerInfo(QSslCertificate::Organization) ==
            certificate.subjectInfo(QSslCertificate::Organization))
        return QObject::tr("itself");
    QStringList parts = certificate.issuerInfo(QSslCertificate::CommonName);
    parts << certificate.issuerInfo(QSslCertificate::Organization);
    parts.removeDuplicates();
    parts.removeAll(QString());
    return parts.isEmpty() ? certificate.issuerDisplayName() : parts.join(QStringLiteral(", "));
}

QLabel *label(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

} // namespace

CertificateDialog::CertificateDialog(const CertificateTrust::Refusal &refusal, Mode mode,
                                     QWidget *parent)
    : QDialog(parent), m_refusal(refusal), m_mode(mode)
{
    setObjectName(QStringLiteral("certificateDialog"));
    const QString host = QUrl(refusal.origin).host();
    const QSslCertificate &certificate = refusal.certificate;
    setWindowTitle(mode == Mode::Offer ? tr("Check the Server's Certificate")
                                       : tr("The Server's Certificate Has Changed"));

    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    auto *icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    icon->setPixmap(style()
                        ->standardIcon(mode == Mode::Offer ? QStyle::SP_MessageBoxQuestion
                                                           : QStyle::SP_MessageBoxWarning,
                                       nullptr, this)
                        .pixmap(size, size));
    icon->setAlignment(Qt::AlignTop);
    top->addWidget(icon);
    auto *words = new QVBoxLayout;
    auto *heading =
        label(mode == Mode::Offer
                  ? tr("%1 uses a certificate that this computer does not trust.").arg(host)
                  : tr("%1 presented a different certificate from the one you "
                       "trusted for it.")
                        .arg(host),
              this);
    heading->setObjectName(QStringLiteral("certificateHeading"));
    QFont bold = heading->font();
    bold.setBold(true);
    heading->setFont(bold);
    words->addWidget(heading);
    QString explanation;
    switch (mode) {
    case Mode::Offer:
        explanation = tr("If this is your own server, you can trust this certificate for "
                         "this account. First compare its fingerprint below with the one "
                         "your server shows: if they differ, someone may be in between, and "
                         "you should not trust it.");
        break;
    case Mode::Warn:
        explanation = tr("The reader did not connect and sent nothing. Someone may be "
                         "pretending to be your server. If you replaced the server's "
                         "certificate yourself, sign in again (File ▸ Sign In…) to trust "
                         "the new one.");
        break;
    case Mode::Replace:
        explanation = tr("Someone may be pretending to be your server. Replace the trusted "
                         "certificate only if you replaced it on the server yourself and "
                         "the fingerprint below is the one your server shows.");
        break;
    }
    auto *why = label(explanation, this);
    why->setObjectName(QStringLiteral("certificateExplanation"));
    words->addWidget(why);
    top->addLayout(words, 1);
    layout->addLayout(top);

    auto *form = new QFormLayout;
    form->addRow(tr("Made for:"), label(names(certificate), this));
    form->addRow(tr("Issued by:"), label(issuer(certificate), this));
    form->addRow(tr("Valid until:"),
                 label(QLocale().toString(certificate.expiryDate().toLocalTime().date(),
                                          QLocale::LongFormat),
                       this));
    // Two lines of 16 pairs, easy to compare with what the server shows.
    QString fingerprint = CertificateTrust::fingerprint(certificate);
    if (fingerprint.size() > 47)
        fingerprint[47] = QLatin1Char('\n'); // the colon after the 16th pair
    auto *print = label(fingerprint, this);
    print->setObjectName(QStringLiteral("certificateFingerprint"));
    print->setWordWrap(false);
    print->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    form->addRow(tr("SHA-256 fingerprint:"), print);
    auto *problems = label(CertificateTrust::problems(refusal).join(QLatin1Char('\n')), this);
    problems->setObjectName(QStringLiteral("certificateProblems"));
    form->addRow(tr("What is wrong:"), problems);
    layout->addLayout(form);

    auto *buttons = new QDialogButtonBox(this);
    QPushButton *cancel =
        buttons->addButton(mode == Mode::Warn ? QDialogButtonBox::Close : QDialogButtonBox::Cancel);
    if (mode != Mode::Warn) {
        m_trust = buttons->addButton(mode == Mode::Offer ? tr("Trust This Certificate")
                                                         : tr("Replace the Trusted Certificate"),
                                     QDialogButtonBox::AcceptRole);
        m_trust->setAutoDefault(false);
    }
    // Enter never trusts: the safe answer is the default.
    cancel->setDefault(true);
    cancel->setFocus();
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());
}

QString CertificateDialog::text() const
{
    QStringList all;
    const QList<QLabel *> labels = findChildren<QLabel *>();
    for (const QLabel *l : labels) {
        if (!l->text().isEmpty())
            all << l->text();
    }
    return all.join(QLatin1Char('\n'));
}
