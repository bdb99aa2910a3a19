#include "storage/prune.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <leveldb/db.h>
#include <leveldb/iterator.h>
#include <leveldb/write_batch.h>

#include "storage/coding.h"
#include "storage/key_format.h"
#include "storage/row_locks.h"
#include "storage/row_reader.h"

namespace hbemu::storage {
namespace {

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  return s.IsCorruption() ? Status::Corruption(s.ToString()) : Status::IOError(s.ToString());
}

std::string_view View(const leveldb::Slice& s) { return std::string_view(s.data(), s.size()); }

// Rows the lock-free pass found something to drop in, pruned together.
struct RowGroup {
  std::vector<std::string> prefixes;  // r + id + enc(row)
  std::vector<std::string> rows;
};
constexpr size_t kRowsPerGroup = 256;

// Prunes a group of rows again under their locks, from a fresh view, so writes that landed
// after the lock-free pass are judged too. One LevelDB write for the group.
Status PruneGroupLocked(leveldb::DB* db, RowLocks* row_locks, const TableDescriptor& table,
                        const RowGroup& group, int64_t now_ms, bool sync) {
  const std::vector<std::string_view> rows(group.rows.begin(), group.rows.end());
  auto locks = row_locks->LockAll(table.id, rows);
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
  RowReader reader(&table, now_ms, RowReader::ForFlush());
  std::vector<std::string> doomed;
  for (const std::string& prefix : group.prefixes) {
    it->Seek(prefix);
    HBEMU_RETURN_IF_ERROR(reader.ReadForFlush(it.get(), prefix, &doomed));
  }
  if (doomed.empty()) return Status::OK();
  leveldb::WriteBatch batch;
  for (const std::string& key : doomed) batch.Delete(key);
  leveldb::WriteOptions options;
  options.sync = sync;
  return FromLevelDb(db->Write(options, &batch));
}

}  // namespace

Status PruneTable(leveldb::DB* db, RowLocks* row_locks, const TableDescriptor& table,
                  int64_t now_ms, bool sync) {
  RowReader reader(&table, now_ms, RowReader::ForFlush());
  const KeyRange range = TableCellRange(table.id);
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
  std::string row_prefix;
  std::string row_scratch;
  std::vector<std::string> doomed;
  RowGroup group;
  // A lock-free pass finds the rows with something to drop; only those are locked and read
  // again, so pruning a table that holds nothing to drop costs one scan.
  it->Seek(range.start);
  while (it->Valid() && it->key().compare(range.limit) < 0) {
    const std::string_view key = View(it->key());
    const size_t row_len = RowKeyPrefixLength(key);
    if (row_len == 0) {
      return Status::Corruption("bad cell key while pruning table " + table.name.ToString());
    }
    row_prefix.assign(key.data(), row_len);
    doomed.clear();
    HBEMU_RETURN_IF_ERROR(reader.ReadForFlush(it.get(), row_prefix, &doomed));
    if (doomed.empty()) continue;
    std::string_view row;
    if (!DecodeRowKeyPrefix(row_prefix, &row_scratch, &row)) {
      return Status::Corruption("bad row key while pruning table " + table.name.ToString());
    }
    group.prefixes.push_back(row_prefix);
    group.rows.emplace_back(row);
    if (group.rows.size() == kRowsPerGroup) {
      HBEMU_RETURN_IF_ERROR(PruneGroupLocked(db, row_locks, table, group, now_ms, sync));
      group = RowGroup();
    }
  }
  HBEMU_RETURN_IF_ERROR(FromLevelDb(it->status()));
  if (group.rows.empty()) return Status::OK();
  return PruneGroupLocked(db, row_locks, table, group, now_ms, sync);
}

}  // namespace hbemu::storage
