// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_APPICON_H
#define KEEPTRYING_READER_APPICON_H

#include <QtGui/QIcon>

// The reader's window icon, drawn in code so that it is sharp at every size: a bookmark
// on a blue tile with an amber "still going" arc.
QIcon readerIcon();

#endif // KEEPTRYING_READER_APPICON_H
