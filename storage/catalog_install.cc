// Catalog: the batch changes behind snapshots (snapshots.h). The rest is in catalog.cc.
#include <set>

#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include "storage/catalog.h"
#include "storage/catalog_records.h"
#include "storage/coding.h"
#include "storage/key_format.h"

namespace hbemu::storage {
namespace {

constexpr char kNextTableIdKey[] = "next_table_id";

std::string EncodeU64(uint64_t v) {
  std::string s;
  PutFixed64BE(&s, v);
  return s;
}

Status WriteSynced(leveldb::DB* db, leveldb::WriteBatch* batch) {
  leveldb::WriteOptions options;
  options.sync = true;
  const leveldb::Status s = db->Write(options, batch);
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(s.ToString());
  return Status::IOError(s.ToString());
}

bool Reserved(const std::string& ns) { return ns == "default" || ns == "hbase"; }

}  // namespace

Status Catalog::ReserveIds(size_t count, uint64_t* first_id) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t first = next_table_id_;
  leveldb::WriteBatch batch;
  batch.Put(SystemKey(kNextTableIdKey), EncodeU64(first + count));
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));
  next_table_id_ = first + count;
  *first_id = first;
  return Status::OK();
}

Status Catalog::Install(const TableInstall& install, std::vector<uint64_t>* dropped_ids) {
  dropped_ids->clear();
  std::lock_guard<std::mutex> lock(mu_);
  std::set<std::string> installed;
  std::set<std::string> namespaces_after;
  for (const NamespaceDescriptor& ns : install.namespaces) namespaces_after.insert(ns.name);
  // Every check before anything changes: the install happens whole or not at all.
  for (const TableDescriptor& table : install.tables) {
    installed.insert(MapKey(table.name));
    auto it = tables_.find(MapKey(table.name));
    if (it != tables_.end()) {
      if (install.must_be_new) return Status::TableExists(table.name.ToString());
      if (install.require_disabled && it->second->enabled) {
        return Status::TableNotDisabled(table.name.ToString());
      }
    }
    const bool ns_there = install.whole_store ? namespaces_after.count(table.name.ns) > 0
                                              : namespaces_.count(table.name.ns) > 0;
    if (!ns_there) return Status::NamespaceNotFound(table.name.ns);
  }

  if (install.ids.size() != install.tables.size()) {
    return Status::InvalidArgument("an install needs one reserved id per table");
  }
  const std::vector<uint64_t>& new_ids = install.ids;
  // The catalog's changes join the cells' batch (no copy of the cells).
  leveldb::WriteBatch own;
  leveldb::WriteBatch& batch = install.cells != nullptr ? *install.cells : own;

  const auto retire = [&](uint64_t id) {
    batch.Delete(TableInfoKey(id));
    batch.Put(DroppedTableKey(id), "");
    dropped_ids->push_back(id);
  };
  std::vector<std::shared_ptr<TableDescriptor>> published;
  for (size_t i = 0; i < install.tables.size(); ++i) {
    auto table = std::make_shared<TableDescriptor>(install.tables[i]);
    table->id = new_ids[i];
    auto it = tables_.find(MapKey(table->name));
    if (it != tables_.end()) retire(it->second->id);
    batch.Put(TableNameKey(table->name.ns, table->name.qualifier), EncodeU64(table->id));
    batch.Put(TableInfoKey(table->id), EncodeTableDescriptor(*table));
    published.push_back(std::move(table));
  }
  std::vector<std::string> gone_tables, gone_namespaces;
  if (install.whole_store) {
    for (const auto& [key, table] : tables_) {
      if (installed.count(key)) continue;
      batch.Delete(TableNameKey(table->name.ns, table->name.qualifier));
      retire(table->id);
      gone_tables.push_back(key);
    }
    for (const auto& [name, ns] : namespaces_) {
      if (namespaces_after.count(name) || Reserved(name)) continue;
      batch.Delete(NamespaceKey(name));
      gone_namespaces.push_back(name);
    }
    for (const NamespaceDescriptor& ns : install.namespaces) {
      batch.Put(NamespaceKey(ns.name), EncodeNamespaceDescriptor(ns));
    }
  }
  // Lookups cached before this install must not outlive its write: once the batch is in, the
  // sweeper may start on the retired ids, and a reader that checks its table after taking a
  // LevelDB snapshot (Store::OpenScanner) must then find the catalog changing, not its cache.
  BumpGeneration();
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));

  for (const std::string& key : gone_tables) tables_.erase(key);
  for (const std::string& name : gone_namespaces) namespaces_.erase(name);
  if (install.whole_store) {
    for (const NamespaceDescriptor& ns : install.namespaces) namespaces_[ns.name] = ns;
  }
  for (auto& table : published) tables_[MapKey(table->name)] = std::move(table);
  BumpGeneration();
  return Status::OK();
}

}  // namespace hbemu::storage
