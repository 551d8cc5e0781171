// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

// One randomised fault sequence of chaos_network: what the server does per request and what
// the caller does, all drawn from one seed (generate()), and its script in words (describe()).
// Playing it and checking the invariants is chaosnetwork.cpp's job.

#ifndef KEEPTRYING_CHAOSSEQUENCE_H
#define KEEPTRYING_CHAOSSEQUENCE_H

#include <KeepTrying/retrypolicy.h>

#include "scriptedfaultserver.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>

namespace KeepTrying::Chaos {

using Behaviour = Test::ScriptedFaultServer::Behaviour;

enum class Method { Get, Head, Put, PostKeyless, PostCallerKey, PostPolicyKey };
enum class Cancel { None, Abort, Delete };
enum class Moment {
    AttemptStarted,
    RetryScheduled,
    ReadyRead,
    MetaDataChanged,
    ErrorOccurred,
    Finished,
    Timer
};

struct Sequence
{
    quint32 seed = 0;
    QByteArray resource;
    QList<Behaviour> script;
    Method method = Method::Get;
    QByteArray requestBody;
    bool readInReadyRead = true;
    int chunk = 0; // bytes read per readyRead
    bool watchProgress = false;
    Cancel cancel = Cancel::None;
    Moment moment = Moment::Timer;
    int momentIndex = 1; // the n-th such signal, from 1
    int cancelAtMs = 0; // Moment::Timer
    QList<QPair<int, int>> offline; // at ms, for ms
    RetryPolicy policy;

    bool hasKey() const
    {
        return method == Method::PostCallerKey || method == Method::PostPolicyKey;
    }
    QString describe() const;
};

/*! The sequence of \a seed: the same seed always gives the same sequence. */
Sequence generate(quint32 seed);

} // namespace KeepTrying::Chaos

#endif // KEEPTRYING_CHAOSSEQUENCE_H
