#include "server/admin/metrics.h"

#include <algorithm>
#include <exception>

#include "server/admin/known_methods.h"
#include "server/limits.h"

namespace hbemu::server::admin {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

std::atomic<uint64_t> next_serial{1};

// A few recent method lookups per thread, so the per-call path compares a short string
// instead of taking the map's mutex. Entries of another Metrics object (tests make several)
// never match.
struct RecentMethods {
  static constexpr int kSize = 8;
  struct Item {
    uint64_t serial = 0;
    std::string service;
    std::string method;  // as the client sent it
    MethodStats* entry = nullptr;
  };
  Item items[kSize];
  int next = 0;

  MethodStats* Find(uint64_t serial, std::string_view service, std::string_view method) const {
    for (const Item& item : items) {
      if (item.serial == serial && item.method == method && item.service == service) {
        return item.entry;
      }
    }
    return nullptr;
  }
  void Put(uint64_t serial, std::string_view service, std::string_view method,
           MethodStats* entry) {
    Item& item = items[next];
    next = (next + 1) % kSize;
    item.serial = serial;
    item.service.assign(service.data(), service.size());
    item.method.assign(method.data(), method.size());
    item.entry = entry;
  }
};

// The same for tables. An item holds its entry alive, so a table's series removed meanwhile
// (RetainTables) is never freed under a call still counting into it; an item from before a
// removal (another generation) is dropped at the next lookup, so counts of a table made again
// under the same name go to its new entry.
struct RecentTables {
  static constexpr int kSize = 8;
  struct Item {
    uint64_t serial = 0;
    uint64_t generation = 0;
    std::string table;
    std::shared_ptr<TableStats> entry;
  };
  Item items[kSize];
  int next = 0;

  TableStats* Find(uint64_t serial, uint64_t generation, std::string_view table) {
    for (Item& item : items) {
      if (item.serial != serial) continue;
      if (item.generation != generation) {
        item = Item();
      } else if (item.table == table) {
        return item.entry.get();
      }
    }
    return nullptr;
  }
  void Put(uint64_t serial, uint64_t generation, std::string_view table,
           std::shared_ptr<TableStats> entry) {
    Item& item = items[next];
    next = (next + 1) % kSize;
    item.serial = serial;
    item.generation = generation;
    item.table.assign(table.data(), table.size());
    item.entry = std::move(entry);
  }
};

thread_local RecentMethods recent_methods;
thread_local RecentTables recent_tables;
thread_local CallScope* current_call = nullptr;

std::string MethodKey(std::string_view service, std::string_view method) {
  std::string key(service);
  key += '/';
  key += method;
  return key;
}

// The stats `table` counts into on this call's thread, or null (no such table). Valid until
// this thread's next lookup: the thread's cache holds the entry.
TableStats* CountedTable(Metrics* metrics, std::string_view table) {
  const uint64_t generation = metrics->generation();
  if (TableStats* found = recent_tables.Find(metrics->serial(), generation, table)) return found;
  std::shared_ptr<TableStats> stats = metrics->Table(table);
  if (stats == nullptr) return nullptr;
  TableStats* raw = stats.get();
  recent_tables.Put(metrics->serial(), generation, table, std::move(stats));
  return raw;
}

void NoteRow(std::string_view table, std::string_view row, bool write) {
  CallScope* call = current_call;
  if (call == nullptr || call->metrics() == nullptr) return;
  TableStats* stats = CountedTable(call->metrics(), table);
  if (stats == nullptr) return;
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

namespace {
std::atomic<const storage::Clock*> window_clock{nullptr};
}  // namespace

void Metrics::SetClock(const storage::Clock* clock) { window_clock.store(clock); }

int64_t Metrics::NowSeconds() {
  if (const storage::Clock* clock = window_clock.load(std::memory_order_relaxed)) {
    const int64_t ms = clock->NowMillis();
    return ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
  }
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Metrics::SetTableCatalog(DescribeTable describe, ListTables list) {
  describe_ = std::move(describe);
  list_ = std::move(list);
}

MethodStats* Metrics::Method(std::string_view service, std::string_view method) {
  if (MethodStats* found = recent_methods.Find(serial_, service, method)) return found;
  const std::string key =
      MethodKey(service, IsKnownMethod(service, method) ? method : kUnknownMethod);
  MethodStats* stats;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = methods_.find(key);
    if (it == methods_.end()) {
      const std::string_view name = std::string_view(key).substr(service.size() + 1);
      it = methods_
               .emplace(key, std::make_unique<MethodStats>(std::string(service),
                                                           std::string(name)))
               .first;
    }
    stats = it->second.get();
  }
  recent_methods.Put(serial_, service, method, stats);
  return stats;
}

std::shared_ptr<TableStats> Metrics::Table(std::string_view table) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = tables_.find(table);
    if (it != tables_.end()) return it->second;
  }
  return CreateTable(table);
}

std::shared_ptr<TableStats> Metrics::CreateTable(std::string_view table) {
  // Outside the lock: these read the catalog.
  std::optional<std::vector<std::string>> regions;
  if (describe_) {
    regions = describe_(table);
    if (!regions) return nullptr;
  }
  const size_t cap = static_cast<size_t>(std::max<int64_t>(CurrentLimits().metric_tables, 0));
  const int64_t now_s = NowSeconds();
  bool sweep = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const size_t own = tables_.size() - tables_.count(kOtherTables);
    // Dropped tables' series go when the series have doubled since the last sweep (amortised,
    // one catalog listing per table first counted), and at the cap at most once a second.
    sweep = list_ && (own >= sweep_at_ || (own >= cap && now_s != last_sweep_s_));
    if (sweep) last_sweep_s_ = now_s;
  }
  if (sweep) RetainTables(list_());

  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(table);
  if (it != tables_.end()) return it->second;
  const bool past_cap = tables_.size() - tables_.count(kOtherTables) >= cap;
  const std::string_view name = past_cap ? kOtherTables : table;
  it = tables_.find(name);
  if (it == tables_.end()) {
    auto stats = std::make_shared<TableStats>(std::string(name));
    // A table's heat map counts per region from its first call.
    if (!past_cap && regions) stats->heat.SetRegions(*regions);
    it = tables_.emplace(std::string(name), std::move(stats)).first;
  }
  return it->second;
}

std::shared_ptr<TableStats> Metrics::FindTable(std::string_view table) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(table);
  return it == tables_.end() ? nullptr : it->second;
}

void Metrics::RetainTables(const std::vector<std::string>& existing) {
  std::vector<std::string_view> keep(existing.begin(), existing.end());
  std::sort(keep.begin(), keep.end());
  std::vector<std::string> gone;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [name, stats] : tables_) {
      if (name != kOtherTables && !std::binary_search(keep.begin(), keep.end(), name)) {
        gone.push_back(name);
      }
    }
  }
  // A table made since `existing` was listed is not gone (outside the lock: this reads the
  // catalog).
  if (describe_) {
    auto exists = [this](const std::string& name) { return describe_(name).has_value(); };
    gone.erase(std::remove_if(gone.begin(), gone.end(), exists), gone.end());
  }
  std::lock_guard<std::mutex> lock(mu_);
  size_t removed = 0;
  for (const std::string& name : gone) removed += tables_.erase(name);
  if (removed > 0) generation_.fetch_add(1, std::memory_order_release);
  sweep_at_ = std::max<size_t>(64, 2 * tables_.size());
}

std::vector<const MethodStats*> Metrics::Methods() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const MethodStats*> out;
  for (const auto& [key, stats] : methods_) out.push_back(stats.get());
  return out;
}

std::vector<std::shared_ptr<const TableStats>> Metrics::Tables() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<const TableStats>> out;
  for (const auto& [key, stats] : tables_) out.push_back(stats);
  return out;
}

CallScope::CallScope(Metrics* metrics, std::string_view service, std::string_view method)
    : metrics_(metrics), outer_(current_call) {
  if (metrics_ == nullptr) return;
  method_ = metrics_->Method(service, method);
  // The processor answers a method it does not know with UNKNOWN_METHOD, without throwing.
  failed_ = method_->method == kUnknownMethod;
  start_ = std::chrono::steady_clock::now();
  now_s_ = Metrics::NowSeconds();
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
  TableStats* stats = CountedTable(call->metrics(), table);
  if (stats == nullptr) return;
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
