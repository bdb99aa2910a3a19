#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "storage/clock.h"
#include "storage/scanner.h"

namespace hbemu::server {

// Open scanners of one service by id. HBase keeps them in a Guava cache with
// expireAfterAccess (Thrift1: twice hbase.client.scanner.timeout.period, Thrift2: once) and no
// size bound; here a scanner unused for longer than the idle timeout is closed by a timer, and
// past `max_open` open scanners the longest idle one is closed to make room (COMPATIBILITY.md).
// Either way its id becomes invalid, so a client that leaks scanners cannot hold snapshots or
// memory without bound. Ids count up from 0 for the life of the process (HBase's counter) and
// wrap at 2^31 to 0, skipping ids still open. Thread-safe.
class ScannerRegistry {
 public:
  struct Entry {
    ~Entry();  // gives its bytes back to the scanner_bytes budget
    std::mutex mu;  // one call at a time per scanner
    // Null until the first fetch that asks for rows opens it from `spec` (FetchScannerRows).
    std::unique_ptr<storage::Scanner> scanner;
    storage::ScanSpec spec;  // what the scanner is opened with
    bool sorted_columns = false;
    std::string table;  // the table scanned, for the admin console's counts
    // Bytes counted against the scanner_bytes budget for it: its request, and after each
    // fetch the rows it keeps for the next (guarded by mu once registered).
    int64_t charged = 0;
  };

  // `max_open` below 1 counts as 1. Starts the expiry timer's thread, which sleeps while no
  // scanner is open.
  ScannerRegistry(storage::Clock* clock, int64_t idle_timeout_ms, int64_t max_open);
  // max_open from CurrentLimits().open_scanners.
  ScannerRegistry(storage::Clock* clock, int64_t idle_timeout_ms);
  ~ScannerRegistry();
  ScannerRegistry(const ScannerRegistry&) = delete;
  ScannerRegistry& operator=(const ScannerRegistry&) = delete;

  int32_t Add(std::unique_ptr<storage::Scanner> scanner, bool sorted_columns,
              std::string table = "");
  // A scanner of `table` opened by its first fetch that asks for rows, as HBase's client opens
  // its region scanner (so a missing table fails there, and writes made before it are seen).
  // Refused, with HBase's retryable RegionTooBusyException, when what it holds would take the
  // bytes all open scanners of the process hold past the scanner_bytes limit: a scan naming
  // millions of columns keeps them until it is closed.
  storage::Status AddUnopened(std::string table, storage::ScanSpec spec, bool sorted_columns,
                              int32_t* id);
  // After a fetch: counts what the entry's scanner keeps now (a batched scan's rows read
  // ahead). REQUIRES: entry->mu held.
  static void Recount(Entry* entry);
  // Bytes all open scanners of the process hold against the scanner_bytes limit.
  static int64_t HeldBytes();
  // nullptr when the id is unknown, closed or expired. Touching it restarts its idle timer.
  std::shared_ptr<Entry> Find(int32_t id);
  // False when the id is unknown, closed or expired.
  bool Remove(int32_t id);
  size_t size() const;
  // Scanners closed because they sat idle past the timeout, or were the longest idle when the
  // open_scanners limit was reached, since start.
  uint64_t expired() const { return expired_.load(std::memory_order_relaxed); }
  // Of those, the ones closed for the limit.
  uint64_t evicted() const { return evicted_.load(std::memory_order_relaxed); }

  // The clock was moved (test controls): the timer looks at once for scanners it expired.
  void ClockChanged();

  // Test hook: the next id Add will try.
  void SetNextIdForTesting(int32_t id);

 private:
  struct Slot {
    int32_t id;
    std::shared_ptr<Entry> entry;
    int64_t last_used_ms;
  };
  using Lru = std::list<Slot>;  // front: the longest idle

  // Moves expired scanners of the idle end into *closing (closed by the caller, unlocked).
  // Returns the clock reading at which the next one expires, or INT64_MAX.
  int64_t ExpireLocked(int64_t now_ms, std::vector<std::shared_ptr<Entry>>* closing);
  void Touch(Lru::iterator slot, int64_t now_ms);
  int32_t AddEntry(std::shared_ptr<Entry> entry);
  int32_t NextFreeIdLocked();
  void RunTimer();

  storage::Clock* const clock_;
  const int64_t idle_timeout_ms_;
  const size_t max_open_;
  mutable std::mutex mu_;
  std::condition_variable timer_cv_;
  bool stopping_ = false;                               // guarded by mu_
  std::atomic<uint64_t> expired_{0};
  std::atomic<uint64_t> evicted_{0};
  int32_t next_id_ = 0;                                 // guarded by mu_
  Lru lru_;                                             // guarded by mu_
  std::unordered_map<int32_t, Lru::iterator> by_id_;    // guarded by mu_
  std::thread timer_;
};

}  // namespace hbemu::server
