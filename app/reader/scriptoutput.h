// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_SCRIPTOUTPUT_H
#define KEEPTRYING_READER_SCRIPTOUTPUT_H

#include <QtCore/QString>

/*
    The lines the reader prints on stdout for scripts and tests (demo server addresses,
    "loaded N articles", "screenshot: PATH", …), one a line, each after the moment it was
    printed in ISO 8601 UTC with milliseconds and one space:

        2025-03-01T09:41:07.215Z loaded 39 articles

    so that a log of several runs can be put in order and timed. Flushed at once.
*/
namespace ScriptOutput {

/*! \a line on stdout, after its timestamp. */
void print(const QString &line);
/*! The timestamp print() puts first (no trailing space). */
QString timestamp();

} // namespace ScriptOutput

#endif // KEEPTRYING_READER_SCRIPTOUTPUT_H
