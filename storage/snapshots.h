#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "storage/clock.h"
#include "storage/snapshot_records.h"
#include "storage/status.h"
#include "storage/store_limits.h"

namespace leveldb {
class DB;
class WriteBatch;
struct ReadOptions;
}

namespace hbemu::storage {

class Catalog;
class TableSweeper;
class WriteGate;
struct TableInstall;

// What ListSnapshots shows of one snapshot.
struct SnapshotInfo {
  std::string name;
  int64_t created_ms = 0;
  bool whole_store = false;
  std::vector<std::string> tables;  // "t" or "ns:t", in the order they were named
  uint64_t cells = 0;
  uint64_t bytes = 0;
};

struct RestoreOptions {
  // HBase's restore_snapshot: a table being replaced must be disabled, and stays disabled.
  // Without it (the test controls) each table comes back enabled or disabled as it was.
  bool require_disabled = false;
};

// Named snapshots of tables or of the whole store, for tests that go back to a seeded state
// between cases (issue 22). A snapshot copies every stored cell (all versions, delete markers,
// cell TTLs) of its tables, as one LevelDB snapshot sees them, under table ids of its own, and
// keeps each table's descriptor (families, split keys, attributes, enabled state). Both live
// in the one LevelDB, so they survive restarts on disk.
//
// A restore gives each table a fresh id, copies the snapshot's cells there and switches the
// catalog to it in the same synced WriteBatch: readers see the old table or the restored one,
// never a mix, and the old cells go to the sweeper in the background, so the cost of a restore
// is one read of the snapshot's cells and one batch write of them (no deletes in the request).
//
// Bounded by the `snapshots` and `snapshot_bytes` limits. Thread-safe; one operation at a time.
class Snapshots {
 public:
  // `gate`: the store's (write_gate.h), held alone while a restore or clone installs.
  static Status Open(leveldb::DB* db, Catalog* catalog, TableSweeper* sweeper, WriteGate* gate,
                     Clock* clock, const StoreLimits& limits, std::unique_ptr<Snapshots>* out);

  // Snapshots `tables` ("t" or "ns:t", disabled ones too), or every table and namespace when
  // `tables` is empty.
  Status Take(std::string_view name, const std::vector<std::string>& tables);
  // Brings the snapshot's tables back (re-creating dropped ones); a whole-store snapshot also
  // drops the tables made since and restores the namespaces.
  Status Restore(std::string_view name, const RestoreOptions& options);
  // HBase's clone_snapshot: a new, enabled table `table` with the cells and schema of the
  // snapshot's one table.
  Status Clone(std::string_view name, std::string_view table);
  Status Delete(std::string_view name);
  // Sorted by name.
  std::vector<SnapshotInfo> List() const;

  // Test hook: called as each table's cells start to be copied (Take, Restore, Clone).
  void SetCopyHookForTesting(std::function<void()> hook) { copy_hook_ = std::move(hook); }

 private:
  Snapshots(leveldb::DB* db, Catalog* catalog, TableSweeper* sweeper, WriteGate* gate,
            Clock* clock, const StoreLimits& limits);
  Status Load();
  // With mu_ held.
  Status FindLocked(std::string_view name, const SnapshotRecord** out) const;
  // With mu_ held: installs `tables` (from snapshot `record`, table i's cells at
  // record.tables[i].id) as `install` describes.
  Status InstallLocked(const SnapshotRecord& record, TableInstall* install);
  // Adds every cell of table `from`, as `read` sees it, to *batch under table `to`: the cell
  // keys differ only in the table id that follows the tag. Stops with an error once *bytes
  // passes `room` (what the snapshot_bytes limit leaves after `kept`, the other snapshots'
  // bytes). Runs without the catalog's mutex.
  Status CopyCells(const leveldb::ReadOptions& read, uint64_t from, uint64_t to, uint64_t room,
                   uint64_t kept, leveldb::WriteBatch* batch, uint64_t* bytes, uint64_t* cells);

  leveldb::DB* const db_;
  Catalog* const catalog_;
  TableSweeper* const sweeper_;
  WriteGate* const gate_;
  Clock* const clock_;
  const StoreLimits limits_;  // snapshots, snapshot_bytes
  mutable std::mutex mu_;
  std::map<std::string, SnapshotRecord, std::less<>> records_;  // guarded by mu_
  uint64_t total_bytes_ = 0;                                   // guarded by mu_
  std::function<void()> copy_hook_;
};

}  // namespace hbemu::storage
