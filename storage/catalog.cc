#include "storage/catalog.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <glog/logging.h>
#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include "storage/catalog_records.h"
#include "storage/coding.h"
#include "storage/key_format.h"

namespace hbemu::storage {
namespace {

constexpr char kNextTableIdKey[] = "next_table_id";
// HBase's table sanity check (TableDescriptorChecker), word for word: clients match on it.
constexpr char kNoFamiliesMessage[] =
    "Table should have at least one column family. Set hbase.table.sanity.checks to false at "
    "conf or table descriptor if you want to bypass sanity checks";

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(s.ToString());
  return Status::IOError(s.ToString());
}

Status WriteSynced(leveldb::DB* db, leveldb::WriteBatch* batch) {
  leveldb::WriteOptions options;
  options.sync = true;  // DDL is rare; losing it on power failure would orphan data
  return FromLevelDb(db->Write(options, batch));
}

void SortFamilies(std::vector<FamilyDescriptor>* families) {
  std::sort(families->begin(), families->end(),
            [](const FamilyDescriptor& a, const FamilyDescriptor& b) { return a.name < b.name; });
}

// Families sorted, each valid, names unique.
Status ValidateFamilies(std::vector<FamilyDescriptor>* families) {
  SortFamilies(families);
  for (size_t i = 0; i < families->size(); ++i) {
    HBEMU_RETURN_IF_ERROR(ValidateFamily((*families)[i]));
    if (i > 0 && (*families)[i].name == (*families)[i - 1].name) {
      return Status::InvalidArgument("Family '" + (*families)[i].name +
                                     "' already exists so cannot be added");
    }
  }
  return Status::OK();
}

// Generations are drawn from one process-wide counter so that a thread's cache can never
// mistake one catalog (or one incarnation of a table map) for another.
std::atomic<uint64_t> next_generation{1};

// Lookups this thread made, valid while the catalog's generation still equals `generation`.
// Small: a server thread serves a handful of tables, and a miss only costs the locked path.
struct LookupCache {
  static constexpr size_t kMaxEntries = 16;
  uint64_t generation = 0;
  std::vector<std::pair<std::string, std::shared_ptr<const TableDescriptor>>> entries;
};
thread_local LookupCache lookup_cache;

std::string EncodeU64(uint64_t v) {
  std::string s;
  PutFixed64BE(&s, v);
  return s;
}

}  // namespace

Catalog::Catalog(leveldb::DB* db, Clock* clock)
    : db_(db), clock_(clock), generation_(next_generation.fetch_add(1)) {}

void Catalog::BumpGeneration() { generation_.store(next_generation.fetch_add(1)); }

Status Catalog::Open(leveldb::DB* db, Clock* clock, std::unique_ptr<Catalog>* out) {
  std::unique_ptr<Catalog> catalog(new Catalog(db, clock));
  HBEMU_RETURN_IF_ERROR(catalog->Load());
  *out = std::move(catalog);
  return Status::OK();
}

Status Catalog::Load() {
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));

  it->Seek(SystemKey(kNextTableIdKey));
  if (it->Valid() && it->key() == SystemKey(kNextTableIdKey)) {
    if (it->value().size() != 8) return Status::Corruption("bad next_table_id");
    next_table_id_ = DecodeFixed64BE(it->value().data());
  }

  const std::string ns_prefix = NamespaceKeyPrefix();
  for (it->Seek(ns_prefix); it->Valid() && it->key().starts_with(ns_prefix); it->Next()) {
    NamespaceDescriptor ns;
    if (!ParseNamespaceKey(std::string_view(it->key().data(), it->key().size()), &ns.name)) {
      return Status::Corruption("bad namespace key");
    }
    HBEMU_RETURN_IF_ERROR(DecodeNamespaceDescriptor(
        std::string_view(it->value().data(), it->value().size()), &ns));
    namespaces_[ns.name] = std::move(ns);
  }

  const std::string dropped_prefix = DroppedFamilyPrefix();
  for (it->Seek(dropped_prefix); it->Valid() && it->key().starts_with(dropped_prefix);
       it->Next()) {
    uint64_t id;
    std::string family;
    if (!ParseDroppedFamilyKey(std::string_view(it->key().data(), it->key().size()), &id,
                               &family)) {
      return Status::Corruption("bad dropped family key");
    }
    dropped_families_.emplace(id, std::move(family));
  }

  const std::string info_prefix = TableInfoPrefix();
  for (it->Seek(info_prefix); it->Valid() && it->key().starts_with(info_prefix); it->Next()) {
    auto table = std::make_shared<TableDescriptor>();
    HBEMU_RETURN_IF_ERROR(DecodeTableDescriptor(it->value().ToString(), table.get()));
    tables_[MapKey(table->name)] = std::move(table);
  }
  HBEMU_RETURN_IF_ERROR(FromLevelDb(it->status()));

  leveldb::WriteBatch batch;
  for (const char* ns : {"default", "hbase"}) {
    if (namespaces_.count(ns)) continue;
    NamespaceDescriptor descriptor;
    descriptor.name = ns;
    descriptor.created_ms = clock_->NowMillis();
    batch.Put(NamespaceKey(ns), EncodeNamespaceDescriptor(descriptor));
    namespaces_[ns] = std::move(descriptor);
  }
  if (batch.ApproximateSize() > 12) return WriteSynced(db_, &batch);
  return Status::OK();
}

Status Catalog::CreateNamespace(std::string_view ns,
                                std::map<std::string, std::string> configuration) {
  HBEMU_RETURN_IF_ERROR(ValidateNamespaceName(ns));
  HBEMU_RETURN_IF_ERROR(ValidateNewNameLength("Namespace", ns));
  std::lock_guard<std::mutex> lock(mu_);
  if (namespaces_.count(std::string(ns))) {
    return Status::NamespaceExists("Namespace " + std::string(ns) + " already exists");
  }
  NamespaceDescriptor descriptor;
  descriptor.name = std::string(ns);
  descriptor.created_ms = clock_->NowMillis();
  descriptor.configuration = std::move(configuration);
  leveldb::WriteBatch batch;
  batch.Put(NamespaceKey(ns), EncodeNamespaceDescriptor(descriptor));
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));
  namespaces_[descriptor.name] = std::move(descriptor);
  return Status::OK();
}

Status Catalog::ModifyNamespace(std::string_view ns,
                                std::map<std::string, std::string> configuration) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = namespaces_.find(std::string(ns));
  if (it == namespaces_.end()) return Status::NamespaceNotFound(std::string(ns));
  NamespaceDescriptor updated = it->second;
  updated.configuration = std::move(configuration);
  leveldb::WriteBatch batch;
  batch.Put(NamespaceKey(ns), EncodeNamespaceDescriptor(updated));
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));
  it->second = std::move(updated);
  return Status::OK();
}

Status Catalog::DescribeNamespace(std::string_view ns, NamespaceDescriptor* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = namespaces_.find(std::string(ns));
  if (it == namespaces_.end()) return Status::NamespaceNotFound(std::string(ns));
  *out = it->second;
  return Status::OK();
}

std::vector<NamespaceDescriptor> Catalog::ListNamespaceDescriptors() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<NamespaceDescriptor> out;
  for (const auto& [name, ns] : namespaces_) out.push_back(ns);
  return out;
}

Status Catalog::DeleteNamespace(std::string_view ns) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ns == "default" || ns == "hbase") {
    return Status::Constraint("Reserved namespace " + std::string(ns) + " cannot be removed.");
  }
  if (!namespaces_.count(std::string(ns))) return Status::NamespaceNotFound(std::string(ns));
  size_t tables = 0;
  for (const auto& [key, table] : tables_) tables += table->name.ns == ns ? 1 : 0;
  if (tables > 0) {
    return Status::Constraint("Only empty namespaces can be removed. Namespace " +
                              std::string(ns) + " has " + std::to_string(tables) + " tables");
  }
  leveldb::WriteBatch batch;
  batch.Delete(NamespaceKey(ns));
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));
  namespaces_.erase(std::string(ns));
  return Status::OK();
}

std::vector<std::string> Catalog::ListNamespaces() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [name, ns] : namespaces_) out.push_back(name);
  return out;
}

Status Catalog::CreateTable(const TableName& name, TableDescriptor spec,
                            std::shared_ptr<const TableDescriptor>* created) {
  HBEMU_RETURN_IF_ERROR(ValidateNewNameLength("Table qualifier", name.qualifier));
  std::lock_guard<std::mutex> lock(mu_);
  if (tables_.count(MapKey(name))) return Status::TableExists(name.ToString());
  HBEMU_RETURN_IF_ERROR(ValidateFamilies(&spec.families));
  if (spec.families.empty()) {
    return Status::DoNotRetry(kNoFamiliesMessage);
  }
  if (!namespaces_.count(name.ns)) return Status::NamespaceNotFound(name.ns);
  HBEMU_RETURN_IF_ERROR(NormalizeSplitKeys(&spec.split_keys));

  // HBase's master records the store file tracker of every table it creates.
  spec.values.emplace("hbase.store.file-tracker.impl", "DEFAULT");
  auto table = std::make_shared<TableDescriptor>(std::move(spec));
  table->id = next_table_id_;
  table->name = name;
  table->enabled = true;
  table->created_ms = clock_->NowMillis();

  leveldb::WriteBatch batch;
  batch.Put(SystemKey(kNextTableIdKey), EncodeU64(table->id + 1));
  batch.Put(TableNameKey(name.ns, name.qualifier), EncodeU64(table->id));
  batch.Put(TableInfoKey(table->id), EncodeTableDescriptor(*table));
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));
  next_table_id_ = table->id + 1;
  tables_[MapKey(name)] = table;
  BumpGeneration();
  if (created != nullptr) *created = table;
  return Status::OK();
}

Status Catalog::DropTable(const TableName& name, uint64_t* dropped_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(MapKey(name));
  if (it == tables_.end()) return Status::TableNotFound(name.ToString());
  if (it->second->enabled) {
    return Status::TableNotDisabled("Not DISABLED; tableName=" + name.ToString() +
                                    ", state=ENABLED");
  }
  const uint64_t id = it->second->id;
  leveldb::WriteBatch batch;
  batch.Delete(TableNameKey(name.ns, name.qualifier));
  batch.Delete(TableInfoKey(id));
  batch.Put(DroppedTableKey(id), "");
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));
  tables_.erase(it);
  BumpGeneration();
  *dropped_id = id;
  return Status::OK();
}

Status Catalog::TruncateTable(const TableName& name, bool preserve_splits,
                              uint64_t* dropped_id) {
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<const TableDescriptor> current;
  HBEMU_RETURN_IF_ERROR(FindLocked(name, &current));
  if (current->enabled) return Status::TableNotDisabled(name.ToString());
  auto table = std::make_shared<TableDescriptor>(*current);
  table->id = next_table_id_;
  table->enabled = true;
  table->created_ms = clock_->NowMillis();
  if (!preserve_splits) table->split_keys.clear();
  leveldb::WriteBatch batch;
  batch.Put(SystemKey(kNextTableIdKey), EncodeU64(table->id + 1));
  batch.Put(TableNameKey(name.ns, name.qualifier), EncodeU64(table->id));
  batch.Delete(TableInfoKey(current->id));
  batch.Put(DroppedTableKey(current->id), "");
  HBEMU_RETURN_IF_ERROR(PublishLocked(table, &batch));
  next_table_id_ = table->id + 1;
  *dropped_id = current->id;
  return Status::OK();
}

Status Catalog::PublishChangeLocked(const CatalogChangeHooks& hooks,
                                    const std::shared_ptr<const TableDescriptor>& current,
                                    std::shared_ptr<TableDescriptor> updated,
                                    leveldb::WriteBatch* batch) {
  if (hooks.check) HBEMU_RETURN_IF_ERROR(hooks.check(*updated));
  HBEMU_RETURN_IF_ERROR(PublishLocked(std::move(updated), batch));
  if (hooks.previous != nullptr) *hooks.previous = current;
  return Status::OK();
}

Status Catalog::ModifyTable(const TableName& name, const TableDescriptor& spec,
                            std::vector<std::string>* removed, const CatalogChangeHooks& hooks) {
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<const TableDescriptor> current;
  HBEMU_RETURN_IF_ERROR(FindLocked(name, &current));
  auto table = std::make_shared<TableDescriptor>(*current);
  table->families = spec.families;
  HBEMU_RETURN_IF_ERROR(ValidateFamilies(&table->families));
  if (table->families.empty()) {
    return Status::DoNotRetry(kNoFamiliesMessage);
  }
  table->values = spec.values;
  table->durability = spec.durability;
  for (const FamilyDescriptor& family : table->families) {
    if (current->FindFamily(family.name) != nullptr) continue;
    HBEMU_RETURN_IF_ERROR(CheckNoDropPendingLocked(*table, family.name));
  }
  leveldb::WriteBatch batch;
  std::vector<std::string> gone;
  for (const FamilyDescriptor& family : current->families) {
    if (table->FindFamily(family.name) != nullptr) continue;
    batch.Put(DroppedFamilyKey(table->id, family.name), "");
    gone.push_back(family.name);
  }
  const uint64_t id = table->id;
  HBEMU_RETURN_IF_ERROR(PublishChangeLocked(hooks, current, std::move(table), &batch));
  for (const std::string& family : gone) dropped_families_.emplace(id, family);
  removed->insert(removed->end(), gone.begin(), gone.end());
  return Status::OK();
}

Status Catalog::AddFamily(const TableName& name, FamilyDescriptor family,
                          const CatalogChangeHooks& hooks) {
  HBEMU_RETURN_IF_ERROR(ValidateFamily(family));
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<const TableDescriptor> current;
  HBEMU_RETURN_IF_ERROR(FindLocked(name, &current));
  if (current->FindFamily(family.name) != nullptr) {
    return Status::InvalidFamilyOperation("Column family '" + family.name + "' in table '" +
                                          name.ToString() +
                                          "' already exists so cannot be added");
  }
  HBEMU_RETURN_IF_ERROR(CheckNoDropPendingLocked(*current, family.name));
  auto table = std::make_shared<TableDescriptor>(*current);
  table->families.push_back(std::move(family));
  SortFamilies(&table->families);
  leveldb::WriteBatch batch;
  return PublishChangeLocked(hooks, current, std::move(table), &batch);
}

Status Catalog::ModifyFamily(const TableName& name, FamilyDescriptor family,
                             const CatalogChangeHooks& hooks) {
  HBEMU_RETURN_IF_ERROR(ValidateFamily(family));
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<const TableDescriptor> current;
  HBEMU_RETURN_IF_ERROR(FindLocked(name, &current));
  auto table = std::make_shared<TableDescriptor>(*current);
  auto it = std::find_if(table->families.begin(), table->families.end(),
                         [&](const FamilyDescriptor& f) { return f.name == family.name; });
  if (it == table->families.end()) {
    return Status::InvalidFamilyOperation("Family '" + family.name +
                                          "' does not exist, so it cannot be modified");
  }
  *it = std::move(family);
  leveldb::WriteBatch batch;
  return PublishChangeLocked(hooks, current, std::move(table), &batch);
}

Status Catalog::DeleteFamily(const TableName& name, std::string_view family,
                             uint64_t* table_id, const CatalogChangeHooks& hooks) {
  std::lock_guard<std::mutex> lock(mu_);
  std::shared_ptr<const TableDescriptor> current;
  HBEMU_RETURN_IF_ERROR(FindLocked(name, &current));
  if (current->FindFamily(family) == nullptr) {
    return Status::InvalidFamilyOperation("Family '" + std::string(family) +
                                          "' does not exist, so it cannot be deleted");
  }
  if (current->families.size() == 1) {
    return Status::InvalidFamilyOperation("Family '" + std::string(family) +
                                          "' is the only column family in the table, so it "
                                          "cannot be deleted");
  }
  auto table = std::make_shared<TableDescriptor>(*current);
  table->families.erase(
      std::find_if(table->families.begin(), table->families.end(),
                   [&](const FamilyDescriptor& f) { return f.name == family; }));
  leveldb::WriteBatch batch;
  batch.Put(DroppedFamilyKey(table->id, family), "");
  const uint64_t id = table->id;
  HBEMU_RETURN_IF_ERROR(PublishChangeLocked(hooks, current, std::move(table), &batch));
  dropped_families_.emplace(id, std::string(family));
  *table_id = id;
  return Status::OK();
}

Status Catalog::CheckNoDropPendingLocked(const TableDescriptor& table,
                                         std::string_view family) const {
  if (dropped_families_.count({table.id, std::string(family)}) == 0) return Status::OK();
  // Retryable: the removal finishes on its own (or at the next start), as HBase's add waits
  // for the table's running procedure.
  return Status::IOError("Column family '" + std::string(family) + "' in table '" +
                         table.name.ToString() +
                         "' is still being deleted so cannot be added yet");
}

std::vector<std::pair<uint64_t, std::string>> Catalog::DroppedFamilies() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::vector<std::pair<uint64_t, std::string>>(dropped_families_.begin(),
                                                       dropped_families_.end());
}

bool Catalog::FamilyDropPending(uint64_t table_id, std::string_view family) const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_families_.count({table_id, std::string(family)}) > 0;
}

Status Catalog::FinishFamilyDrop(uint64_t table_id, std::string_view family) {
  std::lock_guard<std::mutex> lock(mu_);
  leveldb::WriteBatch batch;
  batch.Delete(DroppedFamilyKey(table_id, family));
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));
  dropped_families_.erase({table_id, std::string(family)});
  return Status::OK();
}

Status Catalog::PublishLocked(std::shared_ptr<TableDescriptor> updated,
                              leveldb::WriteBatch* batch) {
  batch->Put(TableInfoKey(updated->id), EncodeTableDescriptor(*updated));
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, batch));
  tables_[MapKey(updated->name)] = std::move(updated);
  BumpGeneration();
  return Status::OK();
}

Status Catalog::FindLocked(const TableName& name,
                           std::shared_ptr<const TableDescriptor>* out) const {
  auto it = tables_.find(MapKey(name));
  if (it == tables_.end()) return Status::TableNotFound(name.ToString());
  *out = it->second;
  return Status::OK();
}

Status Catalog::SetEnabled(const TableName& name, bool enabled) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(MapKey(name));
  if (it == tables_.end()) return Status::TableNotFound(name.ToString());
  if (it->second->enabled == enabled) {
    // HBase's enable procedure states the table's state; disable names only the table.
    return enabled ? Status::TableNotDisabled("tableName=" + name.ToString() + ", state=ENABLED")
                   : Status::TableNotEnabled(name.ToString());
  }
  auto updated = std::make_shared<TableDescriptor>(*it->second);
  updated->enabled = enabled;
  leveldb::WriteBatch batch;
  batch.Put(TableInfoKey(updated->id), EncodeTableDescriptor(*updated));
  HBEMU_RETURN_IF_ERROR(WriteSynced(db_, &batch));
  it->second = std::move(updated);
  BumpGeneration();
  return Status::OK();
}

Status Catalog::Find(const TableName& name, std::shared_ptr<const TableDescriptor>* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(MapKey(name));
  if (it == tables_.end()) return Status::TableNotFound(name.ToString());
  *out = it->second;
  return Status::OK();
}

Status Catalog::FindByName(std::string_view full_name,
                           std::shared_ptr<const TableDescriptor>* out) const {
  LookupCache& cache = lookup_cache;
  const uint64_t generation = generation_.load();
  if (cache.generation != generation) {
    cache.entries.clear();
    cache.generation = generation;
  }
  for (const auto& [name, table] : cache.entries) {
    if (name == full_name) {
      *out = table;
      return Status::OK();
    }
  }
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(full_name, &parsed));
  uint64_t found_in;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = tables_.find(MapKey(parsed));
    if (it == tables_.end()) return Status::TableNotFound(parsed.ToString());
    *out = it->second;
    found_in = generation_.load();
  }
  // A change between the generation check above and the lookup leaves the cache as it is:
  // the entry would be stamped with a generation it does not belong to.
  if (found_in == cache.generation && cache.entries.size() < LookupCache::kMaxEntries) {
    cache.entries.emplace_back(std::string(full_name), *out);
  }
  return Status::OK();
}

std::vector<std::shared_ptr<const TableDescriptor>> Catalog::ListTables() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<const TableDescriptor>> out;
  for (const auto& [key, table] : tables_) out.push_back(table);
  return out;
}

Status Catalog::DroppedTables(std::vector<uint64_t>* ids) const {
  ids->clear();
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
  const std::string prefix = DroppedTablePrefix();
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    uint64_t id;
    if (ParseDroppedTableKey(std::string_view(it->key().data(), it->key().size()), &id)) {
      ids->push_back(id);
    }
  }
  // An iterator that stops on a read error looks like the end: without this check a failed
  // read would pass for "nothing left to sweep".
  if (!it->status().ok()) {
    ids->clear();
    return Status::IOError("reading dropped tables: " + it->status().ToString());
  }
  return Status::OK();
}

Status Catalog::FinishDrop(uint64_t table_id) {
  leveldb::WriteBatch batch;
  batch.Delete(DroppedTableKey(table_id));
  return WriteSynced(db_, &batch);
}

}  // namespace hbemu::storage
