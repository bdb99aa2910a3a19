#include "server/control/call_gate_hook.h"

#include <chrono>
#include <utility>

#include "server/control/control_state.h"
#include "server/control/fault_effect.h"

namespace hbemu::server::control {
namespace {

DecodedCall Describe(const GateCall& call) {
  DecodedCall out;
  out.decoded = true;
  out.method = call.method;
  out.table = call.table;
  out.row = call.row.substr(0, DecodedCall::kKeptBytes);
  out.stop_row = call.stop_row.substr(0, DecodedCall::kKeptBytes);
  for (const std::string& row : call.rows) {
    if (out.rows.size() == DecodedCall::kKeptItems) break;
    out.rows.push_back(row.substr(0, DecodedCall::kKeptBytes));
  }
  out.row_count = call.row_count;
  out.filter = call.filter.substr(0, DecodedCall::kKeptBytes);
  out.batch_size = call.batch_size;
  for (const std::string& column : call.columns) {
    if (out.columns.size() == DecodedCall::kKeptItems) break;
    out.columns.push_back(column.substr(0, DecodedCall::kKeptBytes));
  }
  return out;
}

class ControlledGateCall : public GatedCall {
 public:
  ControlledGateCall(ControlState* state, std::string service, std::string peer, DecodedCall call)
      : state_(state), start_(std::chrono::steady_clock::now()) {
    record_.service = std::move(service);
    record_.peer = std::move(peer);
    record_.call = std::move(call);
    record_.started_unix_ms = storage::Clock::System()->NowMillis();
  }

  void Apply(const FaultRule& rule) {
    effect_ = ApplyFault(rule, &record_);
    if (effect_.fail) {
      action_ = Action::kFail;
      fault_class_ = rule.exception;
      fault_message_ = rule.message;
    }
    if (effect_.close_before) action_ = Action::kCloseBefore;
    close_after_ = effect_.close_after;
  }

  void Finish(const GateOutcome& outcome) override {
    if (!state_->calls().enabled()) return;
    record_.duration_us = std::chrono::duration_cast<std::chrono::microseconds>(
                              std::chrono::steady_clock::now() - start_)
                              .count();
    record_.error = outcome.error;
    // The HTTP status stands where a Thrift call's exception type does.
    if (outcome.status > 0) record_.exception = outcome.error ? "HTTP " + std::to_string(outcome.status) : "";
    record_.error_class = outcome.error_class;
    record_.error_message = outcome.message;
    RecordClosedConnection(effect_, &record_);
    state_->calls().Add(std::move(record_));
  }

 private:
  ControlState* const state_;
  const std::chrono::steady_clock::time_point start_;
  CallRecord record_;
  FaultEffect effect_;
};

class ControlGate : public CallGate {
 public:
  ControlGate(ControlState* state, const std::atomic<bool>* active, std::string service)
      : CallGate(active), state_(state), service_(std::move(service)) {}

  std::unique_ptr<GatedCall> Before(const GateCall& call, const std::string& peer) override {
    const bool logging = state_->calls().enabled();
    DecodedCall decoded = Describe(call);
    std::optional<FaultRule> rule;
    if (!state_->faults().empty()) rule = state_->faults().Hit(service_, decoded);
    if (!rule && !logging) return nullptr;
    auto gated = std::make_unique<ControlledGateCall>(state_, service_, peer, std::move(decoded));
    if (rule) gated->Apply(*rule);
    return gated;
  }

 private:
  ControlState* const state_;
  const std::string service_;
};

}  // namespace

std::unique_ptr<CallGate> MakeCallGate(ControlState* state, const std::atomic<bool>* active,
                                       std::string service) {
  return std::make_unique<ControlGate>(state, active, std::move(service));
}

}  // namespace hbemu::server::control
