#include "storage/row_locks.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <vector>

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
  std::vector<std::unique_lock<std::mutex>> locks;
  // A big batch touches most stripes: marking them in a bitmap and walking it in order beats
  // sorting one stripe number per row.
  if (rows.size() > stripes_ / 16) {
    std::vector<bool> wanted(stripes_);
    size_t count = 0;
    for (std::string_view row : rows) {
      auto bit = wanted[Stripe(table_id, row)];
      if (!bit) ++count;
      bit = true;
    }
    locks.reserve(count);
    for (size_t s = 0; s < stripes_; ++s) {
      if (wanted[s]) locks.emplace_back(mutexes_[s]);
    }
    return locks;
  }
  std::vector<size_t> stripes;
  stripes.reserve(rows.size());
  for (std::string_view row : rows) stripes.push_back(Stripe(table_id, row));
  std::sort(stripes.begin(), stripes.end());
  stripes.erase(std::unique(stripes.begin(), stripes.end()), stripes.end());
  locks.reserve(stripes.size());
  for (size_t s : stripes) locks.emplace_back(mutexes_[s]);
  return locks;
}

}  // namespace hbemu::storage
