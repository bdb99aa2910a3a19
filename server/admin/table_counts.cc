#include "server/admin/table_counts.h"

#include <algorithm>
#include <set>

#include "server/limits.h"
#include "storage/store.h"

namespace hbemu::server::admin {

std::vector<TableCounts::Count> TableCounts::Get(const std::vector<Table>& tables,
                                                 int64_t now_s) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Count> out(tables.size());
  std::set<std::string> names;
  // Tables whose count is stale, the longest-ago counted first (never counted before any).
  std::vector<std::pair<int64_t, size_t>> stale;
  for (size_t i = 0; i < tables.size(); ++i) {
    const std::string name = tables[i].descriptor->name.ToString();
    names.insert(name);
    auto it = entries_.find(name);
    if (it == entries_.end()) {
      stale.emplace_back(INT64_MIN, i);
      continue;
    }
    const Entry& e = it->second;
    out[i] = e.count;
    if (e.budget_cut || e.descriptor != tables[i].descriptor ||
        e.rows_written != tables[i].rows_written || now_s - e.counted_s >= kFreshSeconds) {
      stale.emplace_back(e.budget_cut ? INT64_MIN + 1 : e.counted_s, i);
    }
  }
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = names.count(it->first) != 0 ? std::next(it) : entries_.erase(it);
  }

  std::stable_sort(stale.begin(), stale.end());
  const uint64_t bound = static_cast<uint64_t>(std::max<int64_t>(CurrentLimits().admin_count_cells, 0));
  uint64_t budget = bound;
  for (const auto& [ignored, i] : stale) {
    if (budget == 0) break;
    const std::string name = tables[i].descriptor->name.ToString();
    Count count;
    if (!store_->CountTable(name, budget, &count.rows, &count.cells, &count.complete).ok()) {
      continue;  // dropped meanwhile
    }
    count.known = true;
    budget -= count.cells;
    Entry& e = entries_[name];
    e.descriptor = tables[i].descriptor;
    e.rows_written = tables[i].rows_written;
    e.counted_s = now_s;
    // Cut short by what this request had left rather than by the table's own bound: the next
    // request counts it again, first.
    e.budget_cut = !count.complete && budget == 0 && count.cells < bound;
    e.count = count;
    out[i] = count;
  }
  return out;
}

}  // namespace hbemu::server::admin
