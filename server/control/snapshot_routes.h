#pragma once

#include "server/control/register.h"

namespace hbemu::server::control {

// POST /control/snapshot, /control/restore_snapshot, /control/clone_snapshot,
// /control/delete_snapshot and GET /control/snapshots (storage/snapshots.h).
void RegisterSnapshotRoutes(ControlRoutes* routes, const ControlContext& context);

}  // namespace hbemu::server::control
