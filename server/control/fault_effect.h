// What a matching fault rule does to one call, the same at every door (the Thrift ports' call
// hook and the REST door's call gate), and how the call log records a connection it closed.

#pragma once

#include "server/control/call_log.h"
#include "server/control/faults.h"

namespace hbemu::server::control {

struct FaultEffect {
  bool fail = false;          // answered with the rule's exception instead of running
  bool close_before = false;  // the call never runs; the connection closes
  bool close_after = false;   // the call runs; its reply is never sent
};

// Names the rule in record->fault and sleeps a `delay` rule's time here, on the call's thread.
FaultEffect ApplyFault(const FaultRule& rule, CallRecord* record);

// After the call: a connection the fault closed is what its client saw, whatever the call did
// (a call that ran before its close keeps what it ended with as the reason).
void RecordClosedConnection(const FaultEffect& effect, CallRecord* record);

}  // namespace hbemu::server::control
