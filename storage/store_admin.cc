// Store: namespaces and tables (HBase's Admin calls). Data calls live in store.cc.
#include <map>
#include <mutex>
#include <utility>

#include <glog/logging.h>
#include <leveldb/db.h>

#include "storage/catalog.h"
#include "storage/codec_check.h"
#include "storage/family_sweep.h"
#include "storage/key_format.h"
#include "storage/prune.h"
#include "storage/store.h"
#include "storage/table_sweeper.h"

namespace hbemu::storage {
namespace {

// For a family change HBase looks up the table and the family first, then sanity-checks the
// whole new descriptor (codecs included).
CatalogChangeHooks FamilyChangeHooks(CodecCheck* codecs,
                                     std::shared_ptr<const TableDescriptor>* previous) {
  CatalogChangeHooks hooks;
  hooks.check = [codecs](const TableDescriptor& updated) { return codecs->Check(updated); };
  hooks.previous = previous;
  return hooks;
}

}  // namespace

Status Store::CreateNamespace(std::string_view ns,
                              std::map<std::string, std::string> configuration) {
  return catalog_->CreateNamespace(ns, std::move(configuration));
}
Status Store::ModifyNamespace(std::string_view ns,
                              std::map<std::string, std::string> configuration) {
  return catalog_->ModifyNamespace(ns, std::move(configuration));
}
Status Store::DeleteNamespace(std::string_view ns) { return catalog_->DeleteNamespace(ns); }
std::vector<std::string> Store::ListNamespaces() const { return catalog_->ListNamespaces(); }
Status Store::DescribeNamespace(std::string_view ns, NamespaceDescriptor* out) const {
  return catalog_->DescribeNamespace(ns, out);
}
std::vector<NamespaceDescriptor> Store::ListNamespaceDescriptors() const {
  return catalog_->ListNamespaceDescriptors();
}

Status Store::CreateTable(std::string_view name, std::vector<FamilyDescriptor> families) {
  TableDescriptor spec;
  spec.families = std::move(families);
  return CreateTable(name, std::move(spec));
}

Status Store::CreateTable(std::string_view name, TableDescriptor spec) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  // HMaster runs its sanity checks (the codecs among them) before looking for the table.
  HBEMU_RETURN_IF_ERROR(codec_check_->Check(spec));
  return catalog_->CreateTable(parsed, std::move(spec), nullptr);
}

Status Store::DeleteTable(std::string_view name) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  uint64_t id = 0;
  HBEMU_RETURN_IF_ERROR(catalog_->DropTable(parsed, &id));
  sweeper_->Wake();
  return Status::OK();
}

Status Store::TruncateTable(std::string_view name, bool preserve_splits) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  uint64_t old_id = 0;
  HBEMU_RETURN_IF_ERROR(catalog_->TruncateTable(parsed, preserve_splits, &old_id));
  sweeper_->Wake();
  return Status::OK();
}

Status Store::EnableTable(std::string_view name) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  return catalog_->SetEnabled(parsed, true);
}

// HBase closes the regions, which flushes them (prune.h). The flush runs while the table still
// takes writes, as HBase's close flushes before it stops serving; a state error (missing or
// already disabled table) comes from the catalog without any flush.
Status Store::DisableTable(std::string_view name) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  std::shared_ptr<const TableDescriptor> table;
  if (catalog_->Find(parsed, &table).ok() && table->enabled) {
    HBEMU_RETURN_IF_ERROR(Flush(*table));
  }
  // Writes that found the table enabled land before it is disabled (write_gate.h): none can
  // land after a drop or truncate gave its cells to the sweeper.
  const auto gate = write_gate_.EnterChange();
  return catalog_->SetEnabled(parsed, false);
}

Status Store::Flush(const TableDescriptor& table) {
  return PruneTable(db_.get(), row_locks_.get(), table, clock_->NowMillis(), sync_writes_);
}

// A schema change of an enabled table reopens its regions in HBase, and the close flushes them
// with the settings they were opened with: raising VERSIONS afterwards does not bring back the
// versions the old VERSIONS dropped (checked on HBase 2.6.1). A disabled table was flushed when
// it was disabled. The flush runs after the new descriptor is published (a rejected change must
// not flush): a write racing with the call itself may be judged by the old settings, where
// HBase would hold it back until the regions reopen.
Status Store::FlushAfterSchemaChange(const std::shared_ptr<const TableDescriptor>& previous) {
  if (previous == nullptr || !previous->enabled) return Status::OK();
  return Flush(*previous);
}

Status Store::ModifyTable(std::string_view name, const TableDescriptor& spec) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  // HMaster runs its sanity checks (the codecs among them) before looking for the table.
  HBEMU_RETURN_IF_ERROR(codec_check_->Check(spec));
  std::vector<std::string> removed;
  std::shared_ptr<const TableDescriptor> previous;
  CatalogChangeHooks hooks;
  hooks.previous = &previous;
  {
    std::lock_guard<std::mutex> drops(family_drops_mu_);
    HBEMU_RETURN_IF_ERROR(FinishDropsBeforeAddLocked(name, spec.families));
    {
      const auto gate = write_gate_.EnterChange();  // a removed family's writes land first
      HBEMU_RETURN_IF_ERROR(catalog_->ModifyTable(parsed, spec, &removed, hooks));
    }
    for (const std::string& family : removed) {
      HBEMU_RETURN_IF_ERROR(FinishFamilyDropLocked(previous->id, family));
    }
  }
  return FlushAfterSchemaChange(previous);
}

Status Store::AddFamily(std::string_view name, FamilyDescriptor family) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  std::shared_ptr<const TableDescriptor> previous;
  {
    std::lock_guard<std::mutex> drops(family_drops_mu_);
    HBEMU_RETURN_IF_ERROR(FinishDropsBeforeAddLocked(name, {family}));
    HBEMU_RETURN_IF_ERROR(catalog_->AddFamily(parsed, std::move(family),
                                              FamilyChangeHooks(codec_check_.get(), &previous)));
  }
  return FlushAfterSchemaChange(previous);
}

Status Store::ModifyFamily(std::string_view name, FamilyDescriptor family) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  std::shared_ptr<const TableDescriptor> previous;
  HBEMU_RETURN_IF_ERROR(
      catalog_->ModifyFamily(parsed, std::move(family), FamilyChangeHooks(codec_check_.get(), &previous)));
  return FlushAfterSchemaChange(previous);
}

Status Store::DeleteFamily(std::string_view name, std::string_view family) {
  TableName parsed;
  HBEMU_RETURN_IF_ERROR(ParseTableName(name, &parsed));
  uint64_t id = 0;
  std::shared_ptr<const TableDescriptor> previous;
  CatalogChangeHooks hooks;
  hooks.previous = &previous;
  {
    std::lock_guard<std::mutex> drops(family_drops_mu_);
    {
      // Writes that found the family land before it is removed, so the sweep below deletes
      // them; later ones find it gone (write_gate.h).
      const auto gate = write_gate_.EnterChange();
      HBEMU_RETURN_IF_ERROR(catalog_->DeleteFamily(parsed, family, &id, hooks));
    }
    HBEMU_RETURN_IF_ERROR(FinishFamilyDropLocked(id, family));
  }
  return FlushAfterSchemaChange(previous);
}

// HBase drops a family's store files before the call returns; so does this, so a family
// added again under the same name starts empty. The removal is forgotten only once the sweep
// is over, and family_drops_mu_ keeps additions out until then (Catalog::AddFamily refuses
// a family whose removal is pending): a cell written after the family came back is never in
// a sweep's way.
Status Store::FinishFamilyDropLocked(uint64_t table_id, std::string_view family) {
  if (!catalog_->FamilyDropPending(table_id, family)) return Status::OK();
  HBEMU_RETURN_IF_ERROR(SweepFamily(db_.get(), table_id, family, before_family_sweep_batch_));
  return catalog_->FinishFamilyDrop(table_id, family);
}

// A removal whose sweep failed (the call answered the error) is retried by the addition that
// needs the name back, as HBase's add waits for the table's unfinished procedure; if it fails
// again the addition fails with it and nothing is added.
Status Store::FinishDropsBeforeAddLocked(std::string_view table,
                                         const std::vector<FamilyDescriptor>& families) {
  std::shared_ptr<const TableDescriptor> current;
  if (!FindTable(table, /*require_enabled=*/false, &current).ok()) return Status::OK();
  for (const FamilyDescriptor& family : families) {
    if (current->FindFamily(family.name) != nullptr) continue;
    HBEMU_RETURN_IF_ERROR(FinishFamilyDropLocked(current->id, family.name));
  }
  return Status::OK();
}

// A crash between a family's removal and the end of its sweep leaves a marker: finish it
// before serving. A marker whose family is in its table's descriptor was left by an older
// release, which let a family be added again while its removal was pending: its old and new
// cells cannot be told apart, so all are kept rather than delete acknowledged writes.
Status Store::ResumeFamilyDrops() {
  std::lock_guard<std::mutex> drops(family_drops_mu_);
  std::map<uint64_t, std::shared_ptr<const TableDescriptor>> by_id;
  for (auto& table : catalog_->ListTables()) by_id[table->id] = table;
  for (const auto& [table_id, family] : catalog_->DroppedFamilies()) {
    const auto table = by_id.find(table_id);
    if (table != by_id.end() && table->second->FindFamily(family) != nullptr) {
      LOG(WARNING) << "[store] family " << family << " of table "
                   << table->second->name.ToString()
                   << " was added again before its removal finished; keeping its cells";
      HBEMU_RETURN_IF_ERROR(catalog_->FinishFamilyDrop(table_id, family));
      continue;
    }
    LOG(INFO) << "[store] finishing the removal of family " << family << " of table id "
              << table_id;
    HBEMU_RETURN_IF_ERROR(FinishFamilyDropLocked(table_id, family));
  }
  return Status::OK();
}

Status Store::DescribeTable(std::string_view name,
                            std::shared_ptr<const TableDescriptor>* out) const {
  return FindTable(name, /*require_enabled=*/false, out);
}

std::vector<std::shared_ptr<const TableDescriptor>> Store::ListTables() const {
  return catalog_->ListTables();
}

Status Store::CompactTable(std::string_view name) {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(name, false, &table));
  const KeyRange range = TableCellRange(table->id);
  const leveldb::Slice start(range.start), limit(range.limit);
  db_->CompactRange(&start, &limit);
  return Status::OK();
}

}  // namespace hbemu::storage
