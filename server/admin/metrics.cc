#include "server/admin/metrics.h"

#include <algorithm>
#include <exception>

namespace hbemu::server::admin {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

std::atomic<uint64_t> next_serial{1};

// A few recent lookups per thread, so the per-call path compares a short string instead of
// taking the map's mutex. Entries of another Metrics object (tests make several) never match.
template <class Entry>
struct RecentLookups {
  static constexpr int kSize = 8;
  struct Item {
    uint64_t serial = 0;
    std::string key;
    std::string key2;
    Entry* entry = nullptr;
  };
  Item items[kSize];
  int next = 0;

  Entry* Find(uint64_t serial, std::string_view key, std::string_view key2 = {}) const {
    for (const Item& item : items) {
      if (item.serial == serial && item.key == key && item.key2 == key2) return item.entry;
    }
    return nullptr;
  }
  void Put(uint64_t serial, std::string_view key, std::string_view key2, Entry* entry) {
    Item& item = items[next];
    next = (next + 1) % kSize;
    item.serial = serial;
    item.key.assign(key.data(), key.size());
    item.key2.assign(key2.data(), key2.size());
    item.entry = entry;
  }
};

thread_local RecentLookups<MethodStats> recent_methods;
thread_local RecentLookups<TableStats> recent_tables;
thread_local CallScope* current_call = nullptr;

std::string MethodKey(std::string_view service, std::string_view method) {
  std::string key(service);
  key += '/';
  key += method;
  return key;
}

void NoteRow(std::string_view table, std::string_view row, bool write) {
  CallScope* call = current_call;
  if (call == nullptr || call->metrics() == nullptr) return;
  TableStats* stats = call->metrics()->Table(table);
  (write ? stats->rows_written : stats->rows_read).fetch_add(1, kRelaxed);
  stats->heat.Record(row, write, call->now_s());
}

}  // namespace

const char* OutcomeName(Outcome outcome) { return outcome == Outcome::kOk ? "ok" : "error"; }

void MethodStats::Record(Outcome outcome, int64_t micros, int64_t now_s) {
  calls[static_cast<int>(outcome)].fetch_add(1, kRelaxed);
  const auto bound = std::lower_bound(kLatencyBoundsUs.begin(), kLatencyBoundsUs.end(), micros);
  latency[bound - kLatencyBoundsUs.begin()].fetch_add(1, kRelaxed);
  latency_sum_us.fetch_add(static_cast<uint64_t>(std::max<int64_t>(micros, 0)), kRelaxed);
  recent.Add(now_s);
}

Metrics::Metrics() : serial_(next_serial.fetch_add(1)) {}

int64_t Metrics::NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

MethodStats* Metrics::Method(std::string_view service, std::string_view method) {
  if (MethodStats* found = recent_methods.Find(serial_, method, service)) return found;
  const std::string key = MethodKey(service, method);
  MethodStats* stats;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = methods_.find(key);
    if (it == methods_.end()) {
      it = methods_
               .emplace(key, std::make_unique<MethodStats>(std::string(service),
                                                           std::string(method)))
               .first;
    }
    stats = it->second.get();
  }
  recent_methods.Put(serial_, method, service, stats);
  return stats;
}

TableStats* Metrics::Table(std::string_view table) {
  if (TableStats* found = recent_tables.Find(serial_, table)) return found;
  TableStats* stats;
  bool created = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = tables_.find(table);
    if (it == tables_.end()) {
      it = tables_.emplace(std::string(table), std::make_unique<TableStats>(std::string(table)))
               .first;
      created = true;
    }
    stats = it->second.get();
  }
  // Outside the lock: the source reads the catalog.
  if (created && region_source_) stats->heat.SetRegions(region_source_(table));
  recent_tables.Put(serial_, table, {}, stats);
  return stats;
}

std::vector<const MethodStats*> Metrics::Methods() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const MethodStats*> out;
  for (const auto& [key, stats] : methods_) out.push_back(stats.get());
  return out;
}

std::vector<const TableStats*> Metrics::Tables() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const TableStats*> out;
  for (const auto& [key, stats] : tables_) out.push_back(stats.get());
  return out;
}

CallScope::CallScope(Metrics* metrics, std::string_view service, std::string_view method)
    : metrics_(metrics), outer_(current_call) {
  if (metrics_ == nullptr) return;
  method_ = metrics_->Method(service, method);
  start_ = std::chrono::steady_clock::now();
  now_s_ = std::chrono::duration_cast<std::chrono::seconds>(start_.time_since_epoch()).count();
  uncaught_ = std::uncaught_exceptions();
  current_call = this;
}

CallScope::~CallScope() {
  if (metrics_ == nullptr) return;
  current_call = outer_;
  // An exception leaving the dispatch (a message that does not decode) is a failed call too.
  const bool failed = failed_ || std::uncaught_exceptions() > uncaught_;
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - start_)
                          .count();
  method_->Record(failed ? Outcome::kError : Outcome::kOk, micros, now_s_);
}

void NoteCallFailed() {
  if (current_call != nullptr) current_call->Failed();
}

void NoteRead(std::string_view table, std::string_view row) { NoteRow(table, row, false); }
void NoteWrite(std::string_view table, std::string_view row) { NoteRow(table, row, true); }

namespace {

// Counts rows [first, end) of a reply or a batch, one heat-map record per run of rows that land
// in the same cells.
template <typename RowAt>
void NoteRows(std::string_view table, size_t first, size_t end, bool write, const RowAt& row_at) {
  CallScope* call = current_call;
  if (call == nullptr || call->metrics() == nullptr || first >= end) return;
  TableStats* stats = call->metrics()->Table(table);
  (write ? stats->rows_written : stats->rows_read).fetch_add(end - first, kRelaxed);
  size_t run = first;  // the first row of the run being counted
  for (size_t i = first + 1; i <= end; ++i) {
    if (i < end && i - run < UINT32_MAX && stats->heat.SameCells(row_at(run), row_at(i))) {
      continue;
    }
    stats->heat.Record(row_at(run), write, call->now_s(), static_cast<uint32_t>(i - run));
    run = i;
  }
}

}  // namespace

void NoteReads(std::string_view table, const storage::RowBatch& rows, size_t first) {
  NoteRows(table, first, rows.size(), /*write=*/false,
           [&rows](size_t i) { return rows.row_key(i); });
}

void NoteWrites(std::string_view table, size_t count,
                const std::function<std::string_view(size_t)>& row_at) {
  NoteRows(table, 0, count, /*write=*/true, row_at);
}

}  // namespace hbemu::server::admin
