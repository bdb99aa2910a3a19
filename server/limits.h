#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "storage/store_limits.h"

namespace hbemu {

// Every resource a client can make the server hold, bounded in one place. The server reads these
// values; nothing else states a limit a client can reach. Each has a name usable as
// `--limit NAME=VALUE` on the command line, and `hbase-emulator --limits` prints them all with
// what a client gets past each one (docs/limits.md is that output).
//
// The values are set once at start-up, before any thread serves a client (SetLimits), and only
// read after that.
struct Limits {
  // Filter language (Thrift1 TScan.filterString, Thrift2 TScan/TGet.filterString and filterBytes).
  int64_t filter_string_bytes = storage::FilterLimits().filter_string_bytes;
  int64_t filter_depth = storage::FilterLimits().filter_depth;
  int64_t filter_count = storage::FilterLimits().filter_count;
  int64_t filter_bytes = 4 << 20;         // longest Thrift2 filterBytes (a protobuf filter)

  // Wire (both Thrift ports).
  int64_t message_bytes = 100 << 20;            // largest message, frame or HTTP body
  int64_t decoded_bytes = 64 << 20;             // memory any one message may decode into
  int64_t decoded_bytes_per_byte = 16;          // ... and a larger one, per byte it holds
  int64_t idle_buffer_bytes = 64 << 10;         // buffer kept per idle connection
  int64_t retained_buffer_bytes = 64 << 20;     // buffers kept by all idle connections together
  int64_t write_timeout_ms = 30000;             // a reply not taken by the client in this long
  int64_t message_timeout_ms = 60000;           // a request begun, or a reply, not through in this long
  int64_t connections = 4096;                   // open connections per port (each Thrift port, admin)
  int64_t thrift_depth = 64;                    // nesting of structs and containers (libthrift's)
  int64_t http_header_bytes = 65534;            // one HTTP request's header (HBase's Jetty's)

  // Per call.
  int64_t scanner_rows_per_call = 100000;       // rows one scanner fetch may ask for
  int64_t reply_bytes = 64 << 20;               // a scanner fetch stops adding rows past this
  int64_t result_bytes = storage::StoreLimits().result_bytes;             // results one multi-get may hold, or it fails
  int64_t cell_bytes = storage::StoreLimits().cell_bytes;

  // State kept between calls.
  int64_t open_scanners = 10000;                // per service; the longest idle is closed past it
  int64_t scanner_bytes = 1LL << 30;            // memory all open scanners hold; new ones refused past it
  int64_t metric_tables = 1024;                 // tables with their own metric series
  int64_t snapshots = storage::StoreLimits().snapshots;
  int64_t snapshot_bytes = storage::StoreLimits().snapshot_bytes;

  // Admin console (HTTP).
  int64_t admin_page_bytes = 4 << 20;           // body of one page or API answer
  int64_t admin_value_bytes = 1024;             // shown of one value, with its full length
  int64_t admin_page_cells = 20000;             // cells on one browse page
  int64_t admin_count_cells = 200000;           // cells one request walks to count tables
  int64_t admin_header_bytes = 16 << 10;        // one request's header
  int64_t admin_body_bytes = 64 << 10;          // one request's body (control requests)
  int64_t admin_request_timeout_ms = 30000;     // a request not all arrived in this long

  // Test controls (--test-controls).
  int64_t call_log_calls = 10000;               // calls the call log keeps
  int64_t call_log_bytes = 16 << 20;            // bytes the call log keeps
  int64_t call_log_page_bytes = 4 << 20;        // JSON of one GET /control/calls answer
  int64_t fault_rules = 1000;                   // fault rules installed at once
};

// One named limit, as --limit and --limits show it.
struct LimitInfo {
  const char* name;
  int64_t Limits::*field;
  const char* unit;        // "bytes", "ms", "count"
  const char* meaning;     // what it bounds
  const char* past_it;     // what the client gets past it
};

// Every limit, in the order --limits and docs/limits.md list them.
const std::vector<LimitInfo>& AllLimits();

// The limits in force (defaults until SetLimits).
const Limits& CurrentLimits();
// Start-up only: before any thread reads the limits.
void SetLimits(const Limits& limits);

// The parts storage is handed (it keeps no registry).
storage::FilterLimits FilterLimitsOf(const Limits& limits);
storage::StoreLimits StoreLimitsOf(const Limits& limits);

// Parses "NAME=VALUE" (VALUE a non-negative integer, with an optional K/M/G suffix for bytes)
// into *limits. Returns false with a message naming the known limits on a bad name or value.
bool ParseLimitAssignment(const std::string& text, Limits* limits, std::string* error);

// The table `--limits` prints: name, default (or current) value, unit, meaning, past it.
std::string DescribeLimits(const Limits& limits);

}  // namespace hbemu
