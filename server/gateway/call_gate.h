#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hbemu::server {

// A call of a door that reads its own requests (REST), as it describes the call to the test
// controls: what fault rules match and the call log keeps. (The Thrift doors hand their raw
// messages to a CallHook, server/net/call_hook.h, which decodes them itself.)
struct GateCall {
  std::string method;  // the door's name for it, e.g. "GET /table/row"
  std::string table;
  std::string row;       // the row, a scan's start row or prefix
  std::string stop_row;  // a scan's stop row
  std::vector<std::string> rows;  // a multiget's rows
  int64_t row_count = 0;          // ... all of them
  std::string filter;
  int64_t batch_size = -1;
  std::vector<std::string> columns;
};

// How a gated call ended, for the call log.
struct GateOutcome {
  int status = 0;  // the HTTP status answered; 0 when the connection closed without one
  bool error = false;
  std::string error_class;  // the Java class the answer names, if any
  std::string message;      // what the client was sent
};

// One call through a CallGate: what to do with it, and where its outcome goes.
class GatedCall {
 public:
  enum class Action {
    kRun,          // run it (after any delay the gate already slept)
    kFail,         // do not run it: answer the fault's exception instead
    kCloseBefore,  // do not run it: close the connection without an answer
  };
  virtual ~GatedCall() = default;
  Action action() const { return action_; }
  // Close the connection once the call has run, without sending its answer.
  bool close_after() const { return close_after_; }
  // kFail: the Java exception HBase would have raised, and its message.
  const std::string& fault_class() const { return fault_class_; }
  const std::string& fault_message() const { return fault_message_; }
  virtual void Finish(const GateOutcome& outcome) = 0;

 protected:
  Action action_ = Action::kRun;
  bool close_after_ = false;
  std::string fault_class_;
  std::string fault_message_;
};

// Sees every call of such a door before and after it runs (the test controls' faults and
// call log, server/control/). Thread-safe.
class CallGate {
 public:
  virtual ~CallGate() = default;
  // Checked on every call; while false the gate costs nothing more.
  bool active() const { return active_->load(std::memory_order_relaxed); }
  // May sleep (a delay fault). nullptr: run the call as if there were no gate.
  virtual std::unique_ptr<GatedCall> Before(const GateCall& call, const std::string& peer) = 0;

 protected:
  explicit CallGate(const std::atomic<bool>* active) : active_(active) {}

 private:
  const std::atomic<bool>* const active_;
};

}  // namespace hbemu::server
