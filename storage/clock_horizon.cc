#include "storage/clock_horizon.h"

#include <limits>
#include <string>

#include <leveldb/db.h>

#include "storage/coding.h"
#include "storage/key_format.h"

namespace hbemu::storage {
namespace {

constexpr char kHorizonKey[] = "row_clock_horizon";

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  return s.IsCorruption() ? Status::Corruption(s.ToString()) : Status::IOError(s.ToString());
}

}  // namespace

Status ClockHorizon::Open(leveldb::DB* db, int64_t now_ms, bool sync,
                          std::unique_ptr<ClockHorizon>* out) {
  std::string stored;
  int64_t kept = ClockMarks::kNone;
  const leveldb::Status s = db->Get(leveldb::ReadOptions(), SystemKey(kHorizonKey), &stored);
  if (s.ok()) {
    if (stored.size() != 8) return Status::Corruption("bad row_clock_horizon");
    kept = static_cast<int64_t>(DecodeFixed64BE(stored.data()));
  } else if (!s.IsNotFound()) {
    return FromLevelDb(s);
  }
  const int64_t window_end = kept >= now_ms ? kept : ClockMarks::kNone;
  out->reset(new ClockHorizon(db, sync, kept, window_end));
  return Status::OK();
}

Status ClockHorizon::Cover(const ClockMarks& dated) {
  if (dated.empty()) return Status::OK();
  const int64_t newest = dated.ForRow();
  if (newest <= kept_.load(std::memory_order_acquire)) return Status::OK();
  std::lock_guard<std::mutex> lock(mu_);
  if (newest <= kept_.load(std::memory_order_relaxed)) return Status::OK();
  const int64_t raised = newest > std::numeric_limits<int64_t>::max() - kSlackMs
                             ? std::numeric_limits<int64_t>::max()
                             : newest + kSlackMs;
  std::string value;
  PutFixed64BE(&value, static_cast<uint64_t>(raised));
  leveldb::WriteOptions options;
  options.sync = sync_;
  HBEMU_RETURN_IF_ERROR(FromLevelDb(db_->Put(options, SystemKey(kHorizonKey), value)));
  kept_.store(raised, std::memory_order_release);
  return Status::OK();
}

Status ClockHorizon::AddStoredMarks(uint64_t table_id, std::string_view row, int64_t now_ms,
                                    ClockMarks* out) const {
  const std::string prefix = RowKeyPrefix(table_id, row);
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
  ParsedCellKey cell;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);) {
    const std::string_view key(it->key().data(), it->key().size());
    if (!ParseCellKeySuffix(key.substr(prefix.size()), &cell)) {
      return Status::Corruption("bad cell key while reading a row's clock marks");
    }
    if (cell.timestamp < now_ms) {
      // A column's keys (family delete markers in the empty qualifier's) run newest first:
      // the rest of it is behind the clock too.
      it->Seek(PrefixSuccessor(key.substr(0, ColumnKeyPrefixLength(key))));
      continue;
    }
    const bool whole_family =
        cell.type == CellType::kDeleteFamily || cell.type == CellType::kDeleteFamilyVersion;
    out->Add(cell.family, cell.qualifier, whole_family, cell.timestamp);
    it->Next();
  }
  return FromLevelDb(it->status());
}

}  // namespace hbemu::storage
