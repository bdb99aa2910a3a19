#include "server/control/fault_effect.h"

#include <chrono>
#include <string>
#include <thread>

namespace hbemu::server::control {

FaultEffect ApplyFault(const FaultRule& rule, CallRecord* record) {
  FaultEffect effect;
  record->fault = "rule " + std::to_string(rule.id) + ": " + FaultActionName(rule.action);
  switch (rule.action) {
    case FaultAction::kFail:
      effect.fail = true;
      break;
    case FaultAction::kDelay:
      record->fault += " " + std::to_string(rule.delay_ms) + " ms";
      std::this_thread::sleep_for(std::chrono::milliseconds(rule.delay_ms));
      break;
    case FaultAction::kCloseBefore:
      effect.close_before = true;
      break;
    case FaultAction::kCloseAfter:
      effect.close_after = true;
      break;
  }
  return effect;
}

void RecordClosedConnection(const FaultEffect& effect, CallRecord* record) {
  if (effect.close_before) {
    record->error = true;
    record->exception = "connection closed";
    record->error_message =
        "the connection was closed before the call ran (" + record->fault + ")";
  } else if (effect.close_after) {
    record->error = true;
    record->exception = "connection closed";
    record->reason = record->error_message.empty()
                         ? "the call was applied, then the connection was closed"
                         : "the call ended with: " + record->error_message;
    record->error_message = "connection closed after the call ran (" + record->fault + ")";
  }
}

}  // namespace hbemu::server::control
