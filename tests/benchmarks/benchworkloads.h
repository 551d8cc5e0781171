// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_BENCHWORKLOADS_H
#define KEEPTRYING_BENCHWORKLOADS_H

#include <QtCore/QUrl>

class QNetworkAccessManager;

namespace KeepTrying::Bench {

/*!
    The workloads the benchmarks share, run to completion in a local event loop on any
    manager (plain or retrying) against a BenchServer. Each one checks what it received and
    stops the program (qFatal) when it is wrong, so a benchmark never times a failure.
*/

/*! \a count GETs of \a url ("/small", 64 bytes), one after the other. */
void sequentialGets(QNetworkAccessManager &manager, const QUrl &url, int count);

/*! \a count GETs of \a url ("/small"), \a parallel of them in flight at any time. */
void concurrentGets(QNetworkAccessManager &manager, const QUrl &url, int count, int parallel);

/*! One GET of \a url ("/stream?bytes=N"), read as it arrives; \a bytes is N. */
void streamedDownload(QNetworkAccessManager &manager, const QUrl &url, qint64 bytes);

} // namespace KeepTrying::Bench

#endif
