// The one place control modules are plugged in. A module declares
//   void RegisterXRoutes(ControlRoutes* routes, const ControlContext& context);
// in its own header and adds one line below.

#include "server/control/register.h"

#include "server/control/core_routes.h"
#include "server/control/method_routes.h"
#include "server/control/snapshot_routes.h"

namespace hbemu::server::control {

void RegisterControlRoutes(ControlRoutes* routes, const ControlContext& context) {
  RegisterClockRoutes(routes, context);
  RegisterFaultRoutes(routes, context);
  RegisterCallLogRoutes(routes, context);
  RegisterMethodRoutes(routes, context);
  RegisterSnapshotRoutes(routes, context);
}

}  // namespace hbemu::server::control
