#include "server/control/control_state.h"

#include <chrono>
#include <thread>

#include "server/control/call_decode.h"
#include "server/control/call_gate_hook.h"
#include "server/control/fault_effect.h"
#include "server/gateway/failure_reason.h"

namespace hbemu::server::control {
namespace {

using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;

int64_t SystemMillis() { return storage::Clock::System()->NowMillis(); }

bool IsIllegalArgument(const std::string& java_class) {
  return java_class == "java.lang.IllegalArgumentException" || java_class == "IllegalArgument" ||
         java_class == "IllegalArgumentException";
}

// One call through the hook: its decoded arguments, the fault that hit it, and its record.
class ControlledCall : public HookedCall {
 public:
  ControlledCall(ControlState* state, std::string service, WireProtocol protocol,
                 std::string peer, DecodedCall call)
      : state_(state), protocol_(protocol), start_(std::chrono::steady_clock::now()) {
    record_.service = std::move(service);
    record_.peer = std::move(peer);
    record_.call = std::move(call);
    record_.started_unix_ms = SystemMillis();
  }

  void Apply(const FaultRule& rule) {
    rule_ = rule;
    effect_ = ApplyFault(rule, &record_);
    if (effect_.fail) action_ = Action::kFail;
    if (effect_.close_before) action_ = Action::kCloseBefore;
    close_after_ = effect_.close_after;
  }

  // The reply HBase's gateway sends for the exception: IOError (Thrift1, message prefixed with
  // the class) or TIOError (Thrift2, the message alone), both as result field 1 with canRetry;
  // an IllegalArgumentException as the declared IllegalArgument / TIllegalArgument (field 2).
  void WriteFailure(TProtocol* out) override {
    const bool thrift1 = record_.service == "thrift1";
    const bool illegal = IsIllegalArgument(rule_.exception);
    const std::string message =
        thrift1 && !illegal ? rule_.exception + ": " + rule_.message : rule_.message;
    out->writeMessageBegin(record_.call.method, apache::thrift::protocol::T_REPLY,
                           record_.call.seqid);
    out->writeStructBegin("result");
    out->writeFieldBegin(illegal ? "ia" : "io", apache::thrift::protocol::T_STRUCT,
                         illegal ? 2 : 1);
    out->writeStructBegin(illegal ? "IllegalArgument" : "IOError");
    out->writeFieldBegin("message", apache::thrift::protocol::T_STRING, 1);
    out->writeString(message);
    out->writeFieldEnd();
    if (!illegal) {
      out->writeFieldBegin("canRetry", apache::thrift::protocol::T_BOOL, 2);
      out->writeBool(rule_.CanRetry());
      out->writeFieldEnd();
    }
    out->writeFieldStop();
    out->writeStructEnd();
    out->writeFieldEnd();
    out->writeFieldStop();
    out->writeStructEnd();
    out->writeMessageEnd();
    out->getTransport()->writeEnd();
    out->getTransport()->flush();
  }

  void Finish(const uint8_t* reply, size_t length, const std::string& undeclared) override {
    const bool opens = ScannerTables::Opens(record_.call.method);
    if (ScannerTables::Closes(record_.call.method) && record_.call.scanner_id >= 0) {
      state_->scanners().Closed(record_.service, record_.call.scanner_id);
    }
    if (!state_->calls().enabled() && !opens) return;
    DecodedReply decoded;
    if (reply != nullptr && length > 0) {
      decoded = DecodeReply(record_.service, reply, length, protocol_);
      if (opens && !decoded.error && decoded.success_int >= 0) {
        state_->scanners().Opened(record_.service, decoded.success_int, record_.call.table);
      }
    }
    if (!state_->calls().enabled()) return;
    record_.duration_us = std::chrono::duration_cast<std::chrono::microseconds>(
                              std::chrono::steady_clock::now() - start_)
                              .count();
    if (reply != nullptr && length > 0) {
      record_.error = decoded.error;
      record_.exception = decoded.exception;
      record_.error_class = decoded.error_class;
      record_.error_message = decoded.message;
    } else if (!undeclared.empty()) {
      // The message did not decode: the connection closes with this reason.
      record_.error = true;
      record_.exception = "connection closed";
      record_.error_message = undeclared;
    } else if (effect_.close_before) {
      RecordClosedConnection(effect_, &record_);
    }
    if (effect_.close_after) RecordClosedConnection(effect_, &record_);
    std::string noted = TakeFailureReason();
    if (!undeclared.empty() && undeclared != record_.error_message) {
      record_.reason = undeclared;
    } else if (record_.error && !noted.empty() && noted != record_.error_message &&
               record_.reason.empty()) {
      record_.reason = std::move(noted);
    }
    state_->calls().Add(std::move(record_));
  }

 private:
  ControlState* const state_;
  const WireProtocol protocol_;
  const std::chrono::steady_clock::time_point start_;
  CallRecord record_;
  FaultRule rule_;
  FaultEffect effect_;
};

}  // namespace

class ControlState::Hook : public CallHook {
 public:
  Hook(ControlState* state, const std::atomic<bool>* active, std::string service)
      : CallHook(active), state_(state), service_(std::move(service)) {}

  std::unique_ptr<HookedCall> Before(const uint8_t* message, size_t length, WireProtocol protocol,
                                     const std::string& peer) override {
    const bool logging = state_->calls().enabled();
    TakeFailureReason();  // a reason left over from a call that was not logged
    DecodedCall call = DecodeCall(service_, message, length, protocol);
    if (call.decoded && call.scanner_id >= 0 && call.table.empty()) {
      call.table = state_->scanners().TableOf(service_, call.scanner_id);
    }
    std::optional<FaultRule> rule;
    if (!state_->faults().empty() && call.decoded) rule = state_->faults().Hit(service_, call);
    // A scanner open is followed even unlogged, so that a fault rule with a table can hit the
    // scanner's fetches.
    if (!rule && !logging && !ScannerTables::Opens(call.method)) return nullptr;
    auto hooked = std::make_unique<ControlledCall>(state_, service_, protocol, peer, std::move(call));
    if (rule) hooked->Apply(*rule);
    return hooked;
  }

 private:
  ControlState* const state_;
  const std::string service_;
};

ControlState::ControlState() = default;
ControlState::~ControlState() = default;

CallHook* ControlState::HookFor(const std::string& service) {
  std::lock_guard<std::mutex> lock(mu_);
  hooks_.push_back(std::make_unique<Hook>(this, &active_, service));
  return hooks_.back().get();
}

CallGate* ControlState::GateFor(const std::string& service) {
  std::lock_guard<std::mutex> lock(mu_);
  gates_.push_back(MakeCallGate(this, &active_, service));
  return gates_.back().get();
}

void ControlState::Refresh() {
  active_.store(calls_.enabled() || !faults_.empty(), std::memory_order_relaxed);
}

void ControlState::OnClockChange(std::function<void()> listener) {
  std::lock_guard<std::mutex> lock(mu_);
  clock_listeners_.push_back(std::move(listener));
}

void ControlState::ClockChanged() {
  std::vector<std::function<void()>> listeners;
  {
    std::lock_guard<std::mutex> lock(mu_);
    listeners = clock_listeners_;
  }
  for (const auto& listener : listeners) listener();
}

std::string ControlState::PrometheusText() const {
  std::string out =
      "# HELP hbase_emulator_test_faults_triggered_total Calls a test-controls fault rule hit, by "
      "action.\n# TYPE hbase_emulator_test_faults_triggered_total counter\n";
  for (int a = 0; a < kFaultActions; ++a) {
    const auto action = static_cast<FaultAction>(a);
    out += std::string("hbase_emulator_test_faults_triggered_total{action=\"") +
           FaultActionName(action) + "\"} " + std::to_string(faults_.triggered(action)) + "\n";
  }
  out += "# HELP hbase_emulator_test_call_log_calls Calls held by the test-controls call log.\n"
         "# TYPE hbase_emulator_test_call_log_calls gauge\n"
         "hbase_emulator_test_call_log_calls " + std::to_string(calls_.size()) + "\n";
  return out;
}

}  // namespace hbemu::server::control
