#include "storage/store.h"

#include <pthread.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <system_error>

#include <glog/logging.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/write_batch.h>

#include "storage/catalog.h"
#include "storage/clock_horizon.h"
#include "storage/codec_check.h"
#include "storage/coding.h"
#include "storage/key_format.h"
#include "storage/mutation_build.h"
#include "storage/request_checks.h"
#include "storage/row_clock.h"
#include "storage/row_locks.h"
#include "storage/row_reader.h"
#include "storage/snapshots.h"
#include "storage/table_sweeper.h"

namespace hbemu::storage {
namespace {

constexpr char kFormatVersionKey[] = "format_version";
constexpr char kClusterIdKey[] = "cluster_id";

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(s.ToString());
  return Status::IOError(s.ToString());
}

// TimeRange's checks; a range past the constructor with min > max is answered by HBase's
// region server, with an IOException.
Status CheckReadTimeRange(const TimeRange& range) {
  const Status s = CheckTimeRange(range.min, range.max);
  if (!s.ok() && range.min >= 0 && range.max >= 0) return Status::IOError(s.message());
  return s;
}

}  // namespace

Store::Store(const StoreOptions& options)
    : clock_(options.clock != nullptr ? options.clock : Clock::System()),
      sync_writes_(options.sync_writes),
      before_family_sweep_batch_(options.before_family_sweep_batch),
      before_read_view_(options.before_read_view),
      before_data_write_(options.before_data_write),
      limits_(options.limits),
      row_locks_(new RowLocks()),
      row_clock_(new RowClock()),
      codec_check_(new CodecCheck()) {}

Store::~Store() {
  snapshots_.reset();
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
  HBEMU_RETURN_IF_ERROR(ClockHorizon::Open(store->db_.get(), store->clock_->NowMillis(),
                                           store->sync_writes_, &store->horizon_));
  HBEMU_RETURN_IF_ERROR(store->ResumeFamilyDrops());
  store->sweeper_ = std::make_unique<TableSweeper>(store->db_.get(), store->catalog_.get());
  store->sweeper_->Start();
  HBEMU_RETURN_IF_ERROR(Snapshots::Open(store->db_.get(), store->catalog_.get(),
                                        store->sweeper_.get(), &store->write_gate_,
                                        store->clock_, store->limits_, &store->snapshots_));
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

Status Store::CheckReadSpec(const TableDescriptor& table, const ReadSpec& spec,
                            bool is_get) const {
  // HBase's Get checks the time range before the versions (setTimeRange comes first).
  HBEMU_RETURN_IF_ERROR(CheckReadTimeRange(spec.time_range));
  for (const auto& [family, range] : spec.family_time_ranges) {
    HBEMU_RETURN_IF_ERROR(CheckReadTimeRange(range));
  }
  // Get.readVersions refuses it; Scan.readVersions does not, and such a scan returns nothing.
  if (is_get && spec.max_versions <= 0) return Status::IOError("versions must be positive");
  for (const auto& [family, qualifiers] : spec.columns.families()) {
    if (table.FindFamily(family) == nullptr) {
      return NoSuchFamily(table, family);
    }
  }
  return Status::OK();
}

Status Store::ViewTable(
    std::string_view name, const std::function<Status(const TableDescriptor&)>& check,
    const std::function<void(std::shared_ptr<const TableDescriptor>)>& take_view) const {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(name, true, &table));
  HBEMU_RETURN_IF_ERROR(check(*table));
  // A snapshot restore (test controls) or a truncate between the lookup and the view gives the
  // name a new table id and sweeps the old one, so the view could hold the old table half swept: the name
  // must still mean the same table once the view is taken (table ids are never reused), else
  // the view is taken again. The catalog bumps its lookup generation before an install's
  // write, so a lookup after the view cannot come from a cache older than it.
  for (int attempt = 0;; ++attempt) {
    const uint64_t viewed = table->id;
    if (before_read_view_) before_read_view_(name);
    take_view(table);
    std::shared_ptr<const TableDescriptor> current;
    if (attempt == 3 || !FindTable(name, true, &current).ok() || current->id == viewed) {
      return Status::OK();
    }
    table = std::move(current);
    HBEMU_RETURN_IF_ERROR(check(*table));
  }
}

Status Store::ReadRowUnlocked(const TableDescriptor& table, std::string_view row,
                              const ReadSpec& spec, int64_t now_ms, RowResult* result) const {
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
  return ReadRowFrom(table, it.get(), row, spec, now_ms, result);
}

Status Store::ReadRowFrom(const TableDescriptor& table, leveldb::Iterator* it,
                          std::string_view row, const ReadSpec& spec, int64_t now_ms,
                          RowResult* result) const {
  const std::string prefix = RowKeyPrefix(table.id, row);
  it->Seek(prefix);
  // A Get is a one-row scan in HBase: with a filter, the same row-level filter protocol applies.
  std::unique_ptr<Filter> filter = spec.filter != nullptr ? spec.filter->Clone() : nullptr;
  bool scan_done = false;
  RowReader::RowOptions options;
  options.filter = filter.get();
  options.scan_done = &scan_done;
  return RowReader(&table, &spec, now_ms, limits_.result_bytes).Read(it, prefix, options, result);
}

Status Store::Get(std::string_view table_name, std::string_view row, const ReadSpec& spec,
                  RowResult* result) const {
  std::shared_ptr<const TableDescriptor> table;
  std::unique_ptr<leveldb::Iterator> it;  // its implicit snapshot is the Get's view
  HBEMU_RETURN_IF_ERROR(ViewTable(
      table_name,
      [&](const TableDescriptor& t) {
        HBEMU_RETURN_IF_ERROR(CheckRow(row));
        return CheckReadSpec(t, spec, /*is_get=*/true);
      },
      [&](std::shared_ptr<const TableDescriptor> t) {
        table = std::move(t);
        it.reset(db_->NewIterator(leveldb::ReadOptions()));
      }));
  result->cells.clear();
  return ReadRowFrom(*table, it.get(), row, spec, clock_->NowMillis(), result);
}

Status Store::OpenScanner(std::string_view table_name, const ScanSpec& spec,
                          std::unique_ptr<Scanner>* out) const {
  std::unique_ptr<Scanner> scanner;  // its LevelDB snapshot is the scan's view
  HBEMU_RETURN_IF_ERROR(ViewTable(
      table_name,
      [&](const TableDescriptor& t) {
        HBEMU_RETURN_IF_ERROR(CheckReadSpec(t, spec.read, /*is_get=*/false));
        if (spec.batch < 0) return Status::InvalidArgument("batch must not be negative");
        return Status::OK();
      },
      [&](std::shared_ptr<const TableDescriptor> t) {
        scanner = std::make_unique<Scanner>(db_.get(), std::move(t), spec, clock_->NowMillis(),
                                            limits_.result_bytes);
      }));
  *out = std::move(scanner);
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

// The mutation module (mutation_build.h) decides what is written; Store finds the table, takes
// the row locks, dates the call, reads what the module asks for and writes.

namespace {

// A row's write time: the call's `now`, with the row's marks when a column of it runs ahead.
// After a start inside the lead of marks the previous run kept, the row's stored cells ahead
// of the clock count as marks too (clock_horizon.h).
Status TimeFor(RowClock* clock, const ClockHorizon& horizon, uint64_t table_id,
               std::string_view row, int64_t now, bool stopped, ClockMarks* ahead,
               WriteTime* time) {
  bool any = clock->Marks(table_id, row, now, ahead);
  if (horizon.InRestartWindow(now)) {
    HBEMU_RETURN_IF_ERROR(horizon.AddStoredMarks(table_id, row, now, ahead));
    any = !ahead->empty();
  }
  *time = WriteTime{now, any ? ahead : nullptr, 0};
  time->stopped = stopped;
  return Status::OK();
}

}  // namespace

Status Store::Write(leveldb::WriteBatch* batch) {
  if (before_data_write_) before_data_write_();
  leveldb::WriteOptions options;
  options.sync = sync_writes_;
  return FromLevelDb(db_->Write(options, batch));
}

RowRead Store::RowReadAt(const TableDescriptor& table, int64_t now_ms) const {
  return [this, &table, now_ms](std::string_view row, const ReadSpec& spec, RowResult* out) {
    return ReadRowUnlocked(table, row, spec, now_ms, out);
  };
}

Status Store::Mutate(std::string_view table_name, const RowMutation& mutation) {
  const auto gate = write_gate_.EnterWrite();  // before the lookup: see write_gate.h
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  HBEMU_RETURN_IF_ERROR(CheckRow(mutation.row));
  if (mutation.mutations.empty()) return Status::OK();
  auto lock = row_locks_->Lock(table->id, mutation.row);
  const int64_t now = clock_->NowMillis();
  MutationBatchView view;
  view.Add(mutation);
  leveldb::WriteBatch batch;
  MutationBuilder builder(*table, RowReadAt(*table, now), limits_.cell_bytes, &batch);
  ClockMarks ahead, dated;
  WriteTime time;
  HBEMU_RETURN_IF_ERROR(TimeFor(row_clock_.get(), *horizon_, table->id, mutation.row, now,
                                clock_->stopped(), &ahead, &time));
  HBEMU_RETURN_IF_ERROR(builder.Add(view[0], time, &dated));
  HBEMU_RETURN_IF_ERROR(horizon_->Cover(dated));
  HBEMU_RETURN_IF_ERROR(Write(&batch));
  if (!dated.empty()) row_clock_->Record(table->id, mutation.row, dated, time.MarkFloor());
  return Status::OK();
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
  const auto gate = write_gate_.EnterWrite();  // before the lookup: see write_gate.h
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  std::vector<std::string_view> rows;
  rows.reserve(mutations.size());
  for (size_t i = 0; i < mutations.size(); ++i) rows.push_back(mutations[i].row);
  auto locks = row_locks_->LockAll(table->id, rows);
  const int64_t now = clock_->NowMillis();
  leveldb::WriteBatch batch;
  MutationBuilder builder(*table, RowReadAt(*table, now), limits_.cell_bytes, &batch);
  ClockMarks ahead, dated;
  bool pending = false;  // batch holds something
  Status first_failure;
  const auto reject = [&](size_t index, Status status) {
    if (first_failure.ok()) first_failure = status;
    if (failures != nullptr) failures->push_back(RowFailure{index, std::move(status)});
  };
  for (size_t i = 0; i < mutations.size(); ++i) {
    const RowMutationView m = mutations[i];
    Status status = CheckRow(m.row);
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
    // One "now" for every row, as HBase gives one batch; a row's marks are recorded as it is
    // built (its lock is held until the batch is written), so a later entry for the same row
    // goes past them.
    WriteTime time;
    HBEMU_RETURN_IF_ERROR(TimeFor(row_clock_.get(), *horizon_, table->id, m.row, now,
                                  clock_->stopped(), &ahead, &time));
    status = builder.Add(m, time, &dated);
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
    if (!dated.empty()) {
      // Kept before the batch holding these cells is written (here or at the next flush).
      HBEMU_RETURN_IF_ERROR(horizon_->Cover(dated));
      row_clock_->Record(table->id, m.row, dated, time.MarkFloor());
    }
    pending = true;
  }
  if (pending) HBEMU_RETURN_IF_ERROR(Write(&batch));
  return first_failure;
}

Status Store::ReadModifyWrite(std::string_view table_name, std::string_view row,
                              const std::vector<std::pair<std::string, std::string>>& columns,
                              const NewValueFn& new_value, std::vector<Cell>* result) {
  const auto gate = write_gate_.EnterWrite();  // before the lookup: see write_gate.h
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  HBEMU_RETURN_IF_ERROR(CheckRow(row));
  auto lock = row_locks_->Lock(table->id, row);
  const int64_t now = clock_->NowMillis();
  // One read of just the columns involved, newest version only.
  ReadSpec spec;
  for (const auto& [family, qualifier] : columns) {
    if (table->FindFamily(family) == nullptr) return NoSuchFamily(*table, family);
    spec.columns.AddColumn(family, qualifier);
  }
  RowResult current;
  HBEMU_RETURN_IF_ERROR(ReadRowUnlocked(*table, row, spec, now, &current));
  ClockMarks ahead, dated;
  WriteTime time;
  HBEMU_RETURN_IF_ERROR(TimeFor(row_clock_.get(), *horizon_, table->id, row, now,
                                clock_->stopped(), &ahead, &time));
  leveldb::WriteBatch batch;
  HBEMU_RETURN_IF_ERROR(BuildReadModifyWrite(*table, row, columns, current, new_value, time,
                                             limits_.cell_bytes, &batch, result, &dated));
  HBEMU_RETURN_IF_ERROR(horizon_->Cover(dated));
  HBEMU_RETURN_IF_ERROR(Write(&batch));
  if (!dated.empty()) row_clock_->Record(table->id, row, dated, time.MarkFloor());
  return Status::OK();
}

Status Store::Increment(std::string_view table_name, std::string_view row,
                        const std::vector<ColumnIncrement>& increments,
                        std::vector<Cell>* result) {
  std::vector<std::pair<std::string, std::string>> columns;
  for (const ColumnIncrement& inc : increments) columns.emplace_back(inc.family, inc.qualifier);
  return ReadModifyWrite(table_name, row, columns, IncrementBy(increments), result);
}

Status Store::Append(std::string_view table_name, std::string_view row,
                     const std::vector<ColumnAppend>& appends, std::vector<Cell>* result) {
  std::vector<std::pair<std::string, std::string>> columns;
  for (const ColumnAppend& app : appends) columns.emplace_back(app.family, app.qualifier);
  return ReadModifyWrite(table_name, row, columns, AppendTo(appends), result);
}

Status Store::CheckAndMutate(std::string_view table_name, std::string_view row,
                             std::string_view family, std::string_view qualifier,
                             CompareOp op, const std::optional<std::string>& expected,
                             const RowMutation& mutation, bool* applied) {
  *applied = false;
  const auto gate = write_gate_.EnterWrite();  // before the lookup: see write_gate.h
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(table_name, true, &table));
  HBEMU_RETURN_IF_ERROR(CheckRow(row));
  if (mutation.row != row) {
    return Status::InvalidArgument("Action's getRow must match the passed row");
  }
  if (table->FindFamily(family) == nullptr) {
    return NoSuchFamily(*table, family);
  }
  auto lock = row_locks_->Lock(table->id, row);
  const int64_t now = clock_->NowMillis();
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
  MutationBuilder builder(*table, RowReadAt(*table, now), limits_.cell_bytes, &batch);
  ClockMarks ahead, dated;
  WriteTime time;
  HBEMU_RETURN_IF_ERROR(TimeFor(row_clock_.get(), *horizon_, table->id, row, now,
                                clock_->stopped(), &ahead, &time));
  time.min_put_ts = current.has_value() ? current->timestamp : 0;
  time.min_put_ts_is_mark =
      current.has_value() && ahead.ForColumn(family, qualifier) >= current->timestamp;
  HBEMU_RETURN_IF_ERROR(builder.Add(view[0], time, &dated));
  HBEMU_RETURN_IF_ERROR(horizon_->Cover(dated));
  HBEMU_RETURN_IF_ERROR(Write(&batch));
  if (!dated.empty()) row_clock_->Record(table->id, row, dated, time.MarkFloor());
  *applied = true;
  return Status::OK();
}

}  // namespace hbemu::storage
