// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_READERPALETTE_H
#define KEEPTRYING_READER_READERPALETTE_H

#include <QtCore/QString>

/*! For QA (--palette): paints the application with the Fusion style in the "light" or
    "dark" palette a desktop theme of that kind gives. Empty \a name: the platform's. */
void applyReaderPalette(const QString &name);

#endif // KEEPTRYING_READER_READERPALETTE_H
