#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell.h"
#include "storage/clock.h"
#include "storage/comparators.h"
#include "storage/mutation.h"
#include "storage/read_spec.h"
#include "storage/scanner.h"
#include "storage/schema.h"
#include "storage/status.h"
#include "storage/store_limits.h"
#include "storage/write_gate.h"

namespace leveldb {
class DB;
class Env;
class Iterator;
class WriteBatch;
}  // namespace leveldb

namespace hbemu::storage {

class Catalog;
class ClockHorizon;
class CodecCheck;
class RowClock;
class RowLocks;
class Snapshots;
class TableSweeper;

struct StoreOptions {
  std::string path;            // data directory; created if missing (ignored in memory)
  bool in_memory = false;      // LevelDB's in-memory Env: nothing touches the disk
  Clock* clock = nullptr;      // nullptr: the system clock
  bool sync_writes = false;    // fsync every data write (DDL is always synced)
  // Tests: runs before each batch of a family's removal sweep (family_sweep.h).
  std::function<Status(uint64_t table_id, std::string_view family)> before_family_sweep_batch;
  // Tests: runs in every read between its table lookup and taking its view of the cells
  // (Store::ViewTable), with the table's name.
  std::function<void(std::string_view table)> before_read_view;
  // Tests: runs in every data write after its table lookup, before its batch is written.
  std::function<void()> before_data_write;
  StoreLimits limits;          // what the store bounds (the server's --limit values)
};

// The storage facade the server talks to: catalog operations and row reads and writes with
// HBase's semantics. Each row mutation is one atomic WriteBatch under that row's lock; reads
// and scanners see a consistent snapshot. Thread-safe.
class Store {
 public:
  static Status Open(const StoreOptions& options, std::unique_ptr<Store>* out);
  ~Store();  // stops background work and closes LevelDB
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // ---- Namespaces and tables (store_admin.cc). Table names are "t" or "ns:t".
  Status CreateNamespace(std::string_view ns,
                         std::map<std::string, std::string> configuration = {});
  Status ModifyNamespace(std::string_view ns, std::map<std::string, std::string> configuration);
  Status DeleteNamespace(std::string_view ns);
  std::vector<std::string> ListNamespaces() const;
  Status DescribeNamespace(std::string_view ns, NamespaceDescriptor* out) const;
  std::vector<NamespaceDescriptor> ListNamespaceDescriptors() const;
  Status CreateTable(std::string_view name, std::vector<FamilyDescriptor> families);
  // Uses the families, split keys, values and durability of `spec`.
  Status CreateTable(std::string_view name, TableDescriptor spec);
  Status DeleteTable(std::string_view name);  // REQUIRES: disabled
  // REQUIRES: disabled. Empties the table in O(1) (the old cells are swept in the
  // background) and enables it, keeping families and, if asked, the split keys.
  Status TruncateTable(std::string_view name, bool preserve_splits);
  Status EnableTable(std::string_view name);
  // Flushes the table first, as HBase's region close does: versions beyond a family's VERSIONS,
  // expired cells and cells hidden by delete markers are gone afterwards (prune.h).
  Status DisableTable(std::string_view name);
  // Online schema changes, as in HBase 2: the table may be enabled, and the next read uses
  // the new settings (VERSIONS, TTL, ...). A removed family's cells are deleted before the
  // call returns. On an enabled table the call ends with a flush under the old settings (the
  // reopen of HBase's regions). New families must pass HBase's codec check (codec_check.h).
  Status ModifyTable(std::string_view name, const TableDescriptor& spec);
  Status AddFamily(std::string_view name, FamilyDescriptor family);
  Status ModifyFamily(std::string_view name, FamilyDescriptor family);
  Status DeleteFamily(std::string_view name, std::string_view family);
  // Works on disabled tables too.
  Status DescribeTable(std::string_view name, std::shared_ptr<const TableDescriptor>* out) const;
  std::vector<std::shared_ptr<const TableDescriptor>> ListTables() const;
  // Asks LevelDB to compact the table's key range.
  Status CompactTable(std::string_view name);

  // ---- Data. All need an existing, enabled table.
  Status Mutate(std::string_view table, const RowMutation& mutation);
  // HBase's client batch: every row is applied on its own, a rejected row (empty row, unknown
  // family, ...) is skipped and the others are still written, with one LevelDB write for the
  // run and one server time for every row (as HBase gives one "now" to a batch). Returns the
  // first rejection, or a failure of the whole call (missing or disabled table, I/O);
  // *failures (optional) gets every rejected row.
  struct RowFailure {
    size_t index;  // into `mutations`
    Status status;
  };
  Status MutateRows(std::string_view table, const MutationBatchView& mutations,
                    std::vector<RowFailure>* failures = nullptr);
  Status MutateRows(std::string_view table, const std::vector<RowMutation>& mutations,
                    std::vector<RowFailure>* failures = nullptr);
  // result->cells is empty when nothing is visible.
  Status Get(std::string_view table, std::string_view row, const ReadSpec& spec,
             RowResult* result) const;
  Status OpenScanner(std::string_view table, const ScanSpec& spec,
                     std::unique_ptr<Scanner>* out) const;
  // Adds to 8-byte big-endian counters (a missing cell counts as 0). *result gets the new
  // cells sorted by column, as HBase's Result. Increments and appends are dated
  // max(now, old + 1) per column, never INT64_MAX (mutation_build.h); while the server's pace
  // runs a column ahead of the clock, its next server-dated write goes past it (row_clock.h).
  Status Increment(std::string_view table, std::string_view row,
                   const std::vector<ColumnIncrement>& increments, std::vector<Cell>* result);
  // Appends bytes to cells (a missing cell counts as empty). *result gets the new cells, sorted
  // by column.
  Status Append(std::string_view table, std::string_view row,
                const std::vector<ColumnAppend>& appends, std::vector<Cell>* result);
  // Applies `mutation` (to the same row) only if the newest visible value of family:qualifier
  // passes `expected op stored` by HBase's rule (CheckValueMatches in comparators.h; EQUAL with
  // `expected` nullopt or empty means "absent or empty").
  Status CheckAndMutate(std::string_view table, std::string_view row, std::string_view family,
                        std::string_view qualifier, CompareOp op,
                        const std::optional<std::string>& expected, const RowMutation& mutation,
                        bool* applied);

  // ---- Read-only views for the admin console (store_inspect.cc); the Thrift services never
  // use them. They work on disabled tables too.

  // One LevelDB property (leveldb.num-files-at-level<N>, leveldb.stats, leveldb.sstables,
  // leveldb.approximate-memory-usage). False when LevelDB does not know it.
  bool DbProperty(std::string_view name, std::string* value) const;
  // LevelDB's estimate of the bytes a table's cells take in table files (memtables not counted).
  Status ApproximateTableBytes(std::string_view table, uint64_t* bytes) const;

  // A stored cell as it is, delete markers included: what HBase's raw scan shows.
  struct RawCell {
    std::string row;
    std::string family;
    std::string qualifier;
    int64_t timestamp = 0;
    CellType type = CellType::kPut;
    std::string value;               // the first max_value_bytes bytes; empty for markers
    size_t value_size = 0;           // the stored value's full length
    int64_t expires_at_ms = INT64_MAX;  // a per-cell TTL ("_ttl"); INT64_MAX for none
  };
  // How much one ReadRawRows call reads: the page ends at the first bound reached (always after
  // at least one cell, so paging moves on), cutting a row when it must.
  struct RawReadLimits {
    size_t max_rows = 20;
    size_t max_cells = 20000;
    size_t max_bytes = 4 << 20;       // row, family, qualifier and value bytes kept
    size_t max_value_bytes = 1024;    // kept of each value
  };
  struct RawPage {
    std::vector<RawCell> cells;  // row order, then HBase cell order
    // Where the next page starts: the first cell not read (its RawPosition), and its row.
    // Both empty when the scan is done.
    std::string next_position;
    std::string next_row;
  };
  // Cells from `position` (a RawPosition; empty: from `start_row`), only rows starting with
  // `prefix`, from one snapshot, within `limits`. Nothing is hidden. A position before
  // `start_row` or `prefix` starts there instead.
  Status ReadRawRows(std::string_view table, std::string_view start_row, std::string_view prefix,
                     std::string_view position, const RawReadLimits& limits,
                     RawPage* out) const;
  // The same from `start_row`, with whole values and no byte bound (tests).
  Status ReadRawRows(std::string_view table, std::string_view start_row, std::string_view prefix,
                     size_t max_rows, size_t max_cells, RawPage* out) const;
  // An opaque place in a table's cells: where `cell` is stored, for a later ReadRawRows to
  // start at. Meaningful for the same table only.
  static std::string RawPosition(const RawCell& cell);
  // Rows and cells (puts and markers) stored for a table, counted up to `max_cells` cells;
  // *complete is false when the count stopped there.
  Status CountTable(std::string_view table, size_t max_cells, uint64_t* rows, uint64_t* cells,
                    bool* complete) const;

  // A UUID made when the data directory was created: HBase's cluster id.
  const std::string& cluster_id() const { return cluster_id_; }

  // Named snapshots of tables or of the whole store, for the test controls (snapshots.h).
  Snapshots* snapshots() const { return snapshots_.get(); }

  // Test hook: waits until dropped tables are swept.
  void WaitForSweeps();
  Clock* clock() const { return clock_; }

 private:
  explicit Store(const StoreOptions& options);
  Status OpenDb(const StoreOptions& options);
  Status LoadClusterId();
  // Deletes the cells of a removed family and forgets its removal, unless that is done
  // already. REQUIRES: family_drops_mu_ held.
  Status FinishFamilyDropLocked(uint64_t table_id, std::string_view family);
  // Finishes the pending removals of `families` in table `table` (a failed or interrupted
  // sweep) before they are added again. REQUIRES: family_drops_mu_ held.
  Status FinishDropsBeforeAddLocked(std::string_view table,
                                    const std::vector<FamilyDescriptor>& families);
  // HBase's memstore flush of every region of `table` (prune.h).
  Status Flush(const TableDescriptor& table);
  Status FlushAfterSchemaChange(const std::shared_ptr<const TableDescriptor>& previous);
  Status ResumeFamilyDrops();
  Status FindTable(std::string_view name, bool require_enabled,
                   std::shared_ptr<const TableDescriptor>* out) const;
  Status CheckReadSpec(const TableDescriptor& table, const ReadSpec& spec, bool is_get) const;
  // Reads' one way to a table: looks up enabled table `name`, runs `check` on it, then
  // `take_view`, which takes the read's LevelDB view of its cells (a Get's iterator, a
  // scanner). The view is taken again when, once it is taken, the name means another table
  // (a snapshot restore in between, whose sweep of the old id the view could hold half done).
  Status ViewTable(
      std::string_view name, const std::function<Status(const TableDescriptor&)>& check,
      const std::function<void(std::shared_ptr<const TableDescriptor>)>& take_view) const;
  // One row as a Get reads it (row_reader.h), spec.filter included, from the newest data.
  Status ReadRowUnlocked(const TableDescriptor& table, std::string_view row,
                         const ReadSpec& spec, int64_t now_ms, RowResult* result) const;
  // The same from `it`'s view of the store.
  Status ReadRowFrom(const TableDescriptor& table, leveldb::Iterator* it, std::string_view row,
                     const ReadSpec& spec, int64_t now_ms, RowResult* result) const;
  // Newest visible cell of one column, or nullopt.
  Status ReadNewest(const TableDescriptor& table, std::string_view row, std::string_view family,
                    std::string_view qualifier, int64_t now_ms, std::optional<Cell>* out) const;
  // Reads rows for the mutation builder (mutation_build.h RowRead). REQUIRES: row lock held.
  std::function<Status(std::string_view row, const ReadSpec& spec, RowResult* out)> RowReadAt(
      const TableDescriptor& table, int64_t now_ms) const;
  Status Write(leveldb::WriteBatch* batch);
  // Increment and Append: under the row lock, reads the newest visible cell of each column
  // and writes what BuildReadModifyWrite (mutation_build.h) makes of them, in one batch.
  Status ReadModifyWrite(std::string_view table, std::string_view row,
                         const std::vector<std::pair<std::string, std::string>>& columns,
                         const NewValueFn& new_value, std::vector<Cell>* result);

  Clock* clock_;
  bool sync_writes_;
  std::function<Status(uint64_t table_id, std::string_view family)> before_family_sweep_batch_;
  std::function<void(std::string_view table)> before_read_view_;
  std::function<void()> before_data_write_;
  const StoreLimits limits_;
  std::string cluster_id_;
  std::unique_ptr<leveldb::Env> mem_env_;
  std::unique_ptr<leveldb::DB> db_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<RowLocks> row_locks_;
  std::unique_ptr<RowClock> row_clock_;  // columns the server's pace ran ahead of the clock
  std::unique_ptr<ClockHorizon> horizon_;  // the row clock's newest mark, kept across restarts
  std::unique_ptr<CodecCheck> codec_check_;  // compression codecs a stock HBase can load
  std::unique_ptr<TableSweeper> sweeper_;
  // Family removal sweeps, and the family additions that must wait for them: a family added
  // while its old cells are being deleted would lose its new cells to the sweep. Taken before
  // the catalog's mutex, never inside it.
  std::mutex family_drops_mu_;
  // Data writes hold it from their table lookup to their batch's write; a family's removal, a
  // table's disable and a snapshot install hold it alone while they publish (write_gate.h). Taken before row locks
  // and before the catalog's mutex; family_drops_mu_ before it.
  WriteGate write_gate_;
  std::unique_ptr<Snapshots> snapshots_;
};

}  // namespace hbemu::storage
