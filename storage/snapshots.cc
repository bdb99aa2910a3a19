#include "storage/snapshots.h"

#include <algorithm>

#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include "storage/catalog.h"
#include "storage/key_format.h"
#include "storage/table_sweeper.h"
#include "storage/write_gate.h"

namespace hbemu::storage {
namespace {

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(s.ToString());
  return Status::IOError(s.ToString());
}

Status NotFound(std::string_view name) {
  return Status::SnapshotNotFound("Snapshot '" + std::string(name) +
                                  "' doesn't exist on the filesystem");
}

}  // namespace

Status Snapshots::CopyCells(const leveldb::ReadOptions& read, uint64_t from, uint64_t to,
                            uint64_t room, uint64_t kept, leveldb::WriteBatch* batch,
                            uint64_t* bytes, uint64_t* cells) {
  if (copy_hook_) copy_hook_();
  const KeyRange range = TableCellRange(from);
  const size_t id_prefix = range.start.size();
  std::string key = TableCellRange(to).start;
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(read));
  for (it->Seek(range.start); it->Valid() && it->key().compare(range.limit) < 0; it->Next()) {
    const leveldb::Slice k = it->key(), v = it->value();
    *bytes += k.size() + v.size();
    ++*cells;
    if (*bytes > room) {
      // The limit, not the room left: the room is no number the user set.
      return Status::SnapshotCreation(
          "snapshots would keep more than the snapshot_bytes limit of " +
          std::to_string(room + kept) + " bytes (" + std::to_string(kept) +
          " kept by other snapshots; --limit snapshot_bytes=N raises it)");
    }
    key.resize(id_prefix);
    key.append(k.data() + id_prefix, k.size() - id_prefix);
    batch->Put(key, v);
  }
  return FromLevelDb(it->status());
}

Snapshots::Snapshots(leveldb::DB* db, Catalog* catalog, TableSweeper* sweeper, WriteGate* gate,
                     Clock* clock, const StoreLimits& limits)
    : db_(db), catalog_(catalog), sweeper_(sweeper), gate_(gate), clock_(clock), limits_(limits) {}

Status Snapshots::Open(leveldb::DB* db, Catalog* catalog, TableSweeper* sweeper, WriteGate* gate,
                       Clock* clock, const StoreLimits& limits,
                       std::unique_ptr<Snapshots>* out) {
  std::unique_ptr<Snapshots> snapshots(new Snapshots(db, catalog, sweeper, gate, clock, limits));
  HBEMU_RETURN_IF_ERROR(snapshots->Load());
  *out = std::move(snapshots);
  return Status::OK();
}

Status Snapshots::Load() {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string prefix = SnapshotPrefix();
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    SnapshotRecord record;
    if (!ParseSnapshotKey(std::string_view(it->key().data(), it->key().size()), &record.name)) {
      return Status::Corruption("bad snapshot key");
    }
    HBEMU_RETURN_IF_ERROR(
        DecodeSnapshotRecord(std::string_view(it->value().data(), it->value().size()), &record));
    total_bytes_ += record.bytes;
    records_[record.name] = std::move(record);
  }
  return FromLevelDb(it->status());
}

Status Snapshots::FindLocked(std::string_view name, const SnapshotRecord** out) const {
  auto it = records_.find(name);
  if (it == records_.end()) return NotFound(name);
  *out = &it->second;
  return Status::OK();
}

Status Snapshots::Take(std::string_view name, const std::vector<std::string>& tables) {
  // HBase's order: the name (checked by the client), then an existing snapshot, then tables.
  HBEMU_RETURN_IF_ERROR(ValidateSnapshotName(name));
  // As tables and namespaces: a snapshot is a directory in HBase too.
  HBEMU_RETURN_IF_ERROR(ValidateNewNameLength("Snapshot", name));
  std::lock_guard<std::mutex> lock(mu_);
  if (records_.count(name)) {
    return Status::SnapshotExists("Snapshot '" + std::string(name) +
                                  "' already stored on the filesystem.");
  }
  const StoreLimits& limits = limits_;
  if (static_cast<int64_t>(records_.size()) >= limits.snapshots) {
    return Status::SnapshotCreation("already " + std::to_string(records_.size()) +
                                    " snapshots kept (limit snapshots); delete one first");
  }
  SnapshotRecord record;
  record.name = std::string(name);
  record.created_ms = clock_->NowMillis();
  record.whole_store = tables.empty();
  if (record.whole_store) {
    for (const auto& table : catalog_->ListTables()) record.tables.push_back(*table);
    record.namespaces = catalog_->ListNamespaceDescriptors();
  } else {
    for (const std::string& table_name : tables) {
      TableName parsed;
      std::shared_ptr<const TableDescriptor> table;
      Status s = ParseTableName(table_name, &parsed);
      if (s.ok()) s = catalog_->Find(parsed, &table);
      if (!s.ok()) {
        return Status::SnapshotCreation("Table '" + table_name +
                                        "' doesn't exist, can't take snapshot.");
      }
      const bool repeated = std::any_of(record.tables.begin(), record.tables.end(),
                                        [&](const TableDescriptor& t) { return t.id == table->id; });
      if (!repeated) record.tables.push_back(*table);
    }
  }
  // One LevelDB snapshot for every table: the copies show one moment of the store. Ids first,
  // then the copy outside the catalog's mutex (this one's mu_ keeps snapshot operations one at
  // a time): table lookups and DDL go on while up to snapshot_bytes are read.
  uint64_t first_id = 0;
  HBEMU_RETURN_IF_ERROR(catalog_->ReserveIds(record.tables.size(), &first_id));
  const leveldb::Snapshot* moment = db_->GetSnapshot();
  leveldb::ReadOptions read;
  read.snapshot = moment;
  read.fill_cache = false;
  const uint64_t limit = static_cast<uint64_t>(std::max<int64_t>(limits.snapshot_bytes, 0));
  const uint64_t kept = std::min<uint64_t>(total_bytes_, limit);
  const uint64_t room = limit - kept;
  leveldb::WriteBatch batch;
  Status s;
  for (size_t i = 0; i < record.tables.size() && s.ok(); ++i) {
    TableDescriptor& table = record.tables[i];
    const uint64_t live_id = table.id;
    table.id = first_id + i;
    s = CopyCells(read, live_id, table.id, room, kept, &batch, &record.bytes, &record.cells);
  }
  db_->ReleaseSnapshot(moment);
  HBEMU_RETURN_IF_ERROR(s);
  batch.Put(SnapshotKey(name), EncodeSnapshotRecord(record));
  leveldb::WriteOptions sync;
  sync.sync = true;
  HBEMU_RETURN_IF_ERROR(FromLevelDb(db_->Write(sync, &batch)));
  total_bytes_ += record.bytes;
  records_[record.name] = std::move(record);
  return Status::OK();
}

Status Snapshots::InstallLocked(const SnapshotRecord& record, TableInstall* install) {
  // The cells are copied before the catalog is asked (see Take); a snapshot restored once is
  // likely restored again: its reads are cached.
  uint64_t first_id = 0;
  HBEMU_RETURN_IF_ERROR(catalog_->ReserveIds(install->tables.size(), &first_id));
  leveldb::WriteBatch cells;
  uint64_t bytes = 0, count = 0;
  for (size_t i = 0; i < install->tables.size(); ++i) {
    install->ids.push_back(first_id + i);
    HBEMU_RETURN_IF_ERROR(CopyCells(leveldb::ReadOptions(), record.tables[i].id, first_id + i,
                                    UINT64_MAX, 0, &cells, &bytes, &count));
  }
  install->cells = &cells;
  std::vector<uint64_t> dropped;
  {
    // Writes that found the tables being replaced land before the install, so the sweep of
    // the retired ids deletes them; later ones find the new tables (write_gate.h).
    const auto gate = gate_->EnterChange();
    HBEMU_RETURN_IF_ERROR(catalog_->Install(*install, &dropped));
  }
  if (!dropped.empty()) sweeper_->Wake();
  return Status::OK();
}

Status Snapshots::Restore(std::string_view name, const RestoreOptions& options) {
  std::lock_guard<std::mutex> lock(mu_);
  const SnapshotRecord* record = nullptr;
  HBEMU_RETURN_IF_ERROR(FindLocked(name, &record));
  TableInstall install;
  install.tables = record->tables;
  install.require_disabled = options.require_disabled;
  install.whole_store = record->whole_store;
  install.namespaces = record->namespaces;
  if (options.require_disabled) {
    // As HBase: a table that is there stays disabled; one that was dropped comes back enabled.
    for (TableDescriptor& table : install.tables) {
      std::shared_ptr<const TableDescriptor> current;
      table.enabled = !catalog_->Find(table.name, &current).ok();
    }
  }
  return InstallLocked(*record, &install);
}

Status Snapshots::Clone(std::string_view name, std::string_view table_name) {
  std::lock_guard<std::mutex> lock(mu_);
  const SnapshotRecord* record = nullptr;
  HBEMU_RETURN_IF_ERROR(FindLocked(name, &record));
  TableName target;
  HBEMU_RETURN_IF_ERROR(ParseTableName(table_name, &target));
  if (record->tables.size() != 1) {
    return Status::InvalidArgument("snapshot '" + std::string(name) + "' holds " +
                                   std::to_string(record->tables.size()) +
                                   " tables; only a snapshot of one table can be cloned");
  }
  TableInstall install;
  install.tables = record->tables;
  install.tables[0].name = target;
  install.tables[0].enabled = true;
  install.tables[0].created_ms = clock_->NowMillis();
  install.must_be_new = true;
  return InstallLocked(*record, &install);
}

Status Snapshots::Delete(std::string_view name) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = records_.find(name);
  if (it == records_.end()) return NotFound(name);
  leveldb::WriteBatch batch;
  batch.Delete(SnapshotKey(name));
  // The kept cells are swept like a dropped table's.
  for (const TableDescriptor& table : it->second.tables) batch.Put(DroppedTableKey(table.id), "");
  leveldb::WriteOptions sync;
  sync.sync = true;
  HBEMU_RETURN_IF_ERROR(FromLevelDb(db_->Write(sync, &batch)));
  total_bytes_ -= std::min(total_bytes_, it->second.bytes);
  records_.erase(it);
  sweeper_->Wake();
  return Status::OK();
}

std::vector<SnapshotInfo> Snapshots::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<SnapshotInfo> out;
  for (const auto& [name, record] : records_) {
    SnapshotInfo info;
    info.name = name;
    info.created_ms = record.created_ms;
    info.whole_store = record.whole_store;
    info.cells = record.cells;
    info.bytes = record.bytes;
    for (const TableDescriptor& t : record.tables) info.tables.push_back(t.name.ToString());
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace hbemu::storage
