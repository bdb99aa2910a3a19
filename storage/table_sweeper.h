#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace leveldb {
class DB;
}

namespace hbemu::storage {

class Catalog;

// Deletes the cells of dropped tables in the background, in bounded batches so foreground
// writes are not starved, then compacts the range and forgets the table. LevelDB has no range
// delete, so dropping a table is O(1) in the request (a catalog marker) and the cost lands here.
// Work survives restarts: the markers are in the catalog. A sweep that fails (a read or write
// error) is tried again after `retry_ms`, doubling up to a minute, without waiting for the next
// drop.
class TableSweeper {
 public:
  TableSweeper(leveldb::DB* db, Catalog* catalog, int64_t retry_ms = 1000);
  ~TableSweeper();  // calls Stop()

  void Start();
  void Wake();  // a table was dropped
  void Stop();  // finishes the batch in progress, then returns; leftover work resumes on reopen
  // Blocks until no dropped table is left to sweep, a failed sweep included (tests).
  void WaitIdle();
  // Sweeps that failed and were (or will be) tried again, since start.
  uint64_t failures() const;

 private:
  void Run();
  // False when a dropped table could not be swept (or the sweeper is stopping).
  bool SweepAll();
  // Deletes the table's cells; SweepAll compacts and forgets the tables it swept.
  bool SweepOne(uint64_t table_id);

  leveldb::DB* const db_;
  Catalog* const catalog_;
  const int64_t retry_ms_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;          // guarded by mu_
  bool work_ = false;          // guarded by mu_
  bool busy_ = false;          // guarded by mu_
  bool retry_pending_ = false;  // guarded by mu_: the last sweep failed
  uint64_t failures_ = 0;       // guarded by mu_
  std::thread thread_;
};

}  // namespace hbemu::storage
