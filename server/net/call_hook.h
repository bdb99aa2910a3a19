#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <thrift/protocol/TProtocol.h>

#include "server/net/message_skimmer.h"

namespace hbemu::server {

// One call as a CallHook sees it: what to do with it, and where its outcome goes.
class HookedCall {
 public:
  enum class Action {
    kRun,          // run it (after any delay the hook already slept)
    kFail,         // do not run it: WriteFailure writes the reply instead
    kCloseBefore,  // do not run it: close the connection without a reply
  };
  virtual ~HookedCall() = default;
  Action action() const { return action_; }
  // Close the connection once the call has run, without sending its reply.
  bool close_after() const { return close_after_; }
  // kFail: the reply the service's gateway would send for the failure.
  virtual void WriteFailure(apache::thrift::protocol::TProtocol* out) = 0;
  // The call is over: `reply` is what goes to the client (empty when nothing does), and
  // `undeclared_error` what an undeclared handler exception said (empty for none).
  virtual void Finish(const uint8_t* reply, size_t reply_length,
                      const std::string& undeclared_error) = 0;

 protected:
  Action action_ = Action::kRun;
  bool close_after_ = false;
};

// Sees every call of a port before and after it runs (the test controls' faults and call log,
// server/control/). net/ knows nothing of the services; the hook decodes what it needs.
// Thread-safe: calls of every connection come through one hook.
class CallHook {
 public:
  virtual ~CallHook() = default;
  // Checked on every call; while false the hook costs nothing more.
  bool active() const { return active_->load(std::memory_order_relaxed); }
  // Before the processor sees `message` (one whole Thrift message). May sleep (a delay fault).
  // nullptr: run the call as if there were no hook.
  virtual std::unique_ptr<HookedCall> Before(const uint8_t* message, size_t length,
                                             WireProtocol protocol, const std::string& peer) = 0;

 protected:
  explicit CallHook(const std::atomic<bool>* active) : active_(active) {}

 private:
  const std::atomic<bool>* const active_;
};

}  // namespace hbemu::server
