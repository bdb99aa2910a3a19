#include "server/limits.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <map>

namespace hbemu {
namespace {

Limits& MutableLimits() {
  static Limits limits;
  return limits;
}

std::string FormatValue(int64_t value, const char* unit) {
  if (std::strcmp(unit, "bytes") == 0) {
    if (value > 0 && value % (1 << 30) == 0) return std::to_string(value >> 30) + " GiB";
    if (value > 0 && value % (1 << 20) == 0) return std::to_string(value >> 20) + " MiB";
    if (value > 0 && value % (1 << 10) == 0) return std::to_string(value >> 10) + " KiB";
    return std::to_string(value) + " bytes";
  }
  if (std::strcmp(unit, "ms") == 0) return std::to_string(value) + " ms";
  return std::to_string(value);
}

// The largest value --limit takes for each limit. Sizes that end up in a Thrift length, an
// HTTP body or an int are bounded by INT32_MAX (8G used to be accepted and then cut to 32 bits);
// filter_depth by 2,048, since trees are walked recursively on call threads whose stacks are
// small under musl (2,000 levels scan in test_hostile_filters); the rest by what one machine
// can hold.
int64_t LargestValue(const LimitInfo& info) {
  constexpr int64_t kInt32 = std::numeric_limits<int32_t>::max();
  static const std::map<std::string, int64_t> kSpecific = {
      {"filter_depth", 2048},
      {"filter_string_bytes", kInt32},
      {"filter_bytes", kInt32},
      {"message_bytes", kInt32},
      {"idle_buffer_bytes", kInt32},
      {"reply_bytes", kInt32},
      {"result_bytes", kInt32},
      {"admin_page_bytes", kInt32},
      {"admin_value_bytes", kInt32},
      {"call_log_page_bytes", kInt32},
      {"decoded_bytes_per_byte", 1024},
      {"thrift_depth", 512},
      {"http_header_bytes", kInt32},
      {"admin_header_bytes", kInt32},
      {"admin_body_bytes", kInt32},
      {"cell_bytes", kInt32},
  };
  if (auto it = kSpecific.find(info.name); it != kSpecific.end()) return it->second;
  if (std::strcmp(info.unit, "bytes") == 0) return int64_t{1} << 40;
  if (std::strcmp(info.unit, "ms") == 0) return int64_t{7} * 24 * 3600 * 1000;
  return kInt32;
}

}  // namespace

storage::FilterLimits FilterLimitsOf(const Limits& limits) {
  storage::FilterLimits out;
  out.filter_string_bytes = limits.filter_string_bytes;
  out.filter_depth = limits.filter_depth;
  out.filter_count = limits.filter_count;
  return out;
}

storage::StoreLimits StoreLimitsOf(const Limits& limits) {
  storage::StoreLimits out;
  out.cell_bytes = limits.cell_bytes;
  out.result_bytes = limits.result_bytes;
  out.snapshots = limits.snapshots;
  out.snapshot_bytes = limits.snapshot_bytes;
  return out;
}

const std::vector<LimitInfo>& AllLimits() {
  static const std::vector<LimitInfo> all = {
      {"filter_string_bytes", &Limits::filter_string_bytes, "bytes",
       "length of one filter string",
       "the unparsable-filter error (TApplicationException); the log names the limit"},
      {"filter_depth", &Limits::filter_depth, "count",
       "nesting of AND/OR, parentheses, SKIP and WHILE in one filter",
       "the unparsable-filter error; the log names the limit"},
      {"filter_count", &Limits::filter_count, "count", "filters in one filter tree",
       "the unparsable-filter error; the log names the limit"},
      {"message_bytes", &Limits::message_bytes, "bytes",
       "one request: message, frame or HTTP body, REST bodies included (also --max-message-mb)",
       "the connection is closed (HTTP: 413), with a WARNING naming the peer"},
      {"decoded_bytes", &Limits::decoded_bytes, "bytes",
       "memory any one request may decode into (each string, struct and container element "
       "charged its in-memory size before it is built)",
       "the connection is closed (HTTP: 500), with a WARNING naming the peer"},
      {"decoded_bytes_per_byte", &Limits::decoded_bytes_per_byte, "count",
       "memory a request larger than decoded_bytes / this may decode into, per byte of it",
       "the connection is closed (HTTP: 500), with a WARNING naming the peer"},
      {"filter_bytes", &Limits::filter_bytes, "bytes",
       "length of one Thrift2 filterBytes (HBase's protobuf-serialized filter)",
       "TIOError (canRetry false) naming the limit; filter_depth and filter_count apply too"},
      {"idle_buffer_bytes", &Limits::idle_buffer_bytes, "bytes",
       "read and reply buffer kept by one idle connection", "nothing: larger buffers are freed"},
      {"retained_buffer_bytes", &Limits::retained_buffer_bytes, "bytes",
       "buffers kept by all idle connections together", "nothing: larger buffers are freed"},
      {"write_timeout_ms", &Limits::write_timeout_ms, "ms",
       "time a client may leave a reply unread", "the connection is closed"},
      {"message_timeout_ms", &Limits::message_timeout_ms, "ms",
       "time one request may take to arrive once its first byte has, and one reply to be taken "
       "whole (a trickle of bytes does not restart it, as it restarts the idle timeout)",
       "the connection is closed, with a log line naming the peer"},
      {"connections", &Limits::connections, "count",
       "open connections on each Thrift port, the REST port and the admin port (HBase's "
       "thread-pool server holds 1000 workers and 1000 queued)",
       "the new connection is closed at once; a WARNING (at most one per 10 s) and the "
       "connections_refused_total metric count them"},
      {"thrift_depth", &Limits::thrift_depth, "count",
       "nesting of structs, lists, sets and maps in one Thrift message (libthrift's recursion "
       "limit, which HBase's Java server shares)",
       "the connection is closed, with a WARNING naming the peer"},
      {"http_header_bytes", &Limits::http_header_bytes, "bytes",
       "header of one Thrift-over-HTTP or REST request, and a chunk-size line or trailer "
       "(HBase's Jetty accepts 65,534 bytes)",
       "431, and the connection is closed"},
      {"scanner_rows_per_call", &Limits::scanner_rows_per_call, "count",
       "rows one scanner fetch returns (larger numRows are served in several fetches), and "
       "cells one REST scanner fetch returns",
       "fewer rows; the scanner goes on at the next fetch"},
      {"reply_bytes", &Limits::reply_bytes, "bytes",
       "a scanner fetch stops adding rows past this (HBase's max result size)",
       "fewer rows; the scanner goes on at the next fetch"},
      {"result_bytes", &Limits::result_bytes, "bytes",
       "memory the rows of one Thrift1 getRow(s)* or Thrift2 getMultiple/existsAll call, or of "
       "one REST multiget, row-prefix read or stateless scan, may hold (each row and cell "
       "charged its bytes and what holding it costs), and one row a "
       "row-level filter reads whole; HBase bounds these with hbase.table.max.rowsize (1 GB) "
       "and MultiActionResultTooLarge",
       "the call fails: IOError / TIOError (canRetry false) naming the limit, as "
       "MultiActionResultTooLarge (a row-level filter's row: RowTooBigException); REST: 503"},
      {"cell_bytes", &Limits::cell_bytes, "bytes",
       "row, family, qualifier and value of one cell written by a put (HBase's "
       "hbase.client.keyvalue.maxsize, 10 MiB)",
       "the write fails with IllegalArgumentException \"KeyValue size too large\" "
       "(Thrift1 IOError/IllegalArgument, Thrift2 TIOError), nothing written"},
      {"open_scanners", &Limits::open_scanners, "count", "open scanners per service (Thrift1, Thrift2, REST)",
       "the longest-idle scanner is closed; its next use gets the expired-scanner error "
       "(REST: 404, as HBase answers an evicted id)"},
      {"scanner_bytes", &Limits::scanner_bytes, "bytes",
       "memory all open scanners (Thrift1, Thrift2, REST) hold together: each scan's request "
       "(the columns it names: 80 bytes each for names up to 15 bytes, more for longer ones, "
       "128 per family; its filter tree), an open scanner's own copy of it and its filter, and "
       "the rows a batched scan has read ahead",
       "opening another scanner fails: IOError / TIOError (canRetry true) naming the limit, as "
       "RegionTooBusyException; open scanners go on"},
      {"metric_tables", &Limits::metric_tables, "count", "tables with their own metric series",
       "further tables are counted together under table=\"(other)\""},
      {"snapshots", &Limits::snapshots, "count", "snapshots kept (test controls)",
       "the snapshot is refused (SnapshotCreationException naming the limit)"},
      {"snapshot_bytes", &Limits::snapshot_bytes, "bytes",
       "key and value bytes all snapshots keep together (test controls); a restore writes "
       "at most this in one batch",
       "the snapshot is refused (SnapshotCreationException naming the limit)"},
      {"admin_page_bytes", &Limits::admin_page_bytes, "bytes",
       "body of one console page or /api answer", "the page ends early and says so"},
      {"admin_value_bytes", &Limits::admin_value_bytes, "bytes",
       "shown of one value in the console", "the first bytes and the full length"},
      {"admin_page_cells", &Limits::admin_page_cells, "count", "cells on one browse page",
       "the page ends early, with a link to the next"},
      {"admin_count_cells", &Limits::admin_count_cells, "count",
       "cells one console request walks to count tables' stored rows (counts are remembered)",
       "the count is shown as at least N"},
      {"admin_header_bytes", &Limits::admin_header_bytes, "bytes",
       "header of one admin-port request", "431, and the connection is closed"},
      {"admin_body_bytes", &Limits::admin_body_bytes, "bytes",
       "body of one admin-port request (test-control POSTs)", "413, and the connection is closed"},
      {"admin_request_timeout_ms", &Limits::admin_request_timeout_ms, "ms",
       "time one admin-port request may take to arrive, counted from the previous one "
       "(a trickle of bytes does not restart it)",
       "the connection is closed"},
      {"call_log_calls", &Limits::call_log_calls, "count",
       "calls the test controls' call log keeps (--test-controls)", "the oldest calls are dropped"},
      {"call_log_bytes", &Limits::call_log_bytes, "bytes",
       "bytes the test controls' call log keeps", "the oldest calls are dropped"},
      {"call_log_page_bytes", &Limits::call_log_page_bytes, "bytes",
       "JSON of one GET /control/calls answer (at least one call is always sent)",
       "the answer ends early with \"truncated\": true, \"remaining\" and \"next_since\" "
       "(ask again with since=next_since)"},
      {"fault_rules", &Limits::fault_rules, "count", "test-controls fault rules installed at once",
       "adding a rule is refused with 400"},
  };
  return all;
}

const Limits& CurrentLimits() { return MutableLimits(); }

void SetLimits(const Limits& limits) { MutableLimits() = limits; }

bool ParseLimitAssignment(const std::string& text, Limits* limits, std::string* error) {
  const size_t eq = text.find('=');
  const std::string name = text.substr(0, eq);
  const LimitInfo* info = nullptr;
  for (const LimitInfo& candidate : AllLimits()) {
    if (name == candidate.name) info = &candidate;
  }
  if (info == nullptr) {
    *error = "unknown limit '" + name + "' (known:";
    for (const LimitInfo& candidate : AllLimits()) *error += std::string(" ") + candidate.name;
    *error += ")";
    return false;
  }
  if (eq == std::string::npos) {
    *error = "--limit needs NAME=VALUE, got '" + text + "'";
    return false;
  }
  std::string value = text.substr(eq + 1);
  int64_t scale = 1;
  if (!value.empty() && std::strcmp(info->unit, "bytes") == 0) {
    switch (value.back()) {
      case 'K': case 'k': scale = int64_t{1} << 10; break;
      case 'M': case 'm': scale = int64_t{1} << 20; break;
      case 'G': case 'g': scale = int64_t{1} << 30; break;
      default: break;
    }
    if (scale != 1) value.pop_back();
  }
  int64_t parsed = 0;
  const char* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, parsed);
  if (value.empty() || ec != std::errc() || ptr != end || parsed < 0 ||
      parsed > std::numeric_limits<int64_t>::max() / scale) {
    *error = "bad value for limit " + name + ": '" + text.substr(eq + 1) + "'";
    return false;
  }
  const int64_t largest = LargestValue(*info);
  if (parsed * scale > largest) {
    const std::string shown = FormatValue(largest, info->unit);
    const std::string exact = std::to_string(largest);
    *error = "limit " + name + " is at most " + shown +
             (shown.compare(0, exact.size(), exact) == 0 ? "" : " (" + exact + ")") + ", not '" +
             text.substr(eq + 1) + "'";
    return false;
  }
  limits->*(info->field) = parsed * scale;
  return true;
}

std::string DescribeLimits(const Limits& limits) {
  std::string out =
      "| limit (--limit NAME=VALUE) | value | at most | bounds | past it, the client gets |\n"
      "| --- | --- | --- | --- | --- |\n";
  for (const LimitInfo& info : AllLimits()) {
    out += std::string("| `") + info.name + "` | " + FormatValue(limits.*(info.field), info.unit) +
           " | " + FormatValue(LargestValue(info), info.unit) + " | " + info.meaning + " | " +
           info.past_it + " |\n";
  }
  return out;
}

}  // namespace hbemu
