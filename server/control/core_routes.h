#pragma once

#include "server/control/register.h"

namespace hbemu::server::control {

// GET /control/clock; POST /control/clock/{freeze,advance,offset,resume}.
void RegisterClockRoutes(ControlRoutes* routes, const ControlContext& context);
// GET /control/faults; POST /control/faults, /control/faults/{remove,clear}.
void RegisterFaultRoutes(ControlRoutes* routes, const ControlContext& context);
// GET /control/calls, /control/calls/mark; POST /control/calls/{clear,enable}.
void RegisterCallLogRoutes(ControlRoutes* routes, const ControlContext& context);

}  // namespace hbemu::server::control
