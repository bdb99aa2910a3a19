#include "storage/row_locks.h"

#include <functional>
#include <string_view>

namespace hbemu::storage {

RowLocks::RowLocks(size_t stripes) : stripes_(stripes), mutexes_(new std::mutex[stripes]) {}

std::unique_lock<std::mutex> RowLocks::Lock(uint64_t table_id, std::string_view row) {
  const size_t h = std::hash<std::string_view>()(row) ^ (table_id * 0x9e3779b97f4a7c15ULL);
  return std::unique_lock<std::mutex>(mutexes_[h % stripes_]);
}

}  // namespace hbemu::storage
