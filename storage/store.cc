#include "storage/store.h"

#include <pthread.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <system_error>
#include <tuple>

#include <glog/logging.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/write_batch.h>

#include "storage/catalog.h"
#include "storage/codec_check.h"
#include "storage/coding.h"
#include "storage/key_format.h"
#include "storage/row_clock.h"
#include "storage/row_locks.h"
#include "storage/row_reader.h"
#include "storage/table_sweeper.h"

namespace hbemu::storage {
namespace {

constexpr size_t kMaxRowLength = 32767;               // HConstants.MAX_ROW_LENGTH
constexpr size_t kMaxCellBytes = 10 * 1024 * 1024;    // hbase.client.keyvalue.maxsize
constexpr char kFormatVersionKey[] = "format_version";
constexpr char kClusterIdKey[] = "cluster_id";

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(s.ToString());
  return Status::IOError(s.ToString());
}

Status ValidateRow(std::string_view row) {
  if (row.empty()) return Status::InvalidArgument("Row length is 0");
  if (row.size() > kMaxRowLength) {
    return Status::InvalidArgument("Row length " + std::to_string(row.size()) + " is > " +
                                   std::to_string(kMaxRowLength));
  }
  return Status::OK();
}

Status NoSuchFamily(const TableDescriptor& table, std::string_view family) {
  return Status::NoSuchColumnFamily("Column family " + std::string(family) +
                                    " does not exist in region " + table.name.ToString() +
                                    " in table '" + table.name.ToString() + "'");
}

std::string EncodeLong(int64_t v) {
  std::string s;
  PutFixed64BE(&s, static_cast<uint64_t>(v));
  return s;
}

// Which version a "delete latest version" marker targets is the n-th newest visible one
// (HBASE_SEMANTICS.md 2.2), so repeated deletes peel versions off one at a time.
struct ColumnKey {
  std::string_view family;
  std::string_view qualifier;
  bool operator==(const ColumnKey& o) const {
    return family == o.family && qualifier == o.qualifier;
  }
};

Status CheckTimeRange(const TimeRange& range) {
  if (range.min < 0 || range.max < 0) {
    return Status::InvalidArgument("Timestamp cannot be negative. minStamp:" +
                                   std::to_string(range.min) +
                                   ", maxStamp:" + std::to_string(range.max));
  }
  if (range.min > range.max) return Status::IOError("maxStamp is smaller than minStamp");
  return Status::OK();
}

}  // namespace

Store::Store(const StoreOptions& options)
    : clock_(options.clock != nullptr ? options.clock : Clock::System()),
      sync_writes_(options.sync_writes),
      row_locks_(new RowLocks()),
      row_clock_(new RowClock()),
      codec_check_(new CodecCheck()) {}

Store::~Store() {
  if (sweeper_) sweeper_->Stop();
  sweeper_.reset();
  catalog_.reset();
  db_.reset();
}

Status Store::Open(const StoreOptions& options, std::unique_ptr<Store>* out) {
  std::unique_ptr<Store> store(new Store(options));
  HBEMU_RETURN_IF_ERROR(store->OpenDb(options));
  HBEMU_RETURN_IF_ERROR(store->LoadClusterId());
  HBEMU_RETURN_IF_ERROR(Catalog::Open(store->db_.get(), store->clock_, &store->catalog_));
  HBEMU_RETURN_IF_ERROR(store->ResumeFamilyDrops());
  store->sweeper_ = std::make_unique<TableSweeper>(store->db_.get(), store->catalog_.get());
  store->sweeper_->Start();
  *out = std::move(store);
  return Status::OK();
}

Status Store::OpenDb(const StoreOptions& options) {
  // LevelDB starts its compaction thread on first need, from whichever thread needs it, and a
  // new thread inherits its creator's name: it would show as one of the server's call or loop
  // threads in `top -H`. Its first job names it.
  leveldb::Env::Default()->Schedule(
      [](void*) { pthread_setname_np(pthread_self(), "hbemu-leveldb"); }, nullptr);
  leveldb::Options db_options;
  db_options.create_if_missing = true;
  db_options.write_buffer_size = 16 << 20;
  std::string path = options.path;
  if (options.in_memory) {
    mem_env_.reset(leveldb::NewMemEnv(leveldb::Env::Default()));
    db_options.env = mem_env_.get();
    path = "/hbase-emulator-in-memory";
  } else {
    if (path.empty()) return Status::InvalidArgument("no data directory given");
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec) return Status::IOError("cannot create data directory " + path + ": " + ec.message());
  }
  leveldb::DB* db = nullptr;
  HBEMU_RETURN_IF_ERROR(FromLevelDb(leveldb::DB::Open(db_options, path, &db)));
  db_.reset(db);

  // The format version guards against opening data written in a layout we cannot read.
  std::string stored;
  const leveldb::Status s = db_->Get(leveldb::ReadOptions(), SystemKey(kFormatVersionKey), &stored);
  if (s.IsNotFound()) {
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    it->SeekToFirst();
    if (it->Valid()) {
      return Status::Corruption("data directory " + path + " holds data without a format version");
    }
    std::string v;
    PutFixed32BE(&v, kFormatVersion);
    leveldb::WriteOptions sync;
    sync.sync = true;
    return FromLevelDb(db_->Put(sync, SystemKey(kFormatVersionKey), v));
  }
  HBEMU_RETURN_IF_ERROR(FromLevelDb(s));
  if (stored.size() != 4 || DecodeFixed32BE(stored.data()) != kFormatVersion) {
    return Status::Corruption("data directory " + path + " has storage format version " +
                              (stored.size() == 4 ? std::to_string(DecodeFixed32BE(stored.data()))
                                                  : std::string("?")) +
                              "; this server reads version " + std::to_string(kFormatVersion));
  }
  return Status::OK();
}

Status Store::LoadClusterId() {
  const leveldb::Status s = db_->Get(leveldb::ReadOptions(), SystemKey(kClusterIdKey), &cluster_id_);
  if (!s.IsNotFound()) return FromLevelDb(s);
  // A random (version 4) UUID, kept for the life of the data directory.
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd() ^ clock_->NowMillis());
  uint64_t hi = gen(), lo = gen();
  hi = (hi & ~0xf000ULL) | 0x4000ULL;
  lo = (lo & ~(3ULL << 62)) | (2ULL << 62);
  static const char kHex[] = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 32; ++i) {
    const uint64_t word = i < 16 ? hi : lo;
    id.push_back(kHex[(word >> (60 - 4 * (i % 16))) & 0xf]);
    if (i == 7 || i == 11 || i == 15 || i == 19) id.push_back('-');
  }
  leveldb::WriteOptions sync;
  sync.sync = true;
  HBEMU_RETURN_IF_ERROR(FromLevelDb(db_->Put(sync, SystemKey(kClusterIdKey), id)));
  cluster_id_ = id;
  return Status::OK();
}

void Store::WaitForSweeps() { sweeper_->WaitIdle(); }

Status Store::FindTable(std::string_view name, bool require_enabled,
                        std::shared_ptr<const TableDescriptor>* out) const {
  HBEMU_RETURN_IF_ERROR(catalog_->FindByName(name, out));
  if (require_enabled && !(*out)->enabled) {
    return Status::TableNotEnabled((*out)->name.ToString() + " is disabled.");
  }
  return Status::OK();
}

// ---------------------------------------------------------------- reads

Status Store::CheckReadSpec(const TableDescriptor& table, const ReadSpec& spec) const {
  // HBase's Get checks the time range before the versions (setTimeRange comes first).
  HBEMU_RETURN_IF_ERROR(CheckTimeRange(spec.time_range));
  for (const auto& [family, range] : spec.family_time_ranges) {
    HBEMU_RETURN_IF_ERROR(CheckTimeRange(range));
  }
  if (spec.max_versions <= 0) return Status::IOError("versions must be positive");
  for (const auto& [family, qualifiers] : spec.columns.families()) {
    if (table.FindFamily(family) == nullptr) {
      return NoSuchFamily(table, family);
    }
  }
  return Status::OK();
}

Status Store::ReadRowUnlocked(const TableDescriptor& table, std::string_view row,
                              const ReadSpec& spec, int64_t now_ms, RowResult* result) const {
  const std::string prefix = RowKeyPrefix(table.id, row);
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
  it->Seek(prefix);
  // A Get is a one-row scan in HBase: with a filter, the same row-level filter protocol applies.
  std::unique_ptr<Filter> filter = spec.filter != nullptr ? spec.filter->Clone() : nullptr;
  bool scan_done = false;
  RowReader::RowOptions options;
  options.filter = filter.get();
  options.scan_done = &scan_done;
  return RowReader(&table, &spec, now_ms).Read(it.get(), prefix, options, result);
}

Status Store::Get(std::string_view table_name, std::string_view row, const ReadSpec& spec,
                  RowResult* result) const {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  HBEMU_RETURN_IF_ERROR(ValidateRow(row));
  HBEMU_RETURN_IF_ERROR(CheckReadSpec(*table, spec));
  result->cells.clear();
  return ReadRowUnlocked(*table, row, spec, clock_->NowMillis(), result);
}

Status Store::OpenScanner(std::string_view table_name, const ScanSpec& spec,
                          std::unique_ptr<Scanner>* out) const {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  HBEMU_RETURN_IF_ERROR(CheckReadSpec(*table, spec.read));
  if (spec.batch < 0) return Status::InvalidArgument("batch must not be negative");
  *out = std::make_unique<Scanner>(db_.get(), table, spec, clock_->NowMillis());
  return Status::OK();
}

Status Store::ReadNewest(const TableDescriptor& table, std::string_view row,
                         std::string_view family, std::string_view qualifier, int64_t now_ms,
                         std::optional<Cell>* out) const {
  ReadSpec spec;
  spec.columns.AddColumn(std::string(family), std::string(qualifier));
  RowResult result;
  HBEMU_RETURN_IF_ERROR(ReadRowUnlocked(table, row, spec, now_ms, &result));
  out->reset();
  if (!result.cells.empty()) *out = std::move(result.cells.front());
  return Status::OK();
}

// ---------------------------------------------------------------- writes

Status Store::ValidateRowMutation(const TableDescriptor& table, const RowMutationView& m) const {
  for (const ColumnMutationView* it = m.begin; it != m.end; ++it) {
    const ColumnMutationView& c = *it;
    if (c.type != MutationType::kDeleteRow && table.FindFamily(c.family) == nullptr) {
      return NoSuchFamily(table, c.family);
    }
    if (c.timestamp < 0) {
      return Status::InvalidArgument("Timestamp cannot be negative. ts=" +
                                     std::to_string(c.timestamp));
    }
    if (c.type == MutationType::kPut &&
        m.row.size() + c.family.size() + c.qualifier.size() + c.value.size() > kMaxCellBytes) {
      return Status::InvalidArgument("KeyValue size too large");
    }
    if (c.type == MutationType::kDeleteFamilyVersion && c.timestamp == kLatestTimestamp) {
      return Status::InvalidArgument("DeleteFamilyVersion needs an explicit timestamp");
    }
  }
  return Status::OK();
}

Status Store::BuildBatch(const TableDescriptor& table, const RowMutationView& m, int64_t now_ms,
                         int64_t min_put_ts, leveldb::WriteBatch* batch,
                         BatchBuffers* buffers) const {
  // Everything that can reject the row is checked before the first cell is added, so a
  // rejected row leaves nothing behind in a batch shared with other rows.
  HBEMU_RETURN_IF_ERROR(ValidateRowMutation(table, m));
  BatchBuffers local;
  if (buffers == nullptr) buffers = &local;
  std::string& key = buffers->key;
  std::string& value = buffers->value;
  const auto put = [&](std::string_view family, std::string_view qualifier, int64_t ts,
                       CellType type) {
    key.clear();
    AppendCellKey(&key, table.id, m.row, family, qualifier, ts, type);
    batch->Put(key, type == CellType::kPut ? leveldb::Slice(value) : leveldb::Slice());
  };
  std::vector<std::pair<ColumnKey, int>> latest_version_deletes;
  for (const ColumnMutationView* it = m.begin; it != m.end; ++it) {
    const ColumnMutationView& c = *it;
    const bool latest = c.timestamp == kLatestTimestamp;
    int64_t ts = latest ? now_ms : c.timestamp;
    switch (c.type) {
      case MutationType::kPut: {
        if (latest) ts = std::max(ts, min_put_ts);
        // HBase compares ts + ttl in Java longs, which wrap on overflow (a huge ts plus a TTL
        // reads as already expired). Adding as unsigned gives the same wrapped value without
        // signed-overflow UB (found by UBSan via TtlStoreTest.CellTtlOverflowWrapsAsInHBase).
        const int64_t expires =
            m.cell_ttl_ms > 0 ? static_cast<int64_t>(static_cast<uint64_t>(ts) +
                                                     static_cast<uint64_t>(m.cell_ttl_ms))
                              : kNoExpiry;
        value.clear();
        EncodeCellValue(&value, c.value, expires);
        put(c.family, c.qualifier, ts, CellType::kPut);
        break;
      }
      case MutationType::kDeleteColumn:
        put(c.family, c.qualifier, ts, CellType::kDeleteColumn);
        break;
      case MutationType::kDeleteVersion: {
        if (latest) {
          const ColumnKey column{c.family, c.qualifier};
          auto it = std::find_if(latest_version_deletes.begin(), latest_version_deletes.end(),
                                 [&](const auto& e) { return e.first == column; });
          if (it == latest_version_deletes.end()) {
            latest_version_deletes.push_back({column, 0});
            it = latest_version_deletes.end() - 1;
          }
          const int nth = it->second++;
          ReadSpec spec;
          spec.columns.AddColumn(std::string(c.family), std::string(c.qualifier));
          spec.max_versions = nth + 1;
          RowResult existing;
          HBEMU_RETURN_IF_ERROR(ReadRowUnlocked(table, m.row, spec, now_ms, &existing));
          if (static_cast<int>(existing.cells.size()) > nth) ts = existing.cells[nth].timestamp;
        }
        put(c.family, c.qualifier, ts, CellType::kDelete);
        break;
      }
      case MutationType::kDeleteFamily:
        // Family-level markers live under the empty qualifier, so a reader meets them before
        // any other column of the family.
        put(c.family, "", ts, CellType::kDeleteFamily);
        break;
      case MutationType::kDeleteFamilyVersion:
        put(c.family, "", ts, CellType::kDeleteFamilyVersion);
        break;
      case MutationType::kDeleteRow:
        for (const FamilyDescriptor& f : table.families) {
          put(f.name, "", ts, CellType::kDeleteFamily);
        }
        break;
    }
  }
  return Status::OK();
}

Status Store::Write(leveldb::WriteBatch* batch) {
  leveldb::WriteOptions options;
  options.sync = sync_writes_;
  return FromLevelDb(db_->Write(options, batch));
}

Status Store::Mutate(std::string_view table_name, const RowMutation& mutation) {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  HBEMU_RETURN_IF_ERROR(ValidateRow(mutation.row));
  if (mutation.mutations.empty()) return Status::OK();
  auto lock = row_locks_->Lock(table->id, mutation.row);
  MutationBatchView view;
  view.Add(mutation);
  leveldb::WriteBatch batch;
  HBEMU_RETURN_IF_ERROR(BuildBatch(
      *table, view[0], row_clock_->Now(table->id, mutation.row, clock_->NowMillis()), 0, &batch));
  return Write(&batch);
}

Status Store::MutateRows(std::string_view table_name, const std::vector<RowMutation>& mutations,
                         std::vector<RowFailure>* failures) {
  MutationBatchView view;
  for (const RowMutation& m : mutations) view.Add(m);
  return MutateRows(table_name, view, failures);
}

Status Store::MutateRows(std::string_view table_name, const MutationBatchView& mutations,
                         std::vector<RowFailure>* failures) {
  if (failures != nullptr) failures->clear();
  if (mutations.empty()) return Status::OK();  // as no Mutate call at all
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  std::vector<std::string_view> rows;
  rows.reserve(mutations.size());
  for (size_t i = 0; i < mutations.size(); ++i) rows.push_back(mutations[i].row);
  auto locks = row_locks_->LockAll(table->id, rows);
  const int64_t now = clock_->NowMillis();
  leveldb::WriteBatch batch;
  BatchBuffers buffers;
  bool pending = false;  // batch holds something
  Status first_failure;
  const auto reject = [&](size_t index, Status status) {
    if (first_failure.ok()) first_failure = status;
    if (failures != nullptr) failures->push_back(RowFailure{index, std::move(status)});
  };
  for (size_t i = 0; i < mutations.size(); ++i) {
    const RowMutationView m = mutations[i];
    Status status = ValidateRow(m.row);
    if (!status.ok()) {
      reject(i, std::move(status));
      continue;
    }
    if (m.empty()) continue;
    // A "delete latest version" reads the row, so it must see the rows written before it.
    const bool reads = std::any_of(m.begin, m.end, [](const auto& c) {
      return c.type == MutationType::kDeleteVersion;
    });
    if (reads && pending) {
      HBEMU_RETURN_IF_ERROR(Write(&batch));
      batch.Clear();
      pending = false;
    }
    status = BuildBatch(*table, m, row_clock_->Now(table->id, m.row, now), 0, &batch, &buffers);
    if (!status.ok()) {
      // A rejected row adds nothing, except when its read failed midway; its batch then holds
      // only this row (flushed above), which must not be written.
      if (reads) {
        batch.Clear();
        pending = false;
      }
      reject(i, std::move(status));
      continue;
    }
    pending = true;
  }
  if (pending) HBEMU_RETURN_IF_ERROR(Write(&batch));
  return first_failure;
}

Status Store::ReadModifyWrite(std::string_view table_name, std::string_view row,
                             const std::vector<std::pair<std::string, std::string>>& columns,
                             const NewValueFn& new_value, std::vector<Cell>* result) {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  HBEMU_RETURN_IF_ERROR(ValidateRow(row));
  auto lock = row_locks_->Lock(table->id, row);
  const int64_t wall_now = clock_->NowMillis();
  const int64_t now = row_clock_->Now(table->id, row, wall_now);
  // One read of just the columns involved, newest version only.
  ReadSpec spec;
  for (const auto& [family, qualifier] : columns) {
    if (table->FindFamily(family) == nullptr) return NoSuchFamily(*table, family);
    spec.columns.AddColumn(family, qualifier);
  }
  RowResult current;
  HBEMU_RETURN_IF_ERROR(ReadRowUnlocked(*table, row, spec, wall_now, &current));
  RowMutation m;
  m.row = std::string(row);
  result->clear();
  int64_t newest = now;
  for (size_t i = 0; i < columns.size(); ++i) {
    const auto& [family, qualifier] = columns[i];
    std::optional<Cell> old;
    for (const Cell& cell : current.cells) {
      if (cell.family == family && cell.qualifier == qualifier) {
        old = cell;
        break;
      }
    }
    ColumnMutation put;
    put.family = family;
    put.qualifier = qualifier;
    HBEMU_RETURN_IF_ERROR(new_value(i, old, &put.value));
    // HRegion.reckonDelta: the new cell must be newer than the one it was computed from, even
    // when that one is dated in the future.
    put.timestamp = old.has_value() ? std::max(now, old->timestamp + 1) : now;
    newest = std::max(newest, put.timestamp);
    result->push_back(Cell{family, qualifier, put.timestamp, put.value});
    m.mutations.push_back(std::move(put));
  }
  MutationBatchView view;
  view.Add(m);
  leveldb::WriteBatch batch;
  HBEMU_RETURN_IF_ERROR(BuildBatch(*table, view[0], now, 0, &batch));
  HBEMU_RETURN_IF_ERROR(Write(&batch));
  row_clock_->Assigned(table->id, row, newest, wall_now);
  // HBase's Result is sorted by column (family, then qualifier), not in request order.
  std::stable_sort(result->begin(), result->end(), [](const Cell& a, const Cell& b) {
    return std::tie(a.family, a.qualifier) < std::tie(b.family, b.qualifier);
  });
  return Status::OK();
}

Status Store::Increment(std::string_view table_name, std::string_view row,
                        const std::vector<ColumnIncrement>& increments,
                        std::vector<Cell>* result) {
  std::vector<std::pair<std::string, std::string>> columns;
  for (const ColumnIncrement& inc : increments) columns.emplace_back(inc.family, inc.qualifier);
  return ReadModifyWrite(
      table_name, row, columns,
      [&](size_t i, const std::optional<Cell>& old, std::string* value) {
        uint64_t sum = static_cast<uint64_t>(increments[i].amount);
        if (old.has_value()) {
          if (old->value.size() != 8) {
            return Status::DoNotRetry("Field is not a long, it's " +
                                      std::to_string(old->value.size()) + " bytes wide");
          }
          sum += DecodeFixed64BE(old->value.data());  // wraps around, as Java's long addition
        }
        *value = EncodeLong(static_cast<int64_t>(sum));
        return Status::OK();
      },
      result);
}

Status Store::Append(std::string_view table_name, std::string_view row,
                     const std::vector<ColumnAppend>& appends, std::vector<Cell>* result) {
  std::vector<std::pair<std::string, std::string>> columns;
  for (const ColumnAppend& app : appends) columns.emplace_back(app.family, app.qualifier);
  return ReadModifyWrite(
      table_name, row, columns,
      [&](size_t i, const std::optional<Cell>& old, std::string* value) {
        *value = old.has_value() ? old->value + appends[i].value : appends[i].value;
        return Status::OK();
      },
      result);
}

Status Store::CheckAndMutate(std::string_view table_name, std::string_view row,
                             std::string_view family, std::string_view qualifier,
                             CompareOp op, const std::optional<std::string>& expected,
                             const RowMutation& mutation, bool* applied) {
  *applied = false;
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  HBEMU_RETURN_IF_ERROR(ValidateRow(row));
  if (mutation.row != row) {
    return Status::InvalidArgument("Action's getRow must match the passed row");
  }
  if (table->FindFamily(family) == nullptr) {
    return NoSuchFamily(*table, family);
  }
  auto lock = row_locks_->Lock(table->id, row);
  const int64_t now = row_clock_->Now(table->id, row, clock_->NowMillis());
  std::optional<Cell> current;
  HBEMU_RETURN_IF_ERROR(ReadNewest(*table, row, family, qualifier, now, &current));
  std::optional<std::string_view> stored;
  if (current.has_value()) stored = current->value;
  bool matches = false;
  HBEMU_RETURN_IF_ERROR(CheckValueMatches(op, expected, stored, &matches));
  if (!matches) return Status::OK();
  MutationBatchView view;
  view.Add(mutation);
  leveldb::WriteBatch batch;
  // A put must land after the cell it was checked against, even if that cell is future-dated.
  const int64_t min_put_ts = current.has_value() ? current->timestamp : 0;
  HBEMU_RETURN_IF_ERROR(BuildBatch(*table, view[0], now, min_put_ts, &batch));
  HBEMU_RETURN_IF_ERROR(Write(&batch));
  *applied = true;
  return Status::OK();
}

}  // namespace hbemu::storage
