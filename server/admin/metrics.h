#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "server/admin/heat_map.h"
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
// process, shared by both Thrift services; thread-safe. Entries are created on first use and
// live as long as the object, so pointers to them stay valid.
class Metrics {
 public:
  Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // The stats of one method, created on first use. Cheap on repeat from the same thread.
  MethodStats* Method(std::string_view service, std::string_view method);
  // The stats of one table, created on first use. Cheap on repeat from the same thread.
  TableStats* Table(std::string_view table);

  // Snapshots of the entry lists, sorted by name (the entries themselves stay live).
  std::vector<const MethodStats*> Methods() const;
  std::vector<const TableStats*> Tables() const;

  // Tells a table's region boundaries (sorted split keys) to its heat map when the table is
  // first counted, so counts land in the right region from the first call. Set before serving.
  using RegionSource = std::function<std::vector<std::string>(std::string_view table)>;
  void SetRegionSource(RegionSource source) { region_source_ = std::move(source); }

  // Seconds on the monotonic clock, the time base of every window.
  static int64_t NowSeconds();

 private:
  const uint64_t serial_;
  RegionSource region_source_;  // tells this object's per-thread cache entries from another's
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<MethodStats>, std::less<>> methods_;  // key service/method
  std::map<std::string, std::unique_ptr<TableStats>, std::less<>> tables_;
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
