#pragma once

#include "server/control/register.h"

namespace hbemu::server::control {

// GET /control/methods: the names fault rules and call-log queries take (every Thrift method of
// both services, and the happybase operations with the Thrift calls each stands for).
void RegisterMethodRoutes(ControlRoutes* routes, const ControlContext& context);

}  // namespace hbemu::server::control
