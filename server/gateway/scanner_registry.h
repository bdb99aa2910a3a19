#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "storage/clock.h"
#include "storage/scanner.h"

namespace hbemu::server {

// Open Thrift1 scanners by id. Ids start at 0 and count up for the life of the process, never
// reused until they wrap at 2^31 (HBase's AtomicInteger). A scanner unused for longer than the
// idle timeout is closed and its id becomes invalid, as with hbase.client.scanner.timeout.period,
// so leaked scanners cannot hold snapshots forever. Thread-safe.
class ScannerRegistry {
 public:
  struct Entry {
    std::mutex mu;  // one call at a time per scanner
    std::unique_ptr<storage::Scanner> scanner;
    bool sorted_columns = false;
    std::string table;  // the table scanned, for the admin console's counts
  };

  ScannerRegistry(storage::Clock* clock, int64_t idle_timeout_ms);

  int32_t Add(std::unique_ptr<storage::Scanner> scanner, bool sorted_columns,
              std::string table = "");
  // nullptr when the id is unknown, closed or expired. Touching it restarts its idle timer.
  std::shared_ptr<Entry> Find(int32_t id);
  // False when the id is unknown, closed or expired.
  bool Remove(int32_t id);
  size_t size() const;
  // Scanners closed because they sat idle past the timeout, since start.
  uint64_t expired() const { return expired_.load(std::memory_order_relaxed); }

 private:
  struct Slot {
    std::shared_ptr<Entry> entry;
    int64_t last_used_ms = 0;
  };
  void ExpireIdleLocked(int64_t now_ms);

  storage::Clock* const clock_;
  const int64_t idle_timeout_ms_;
  mutable std::mutex mu_;
  std::atomic<uint64_t> expired_{0};
  int32_t next_id_ = 0;                          // guarded by mu_
  int64_t last_sweep_ms_ = 0;                    // guarded by mu_
  std::unordered_map<int32_t, Slot> scanners_;   // guarded by mu_
};

}  // namespace hbemu::server
