// SPDX-FileCopyrightText: The KeepTrying authors
// SPDX-License-Identifier: MIT

#ifndef KEEPTRYING_DEMO_DEMOSERVER_P_H
#define KEEPTRYING_DEMO_DEMOSERVER_P_H

#include "adminapi_p.h"
#include "transport_p.h"
#include "wallabagapi_p.h"

#include <KeepTrying/Demo/demoserver.h>

#include <QtCore/QJsonObject>
#include <QtCore/QMutex>

namespace KeepTrying::Demo {

/*!
    The demo server in three rooms: the Transport (the API's listener, capacity, faults,
    outages), the WallabagApi (what the requests mean) and the AdminApi (its own listener).
    One mutex guards the data of all three, so that a request is counted, faulted and
    applied as one step.
*/
class DemoServerPrivate
{
    Q_DECLARE_PUBLIC(DemoServer)

public:
    explicit DemoServerPrivate(DemoServer *q);

    QJsonObject statsLocked() const;

    DemoServer *q_ptr;
    mutable QMutex mutex; // guards the rooms' data, as each of them says
    WallabagApi api;
    Transport transport;
    AdminApi admin;
};

} // namespace KeepTrying::Demo

#endif // KEEPTRYING_DEMO_DEMOSERVER_P_H
