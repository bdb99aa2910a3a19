#pragma once

#include "server/control/control_routes.h"

namespace hbemu::storage {
class Store;
}

namespace hbemu::server::control {

class ControlState;

// What control modules work on. Everything outlives the routes (main owns it).
struct ControlContext {
  storage::Store* store = nullptr;
  // The clock, fault rules and call log (server/control/control_state.h).
  ControlState* state = nullptr;
};

// Registers every control module's routes: one line per module in register.cc.
void RegisterControlRoutes(ControlRoutes* routes, const ControlContext& context);

}  // namespace hbemu::server::control
