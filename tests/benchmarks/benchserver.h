// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_BENCHSERVER_H
#define KEEPTRYING_BENCHSERVER_H

#include <QtCore/QThread>
#include <QtCore/QUrl>

namespace KeepTrying::Bench {

/*!
    A loopback HTTP/1.1 server on its own thread, as cheap as it can be so that the client
    is what gets measured: keep-alive, fixed answers. "/small" answers 64 bytes;
    "/stream?bytes=N" streams N bytes without holding them in memory;
    "/flaky?bytes=N&fails=K&key=X" answers the first K requests for X with a 503 of N bytes
    (streamed), then a small 200.
*/
class BenchServer
{
public:
    BenchServer();
    ~BenchServer();
    QUrl url(const QString &pathAndQuery) const;

private:
    QThread m_thread;
    quint16 m_port = 0;
};

/*! Resident set size and its peak (VmHWM) of this process, in bytes. */
qint64 residentBytes();
qint64 peakResidentBytes();
/*! Resets the peak to the current size (Linux: /proc/self/clear_refs). */
void resetPeakResident();

} // namespace KeepTrying::Bench

#endif
