#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "storage/clock.h"
#include "storage/schema.h"
#include "storage/status.h"

namespace leveldb {
class DB;
class WriteBatch;
}

namespace hbemu::storage {

// What a schema change may ask beyond the catalog's own work. Both are optional.
struct CatalogChangeHooks {
  // Runs on the new descriptor after the catalog's checks and before it is published (with
  // the catalog's mutex held: it must not call back into the catalog). An error cancels the
  // change. HBase's master runs its sanity checks (codecs) at this point.
  std::function<Status(const TableDescriptor& updated)> check;
  // Receives the descriptor the change replaced, for work that needs the old settings.
  std::shared_ptr<const TableDescriptor>* previous = nullptr;
};

// What a snapshot restore or clone (snapshots.h) asks of the catalog, applied as one synced
// WriteBatch together with the tables' cells in `cells`.
struct TableInstall {
  // Installed under their names with the ids in `ids` (the other fields as given; split keys and
  // families as validated when the table was made). A table of the same name is replaced and
  // its cells go to the sweeper, as after a truncate.
  std::vector<TableDescriptor> tables;
  bool must_be_new = false;       // clone: TableExists when a table of the name is there
  bool require_disabled = false;  // HBase's restore: a table being replaced must be disabled
  // Whole store: tables not in `tables` are dropped whatever their state, and the namespaces
  // become exactly `namespaces` ("default" and "hbase" always stay).
  bool whole_store = false;
  std::vector<NamespaceDescriptor> namespaces;
  // One per table, from ReserveIds.
  std::vector<uint64_t> ids;
  // The cells of tables[i] under ids[i], copied before the install (outside the catalog's
  // mutex: a copy of hundreds of megabytes must not hold up table lookups and DDL). The
  // install adds its own changes to this batch and writes it.
  leveldb::WriteBatch* cells = nullptr;
};

// Namespaces and tables: the in-memory view of the catalog keys (key_format.h), kept in step
// with LevelDB. Every change is one synced WriteBatch. Table ids are allocated from a
// persisted counter and never reused, so a re-created table can never see an old table's cells.
//
// Thread-safe. Descriptors are immutable snapshots: a change publishes a new one.
class Catalog {
 public:
  // Loads the catalog from `db`, creating the "default" and "hbase" namespaces on first use.
  static Status Open(leveldb::DB* db, Clock* clock, std::unique_ptr<Catalog>* out);

  Status CreateNamespace(std::string_view ns,
                         std::map<std::string, std::string> configuration = {});
  Status DeleteNamespace(std::string_view ns);
  // Replaces the namespace's configuration.
  Status ModifyNamespace(std::string_view ns, std::map<std::string, std::string> configuration);
  std::vector<std::string> ListNamespaces() const;
  Status DescribeNamespace(std::string_view ns, NamespaceDescriptor* out) const;
  std::vector<NamespaceDescriptor> ListNamespaceDescriptors() const;

  // HBase's checks, in HBase's order: exists, families valid, at least one family, namespace,
  // split keys. Uses the families, split keys, values and durability of `spec`.
  Status CreateTable(const TableName& name, TableDescriptor spec,
                     std::shared_ptr<const TableDescriptor>* created);
  // REQUIRES: the table is disabled. The table gets a new id (its old cells go to the
  // sweeper, as for a drop), a new region id and is enabled again, as after HBase's truncate.
  Status TruncateTable(const TableName& name, bool preserve_splits, uint64_t* dropped_id);
  // Replaces the table's families, values and durability with those of `spec` (split keys and
  // enabled state stay). Families that disappear are recorded for SweepFamily; their names
  // are appended to *removed.
  Status ModifyTable(const TableName& name, const TableDescriptor& spec,
                     std::vector<std::string>* removed, const CatalogChangeHooks& hooks = {});
  // HBase's add/modify/delete column family, with HBase's checks. A family whose removal is
  // still pending (FamilyDropPending) cannot be added again, here or by ModifyTable: its old
  // cells share the new family's keys, so the sweep would delete the new writes.
  Status AddFamily(const TableName& name, FamilyDescriptor family, const CatalogChangeHooks& hooks = {});
  Status ModifyFamily(const TableName& name, FamilyDescriptor family,
                      const CatalogChangeHooks& hooks = {});
  Status DeleteFamily(const TableName& name, std::string_view family, uint64_t* table_id,
                      const CatalogChangeHooks& hooks = {});
  // (table id, family) of removed families whose cells may still exist.
  std::vector<std::pair<uint64_t, std::string>> DroppedFamilies() const;
  bool FamilyDropPending(uint64_t table_id, std::string_view family) const;
  Status FinishFamilyDrop(uint64_t table_id, std::string_view family);
  // REQUIRES: the table is disabled. The name is free when this returns; the table's cells are
  // left for the sweeper, whose work list DroppedTables returns.
  Status DropTable(const TableName& name, uint64_t* dropped_id);
  Status SetEnabled(const TableName& name, bool enabled);
  // Snapshots: see TableInstall. *dropped_ids gets the ids whose cells are left to the sweeper.
  Status Install(const TableInstall& install, std::vector<uint64_t>* dropped_ids);
  // Snapshots: reserves `count` table ids, first_id on, that no table will ever get (the
  // counter is written synced), for cells copied before they are installed or recorded.
  Status ReserveIds(size_t count, uint64_t* first_id);

  Status Find(const TableName& name, std::shared_ptr<const TableDescriptor>* out) const;
  // The same as parsing `full_name` ("t" or "ns:t") and calling Find, for the per-call lookup
  // of every data RPC: a name this thread found before, with no table change since, comes from
  // a per-thread cache without parsing or taking the catalog mutex.
  Status FindByName(std::string_view full_name, std::shared_ptr<const TableDescriptor>* out) const;
  // Every table, sorted by namespace then name.
  std::vector<std::shared_ptr<const TableDescriptor>> ListTables() const;
  // Ids of dropped tables whose cells have not been swept yet; an error (and no ids) when they
  // cannot all be read.
  Status DroppedTables(std::vector<uint64_t>* ids) const;
  // Forgets a dropped table once its cells are gone.
  Status FinishDrop(uint64_t table_id);

 private:
  Catalog(leveldb::DB* db, Clock* clock);
  Status Load();
  // Called with mu_ held after any change to tables_: every thread's cached lookups go stale.
  void BumpGeneration();
  // With mu_ held: writes `updated` (plus `batch`'s other changes) and publishes it.
  Status PublishLocked(std::shared_ptr<TableDescriptor> updated, leveldb::WriteBatch* batch);
  // With mu_ held: runs `hooks.check` on `updated`, then publishes it in place of `current`.
  Status PublishChangeLocked(const CatalogChangeHooks& hooks,
                             const std::shared_ptr<const TableDescriptor>& current,
                             std::shared_ptr<TableDescriptor> updated, leveldb::WriteBatch* batch);
  // With mu_ held: refuses `family` while its removal from table `table_id` is pending.
  Status CheckNoDropPendingLocked(const TableDescriptor& table, std::string_view family) const;
  // With mu_ held: the current descriptor of `name`, or TableNotFound.
  Status FindLocked(const TableName& name, std::shared_ptr<const TableDescriptor>* out) const;
  static std::string MapKey(const TableName& name) { return name.ns + '\0' + name.qualifier; }

  leveldb::DB* const db_;
  Clock* const clock_;
  mutable std::mutex mu_;
  // Unique across all catalogs of the process (per-thread caches are keyed by it alone) and
  // changed, under mu_, whenever a table is created, dropped, enabled or disabled.
  std::atomic<uint64_t> generation_;
  uint64_t next_table_id_ = 1;                                            // guarded by mu_
  std::map<std::string, NamespaceDescriptor> namespaces_;                 // guarded by mu_
  std::map<std::string, std::shared_ptr<const TableDescriptor>> tables_;  // guarded by mu_
  // The DroppedFamilyKey markers: (table id, family) whose cells are still to delete.
  std::set<std::pair<uint64_t, std::string>> dropped_families_;  // guarded by mu_
};

}  // namespace hbemu::storage
