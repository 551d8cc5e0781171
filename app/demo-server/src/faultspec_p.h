// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_FAULTSPEC_P_H
#define KEEPTRYING_DEMO_FAULTSPEC_P_H

#include <QtCore/QByteArray>
#include <QtCore/QRegularExpression>
#include <QtCore/QString>

#include <optional>

namespace KeepTrying::Demo {

/*! One parsed fault spec (syntax in DemoServer's class comment). */
struct FaultSpec
{
    enum class Drop { None, BeforeHeaders, MidBody };

    QString text; //!< the spec as given, for listing
    QRegularExpression route; //!< anchored; matches everything when no route was given
    QByteArray method; //!< upper case; empty: any
    int status = 0; //!< 0: none
    QByteArray retryAfter; //!< empty: none
    int latencyMs = 0;
    Drop drop = Drop::None;
    qint64 remaining = -1; //!< -1: unlimited
    double rate = -1; //!< -1: always

    /*! Parses \a spec; on error returns nothing and sets \a errorMessage. */
    static std::optional<FaultSpec> parse(const QString &spec, QString *errorMessage);

    /*! Route and method match, and the count is not used up. The rate is drawn elsewhere. */
    bool matches(const QByteArray &requestMethod, const QString &path) const;

    /*! The spec as given, plus the remaining count when limited. */
    QString describe() const;
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_FAULTSPEC_P_H
