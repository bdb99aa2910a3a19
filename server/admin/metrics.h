#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/admin/heat_map.h"
#include "storage/clock.h"
#include "storage/row_batch.h"

namespace hbemu::server::admin {

// Latency histogram bounds in microseconds (Prometheus reports them in seconds), plus +Inf.
inline constexpr std::array<int64_t, 14> kLatencyBoundsUs = {
    50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 1000000, 5000000};
inline constexpr int kLatencyBuckets = static_cast<int>(kLatencyBoundsUs.size()) + 1;

enum class Outcome : int { kOk = 0, kError = 1 };
inline constexpr int kOutcomes = 2;
const char* OutcomeName(Outcome outcome);

// Calls of one method of one service. Counters only grow; relaxed atomics, so a reader sees
// each figure exact but the set not as one instant.
struct MethodStats {
  MethodStats(std::string service_name, std::string method_name)
      : service(std::move(service_name)), method(std::move(method_name)) {}
  const std::string service;
  const std::string method;
  std::atomic<uint64_t> calls[kOutcomes] = {};
  std::atomic<uint64_t> latency[kLatencyBuckets] = {};  // per bucket, not cumulative
  std::atomic<uint64_t> latency_sum_us{0};
  WindowedCounter recent;  // calls per recent window, for "calls per second"

  void Record(Outcome outcome, int64_t micros, int64_t now_s);
};

// Reads and writes of one table (by its full name "t" or "ns:t"), exact, plus its heat map.
struct TableStats {
  explicit TableStats(std::string table_name) : table(std::move(table_name)) {}
  const std::string table;
  std::atomic<uint64_t> rows_read{0};
  std::atomic<uint64_t> rows_written{0};
  HeatMap heat;
};

// Everything the server counts about calls, for /metrics and the console. One object per
// process, shared by both Thrift services; thread-safe.
//
// What a client can make it hold is bounded: a series per method that the service's IDL
// declares (every other name the client sends is counted as "unknown"), and a series per
// existing table, for at most `metric_tables` tables (server/limits.h; further tables are
// counted together as kOtherTables). Dropped tables' series are removed: whenever the console
// reads the metrics, and whenever the number of tables with series doubles.
class Metrics {
 public:
  // A table's region boundaries (sorted split keys), or nullopt when no such table exists.
  using DescribeTable =
      std::function<std::optional<std::vector<std::string>>(std::string_view table)>;
  // The names ("t", "ns:t") of every existing table.
  using ListTables = std::function<std::vector<std::string>()>;
  // The series tables past the `metric_tables` cap are counted under. Parentheses cannot be
  // part of a table name, so no table's own series can have this label.
  static constexpr std::string_view kOtherTables = "(other)";

  Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // Where the metrics learn which tables exist. Set before serving; without it (unit tests)
  // every table named is taken to exist, with one region.
  void SetTableCatalog(DescribeTable describe, ListTables list);

  // The stats of one method, created on first use; the "unknown" entry for a name the
  // service does not declare. Entries are never removed, so the pointer stays valid as long
  // as this object. Cheap on repeat from the same thread.
  MethodStats* Method(std::string_view service, std::string_view method);
  // The stats of one table, created on first use (the kOtherTables entry past the cap); null
  // when the catalog says there is no such table. Cheap on repeat from the same thread.
  std::shared_ptr<TableStats> Table(std::string_view table);
  // The stats of a table that has them, creating nothing (for readers).
  std::shared_ptr<TableStats> FindTable(std::string_view table) const;
  // Removes the series of every table not named in `existing` (sorted or not) that the catalog
  // does not know either (it may have been made since the listing).
  void RetainTables(const std::vector<std::string>& existing);

  // Snapshots of the entry lists, sorted by name (the entries themselves stay live).
  std::vector<const MethodStats*> Methods() const;
  std::vector<std::shared_ptr<const TableStats>> Tables() const;

  // Seconds on the monotonic clock, the time base of every window.
  static int64_t NowSeconds();
  // Windows follow `clock` from now on (the test controls' clock, so moving it ages the heat
  // map and the call rates); null goes back to the monotonic clock. Before serving only.
  static void SetClock(const storage::Clock* clock);

  // For the per-thread lookup caches in metrics.cc.
  uint64_t serial() const { return serial_; }
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

 private:
  std::shared_ptr<TableStats> CreateTable(std::string_view table);

  const uint64_t serial_;  // tells this object's per-thread cache entries from another's
  // Bumped whenever a table's series is removed, so per-thread caches drop what they hold.
  std::atomic<uint64_t> generation_{0};
  DescribeTable describe_;
  ListTables list_;
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<MethodStats>, std::less<>> methods_;  // key service/method
  std::map<std::string, std::shared_ptr<TableStats>, std::less<>> tables_;
  // Own-series tables (not kOtherTables) at which the next sweep of dropped tables runs.
  size_t sweep_at_ = 64;
  int64_t last_sweep_s_ = -1;
};

// The call running on this thread, from the processor's dispatch to its reply. Handlers report
// into it through the free functions below without knowing whether anyone counts: outside a
// CallScope (unit tests calling a handler directly) they do nothing.
class CallScope {
 public:
  // `metrics` may be null: then nothing is counted.
  CallScope(Metrics* metrics, std::string_view service, std::string_view method);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  void Failed() { failed_ = true; }
  Metrics* metrics() const { return metrics_; }
  int64_t now_s() const { return now_s_; }

 private:
  Metrics* const metrics_;
  MethodStats* method_ = nullptr;
  CallScope* const outer_;
  std::chrono::steady_clock::time_point start_;
  int64_t now_s_ = 0;
  bool failed_ = false;
  int uncaught_ = 0;
};

// The current call ends in a declared error (the Thrift error mappers call this).
void NoteCallFailed();
// The current call read or wrote `row` of `table` (call after the store call succeeded).
void NoteRead(std::string_view table, std::string_view row);
void NoteWrite(std::string_view table, std::string_view row);
// NoteRead of every row of `rows` from `first` on (a scan reply's rows, in order). Consecutive
// rows that land in the same heat-map cells are counted at once: counting each row of a full
// scan on its own was a tenth of the scan's server CPU.
void NoteReads(std::string_view table, const storage::RowBatch& rows, size_t first = 0);
// NoteWrite of `count` rows, the i-th being row_at(i) (a batch's rows, in order), counted run by
// run as NoteReads does.
void NoteWrites(std::string_view table, size_t count,
                const std::function<std::string_view(size_t)>& row_at);

}  // namespace hbemu::server::admin
