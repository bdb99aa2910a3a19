#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/control/call_decode.h"
#include "server/control/method_pattern.h"

namespace hbemu::server::control {

// What a fault rule does to a call it matches.
enum class FaultAction {
  kFail,         // answer with an HBase exception instead of running the call
  kDelay,        // sleep, then run the call
  kCloseBefore,  // close the connection; the call never runs
  kCloseAfter,   // run the call (its change is applied), then close without replying
};

const char* FaultActionName(FaultAction action);

// The most a rule may ask: a delay (10 minutes) and a count of calls to hit (-1 is every call).
constexpr int64_t kMaxFaultDelayMs = 600000;
constexpr int64_t kMaxFaultTimes = 1000000000;
constexpr int kFaultActions = 4;

// A rule: which calls (service, table: glob patterns, "*" for any; method: a Thrift method,
// a glob over them or a happybase operation, see MethodPattern; row: a prefix, "" for any) and what happens to them. `times` bounds how many calls it hits (-1: every one);
// with `probability` below 1 each matching call is hit with that chance, drawn from a generator
// seeded with `seed`, so a run is repeatable.
struct FaultRule {
  int64_t id = 0;
  std::string service = "*";
  std::string method = "*";  // as the rule was given
  MethodPattern method_pattern;  // what `method` matches
  std::string table = "*";
  std::string row_prefix;
  FaultAction action = FaultAction::kFail;
  // kFail: the Java exception HBase would raise, and its message.
  std::string exception = "java.io.IOException";
  std::string message;
  std::optional<bool> can_retry;  // default: false for DoNotRetryIOException and kin
  int64_t delay_ms = 0;           // kDelay
  int64_t times = -1;
  double probability = 1.0;
  uint64_t seed = 0;

  uint64_t matched = 0;    // calls that matched (hit or not)
  uint64_t triggered = 0;  // calls it hit

  // From a control request's JSON; false with *error for a bad rule (an unknown service or
  // method among them).
  static bool FromJson(const nlohmann::json& doc, FaultRule* rule, std::string* error);
  nlohmann::json ToJson() const;
  bool Matches(const std::string& service, const DecodedCall& call) const;
  // The canRetry a client is sent for kFail.
  bool CanRetry() const;
};

// The installed rules, first match wins. Thread-safe.
class FaultRules {
 public:
  // Refuses (false, *error) past Limits::fault_rules.
  bool Add(FaultRule rule, int64_t* id, std::string* error);
  bool Remove(int64_t id);
  void Clear();
  nlohmann::json List() const;
  bool empty() const { return count_.load(std::memory_order_relaxed) == 0; }

  // The rule that hits this call, if any (counted; a rule whose `times` ran out is removed).
  std::optional<FaultRule> Hit(const std::string& service, const DecodedCall& call);

  // Faults triggered since start, by action (/metrics).
  uint64_t triggered(FaultAction action) const {
    return triggered_[static_cast<int>(action)].load(std::memory_order_relaxed);
  }

 private:
  struct Installed {
    FaultRule rule;
    std::mt19937_64 rng;
  };
  mutable std::mutex mu_;
  std::vector<Installed> rules_;
  int64_t next_id_ = 1;
  std::atomic<size_t> count_{0};
  std::atomic<uint64_t> triggered_[kFaultActions] = {};
};

}  // namespace hbemu::server::control
