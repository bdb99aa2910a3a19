#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace hbemu::storage {

// Striped row locks: every mutation and read-modify-write of a row holds its stripe, so
// increments, appends and check-and-put are atomic per row as in HBase. Rows that share a
// stripe merely serialise. Thread-safe.
class RowLocks {
 public:
  explicit RowLocks(size_t stripes = 1024);
  std::unique_lock<std::mutex> Lock(uint64_t table_id, std::string_view row);
  // Locks the stripes of all `rows` (each once, in stripe order, so two callers cannot
  // deadlock). REQUIRES: the caller holds no stripe.
  std::vector<std::unique_lock<std::mutex>> LockAll(uint64_t table_id,
                                                    const std::vector<std::string_view>& rows);

 private:
  size_t Stripe(uint64_t table_id, std::string_view row) const;

  const size_t stripes_;
  std::unique_ptr<std::mutex[]> mutexes_;
};

}  // namespace hbemu::storage
