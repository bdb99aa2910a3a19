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
// Work survives restarts: the markers are in the catalog.
class TableSweeper {
 public:
  TableSweeper(leveldb::DB* db, Catalog* catalog);
  ~TableSweeper();  // calls Stop()

  void Start();
  void Wake();  // a table was dropped
  void Stop();  // finishes the batch in progress, then returns; leftover work resumes on reopen
  // Blocks until no dropped table is left to sweep (tests).
  void WaitIdle();

 private:
  void Run();
  bool SweepOne(uint64_t table_id);  // false when stopping mid-way

  leveldb::DB* const db_;
  Catalog* const catalog_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;        // guarded by mu_
  bool work_ = false;        // guarded by mu_
  bool busy_ = false;        // guarded by mu_
  std::thread thread_;
};

}  // namespace hbemu::storage
