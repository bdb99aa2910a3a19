#include "storage/family_sweep.h"

#include <memory>
#include <string>

#include <leveldb/db.h>
#include <leveldb/iterator.h>
#include <leveldb/write_batch.h>

#include "storage/coding.h"
#include "storage/key_format.h"

namespace hbemu::storage {
namespace {

constexpr int kKeysPerBatch = 1000;

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  return s.IsCorruption() ? Status::Corruption(s.ToString()) : Status::IOError(s.ToString());
}

}  // namespace

Status SweepFamily(leveldb::DB* db, uint64_t table_id, std::string_view family,
                   const SweepBatchHook& before_batch) {
  const KeyRange table = TableCellRange(table_id);
  const std::string family_suffix = FamilyKeySuffix(family);
  std::string next = table.start;
  std::string family_prefix;
  for (;;) {
    if (before_batch) HBEMU_RETURN_IF_ERROR(before_batch(table_id, family));
    leveldb::WriteBatch batch;
    int n = 0;
    std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
    // Per row: jump to the family's first key, delete its run, jump to the next row.
    for (it->Seek(next); it->Valid() && it->key().compare(table.limit) < 0 && n < kKeysPerBatch;) {
      const std::string_view key(it->key().data(), it->key().size());
      const size_t row_len = RowKeyPrefixLength(key);
      if (row_len == 0) return Status::Corruption("bad cell key while deleting a family");
      family_prefix.assign(key.data(), row_len);
      family_prefix.append(family_suffix);
      if (key < family_prefix) {
        it->Seek(family_prefix);
        continue;
      }
      if (key.compare(0, family_prefix.size(), family_prefix) == 0) {
        batch.Delete(it->key());
        ++n;
        it->Next();
        continue;
      }
      it->Seek(PrefixSuccessor(key.substr(0, row_len)));
    }
    HBEMU_RETURN_IF_ERROR(FromLevelDb(it->status()));
    const bool done = !it->Valid() || it->key().compare(table.limit) >= 0;
    if (!done) next = it->key().ToString();
    it.reset();
    if (n > 0) HBEMU_RETURN_IF_ERROR(FromLevelDb(db->Write(leveldb::WriteOptions(), &batch)));
    if (done) return Status::OK();
  }
}

}  // namespace hbemu::storage
