#include "storage/row_locks.h"

#include <algorithm>
#include <functional>
#include <string_view>

namespace hbemu::storage {

RowLocks::RowLocks(size_t stripes) : stripes_(stripes), mutexes_(new std::mutex[stripes]) {}

size_t RowLocks::Stripe(uint64_t table_id, std::string_view row) const {
  const size_t h = std::hash<std::string_view>()(row) ^ (table_id * 0x9e3779b97f4a7c15ULL);
  return h % stripes_;
}

std::unique_lock<std::mutex> RowLocks::Lock(uint64_t table_id, std::string_view row) {
  return std::unique_lock<std::mutex>(mutexes_[Stripe(table_id, row)]);
}

std::vector<std::unique_lock<std::mutex>> RowLocks::LockAll(
    uint64_t table_id, const std::vector<std::string_view>& rows) {
  std::vector<size_t> stripes;
  stripes.reserve(rows.size());
  for (std::string_view row : rows) stripes.push_back(Stripe(table_id, row));
  std::sort(stripes.begin(), stripes.end());
  stripes.erase(std::unique(stripes.begin(), stripes.end()), stripes.end());
  std::vector<std::unique_lock<std::mutex>> locks;
  locks.reserve(stripes.size());
  for (size_t s : stripes) locks.emplace_back(mutexes_[s]);
  return locks;
}

}  // namespace hbemu::storage
