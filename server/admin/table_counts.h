#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hbemu::storage {
class Store;
struct TableDescriptor;
}  // namespace hbemu::storage

namespace hbemu::server::admin {

// Stored rows and cells per table for /tables and the table page. Counting walks a table's
// cells, so it is bounded and remembered: one request walks at most admin_count_cells cells in
// all (server/limits.h), tables counted longest ago first; a count that stopped there is shown
// as "at least". A table's count is kept while its descriptor is the same object (no DDL), the
// rows written to it (as the metrics count them) are unchanged and it is younger than
// kFreshSeconds. Thread-safe.
class TableCounts {
 public:
  static constexpr int64_t kFreshSeconds = 10;

  explicit TableCounts(const storage::Store* store) : store_(store) {}

  struct Table {
    std::shared_ptr<const storage::TableDescriptor> descriptor;
    uint64_t rows_written = 0;  // the metrics' count: a change means the cells changed
  };
  struct Count {
    bool known = false;     // false: not counted yet (the budget ran out first)
    bool complete = false;  // false: at least rows/cells
    uint64_t rows = 0;
    uint64_t cells = 0;
  };
  // Counts of `tables`, in their order; forgets tables not among them. `now_s`: a monotonic
  // clock in seconds.
  std::vector<Count> Get(const std::vector<Table>& tables, int64_t now_s);

 private:
  struct Entry {
    std::shared_ptr<const storage::TableDescriptor> descriptor;
    uint64_t rows_written = 0;
    int64_t counted_s = 0;
    bool budget_cut = false;  // stopped by the request's budget, not the table's own bound
    Count count;
  };

  const storage::Store* const store_;
  std::mutex mu_;
  std::map<std::string, Entry> entries_;  // by table name
};

}  // namespace hbemu::server::admin
