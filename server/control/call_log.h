#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/control/call_decode.h"

namespace hbemu::server::control {

// One call as the call log keeps it.
struct CallRecord {
  uint64_t seq = 0;            // 1, 2, ... for the life of the process (marks are seqs)
  int64_t started_unix_ms = 0; // the system clock's reading, not the controlled clock's
  std::string service;
  std::string peer;
  DecodedCall call;
  int64_t duration_us = 0;
  bool error = false;
  std::string exception;       // Thrift exception type, e.g. IOError, TIOError
  std::string error_class;     // Java exception class when the reply names it
  std::string error_message;   // what the client was sent
  std::string reason;          // the server's full reason, when it differs from the message
  std::string fault;           // "rule 3: fail" when a fault rule hit the call

  size_t Bytes() const;
  nlohmann::json ToJson() const;
};

// What to read back from the call log.
struct CallQuery {
  uint64_t since = 0;         // calls with seq > since (a mark)
  std::string table;          // "" for any
  std::string method;         // "" for any
  std::string service;        // "" for any
  bool errors_only = false;
  size_t limit = 0;           // newest `limit` of the matches; 0 for all
  size_t page = 0;            // of those, the oldest `page` are returned; 0 for all
};

// What a query found: the calls of its page, oldest first, and how many it selected in all
// (since, filters and limit applied; more than calls.size() when the page cut them).
struct CallPage {
  std::vector<CallRecord> calls;
  size_t selected = 0;
};

// The last calls of both services, bounded by Limits::call_log_calls and call_log_bytes (the
// oldest go first). Recording is on when the test controls are; while it is off a call costs
// one atomic load. Thread-safe.
class CallLog {
 public:
  CallLog();

  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  void SetEnabled(bool on) { enabled_.store(on, std::memory_order_relaxed); }

  void Add(CallRecord record);
  // The seq of the newest call (0 before any): a mark to query "since".
  uint64_t Mark() const;
  CallPage Query(const CallQuery& query) const;
  void Clear();
  size_t size() const;
  size_t bytes() const;
  uint64_t dropped() const;  // calls dropped for the bounds since start

 private:
  std::atomic<bool> enabled_{true};
  mutable std::mutex mu_;
  std::deque<CallRecord> calls_;
  size_t bytes_ = 0;
  uint64_t next_seq_ = 1;
  uint64_t dropped_ = 0;
};

}  // namespace hbemu::server::control
