#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "server/gateway/call_gate.h"

namespace hbemu::server::control {

class ControlState;

// The test controls' gate for a door that describes its own calls (REST): fault rules of
// `service` hit its calls, and the call log records them, as the Thrift doors' hook does.
std::unique_ptr<CallGate> MakeCallGate(ControlState* state, const std::atomic<bool>* active,
                                       std::string service);

}  // namespace hbemu::server::control
