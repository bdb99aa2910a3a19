#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "storage/clock.h"
#include "storage/schema.h"
#include "storage/status.h"

namespace leveldb {
class DB;
}

namespace hbemu::storage {

// Namespaces and tables: the in-memory view of the catalog keys (key_format.h), kept in step
// with LevelDB. Every change is one synced WriteBatch. Table ids are allocated from a
// persisted counter and never reused, so a re-created table can never see an old table's cells.
//
// Thread-safe. Descriptors are immutable snapshots: a change publishes a new one.
class Catalog {
 public:
  // Loads the catalog from `db`, creating the "default" and "hbase" namespaces on first use.
  static Status Open(leveldb::DB* db, Clock* clock, std::unique_ptr<Catalog>* out);

  Status CreateNamespace(std::string_view ns);
  Status DeleteNamespace(std::string_view ns);
  std::vector<std::string> ListNamespaces() const;

  // HBase's checks, in HBase's order: exists, families valid, at least one family, namespace.
  Status CreateTable(const TableName& name, std::vector<FamilyDescriptor> families,
                     std::shared_ptr<const TableDescriptor>* created);
  // REQUIRES: the table is disabled. The name is free when this returns; the table's cells are
  // left for the sweeper, whose work list DroppedTables() returns.
  Status DropTable(const TableName& name, uint64_t* dropped_id);
  Status SetEnabled(const TableName& name, bool enabled);

  Status Find(const TableName& name, std::shared_ptr<const TableDescriptor>* out) const;
  // The same as parsing `full_name` ("t" or "ns:t") and calling Find, for the per-call lookup
  // of every data RPC: a name this thread found before, with no table change since, comes from
  // a per-thread cache without parsing or taking the catalog mutex.
  Status FindByName(std::string_view full_name, std::shared_ptr<const TableDescriptor>* out) const;
  // Every table, sorted by namespace then name.
  std::vector<std::shared_ptr<const TableDescriptor>> ListTables() const;
  // Ids of dropped tables whose cells have not been swept yet.
  std::vector<uint64_t> DroppedTables() const;
  // Forgets a dropped table once its cells are gone.
  Status FinishDrop(uint64_t table_id);

 private:
  Catalog(leveldb::DB* db, Clock* clock);
  Status Load();
  // Called with mu_ held after any change to tables_: every thread's cached lookups go stale.
  void BumpGeneration();
  static std::string MapKey(const TableName& name) { return name.ns + '\0' + name.qualifier; }

  leveldb::DB* const db_;
  Clock* const clock_;
  mutable std::mutex mu_;
  // Unique across all catalogs of the process (per-thread caches are keyed by it alone) and
  // changed, under mu_, whenever a table is created, dropped, enabled or disabled.
  std::atomic<uint64_t> generation_;
  uint64_t next_table_id_ = 1;                                            // guarded by mu_
  std::map<std::string, int64_t> namespaces_;                             // guarded by mu_
  std::map<std::string, std::shared_ptr<const TableDescriptor>> tables_;  // guarded by mu_
};

}  // namespace hbemu::storage
