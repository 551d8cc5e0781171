// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_READER_BUILTINSERVER_H
#define KEEPTRYING_READER_BUILTINSERVER_H

#include <QtCore/QObject>
#include <QtCore/QThread>
#include <QtCore/QUrl>

namespace KeepTrying::Demo {
class DemoServer;
}

/*
    Runs the demo wallabag server on loopback in a worker thread of its own, so that the
    reader works out of the box and its network traffic is real HTTP over a socket, not a
    shortcut inside the GUI thread.
*/
class BuiltInServer : public QObject
{
    Q_OBJECT

public:
    explicit BuiltInServer(QObject *parent = nullptr);
    ~BuiltInServer() override;

    /*! Starts the thread and the server on 127.0.0.1: on \a preferredPort when it is free
        (the last run's, so that what was saved from it, offline copies of its articles and
        pictures, is found again), else on any free port. Returns false with
        \a errorMessage set when it could not listen at all. */
    bool start(quint16 preferredPort = 0, QString *errorMessage = nullptr);
    /*! Stops the server and its thread; called by the destructor. */
    void stop();

    QUrl baseUrl() const { return m_baseUrl; }
    /*! The demo server's admin API (faults, down, up, stats); see DemoServer::adminUrl(). */
    QUrl adminUrl() const { return m_adminUrl; }
    /*! See DemoServer::addFault(); safe from the GUI thread. */
    bool addFault(const QString &spec, QString *errorMessage = nullptr);
    void clearFaults();
    QStringList faults() const;
    /*! See DemoServer::goDown(): connections are refused for \a ms milliseconds. */
    void goDown(int ms);
    bool isDown() const;
    /*! Checks \a spec with the demo server's own parser without adding it. */
    static bool isValidFault(const QString &spec, QString *errorMessage = nullptr);

private:
    QThread m_thread;
    QObject *m_context = nullptr; // lives in m_thread; runs the calls made there
    KeepTrying::Demo::DemoServer *m_server = nullptr;
    QUrl m_baseUrl;
    QUrl m_adminUrl;
};

#endif // KEEPTRYING_READER_BUILTINSERVER_H
