#include "storage/scanner.h"

#include <algorithm>
#include <utility>

#include <leveldb/db.h>
#include <leveldb/iterator.h>

#include "storage/cancel.h"
#include "storage/coding.h"
#include "storage/key_format.h"
#include "storage/memory_size.h"
#include "storage/row_reader.h"

namespace hbemu::storage {
namespace {

Status IteratorStatus(const leveldb::Iterator* it) {
  const leveldb::Status s = it->status();
  if (s.ok()) return Status::OK();
  return s.IsCorruption() ? Status::Corruption(s.ToString()) : Status::IOError(s.ToString());
}

std::string_view View(const leveldb::Slice& s) { return std::string_view(s.data(), s.size()); }

// A kept scan request (its ScanSpec and the registry's entry), and an open scanner's own state
// (the Scanner, its LevelDB iterator and snapshot, its row reader): a fixed part each.
constexpr size_t kScanRequestBytes = 4096;
constexpr size_t kScannerStateBytes = 4096;

}  // namespace

size_t ScanSpecBytes(const ScanSpec& spec) {
  size_t bytes = kScanRequestBytes + StringHeapBytes(spec.start_row) +
                 StringHeapBytes(spec.stop_row) +
                 (spec.row_prefix.has_value() ? StringHeapBytes(*spec.row_prefix) : 0);
  for (const auto& [family, qualifiers] : spec.read.columns.families()) {
    bytes += kFamilyMapNodeBytes + StringHeapBytes(family);
    if (!qualifiers.has_value()) continue;
    for (const std::string& qualifier : *qualifiers) {
      bytes += kStringSetNodeBytes + StringHeapBytes(qualifier);
    }
  }
  for (const auto& [family, range] : spec.read.family_time_ranges) {
    bytes += AllocationBytes(32 + sizeof(std::string) + sizeof(range)) + StringHeapBytes(family);
  }
  if (spec.read.filter != nullptr) bytes += spec.read.filter->TreeBytes();
  return bytes;
}

size_t Scanner::HeldBytes() const {
  // Its own copy of the spec (the filter prototype shared with the request's, if that is still
  // kept, is counted with each) and its filter instance.
  return kScannerStateBytes + ScanSpecBytes(spec_) +
         (filter_ != nullptr ? filter_->TreeBytes() : 0) + pending_.capacity_bytes() +
         pending_scratch_.capacity_bytes() + lookahead_.capacity_bytes();
}

Scanner::Scanner(leveldb::DB* db, std::shared_ptr<const TableDescriptor> table, ScanSpec spec,
                 int64_t now_ms, int64_t row_bytes)
    : db_(db),
      table_(std::move(table)),
      spec_(std::move(spec)),
      now_ms_(now_ms),
      row_bytes_(row_bytes) {
  snapshot_ = db_->GetSnapshot();
  leveldb::ReadOptions options;
  options.snapshot = snapshot_;
  options.fill_cache = false;  // a scan should not evict the point-read working set
  it_.reset(db_->NewIterator(options));

  const KeyRange table_range = TableCellRange(table_->id);
  const uint64_t id = table_->id;
  // HBase 2 keeps the old rule that a scan whose start equals its stop is a get of that row.
  const bool get_scan = !spec_.start_row.empty() && spec_.start_row == spec_.stop_row;
  if (!spec_.reversed) {
    lower_ = spec_.start_row.empty() ? table_range.start : RowKeyPrefix(id, spec_.start_row);
    upper_ = spec_.stop_row.empty()       ? table_range.limit
             : get_scan ? PrefixSuccessor(RowKeyPrefix(id, spec_.stop_row))
                                      : RowKeyPrefix(id, spec_.stop_row);
  } else {
    // Reversed: rows in (stop, start]. Every key of row `start` is below the successor of its
    // prefix, and every row above `stop` is at or above the successor of stop's prefix.
    upper_ = spec_.start_row.empty() ? table_range.limit
                                     : PrefixSuccessor(RowKeyPrefix(id, spec_.start_row));
    lower_ = spec_.stop_row.empty()       ? table_range.start
             : get_scan ? RowKeyPrefix(id, spec_.stop_row)
                                      : PrefixSuccessor(RowKeyPrefix(id, spec_.stop_row));
  }
  if (spec_.row_prefix.has_value()) {
    const std::string prefix_start = RowPrefixKeyPrefix(id, *spec_.row_prefix);
    const std::string prefix_limit = PrefixSuccessor(prefix_start);
    lower_ = std::max(lower_, prefix_start);
    upper_ = std::min(upper_, prefix_limit);
  }
  if (spec_.first_region_only && !table_->split_keys.empty()) {
    const std::vector<std::string>& keys = table_->split_keys;  // sorted
    if (!spec_.reversed) {
      const auto end = std::upper_bound(keys.begin(), keys.end(), spec_.start_row);
      if (end != keys.end()) upper_ = std::min(upper_, RowKeyPrefix(id, *end));
    } else {
      const auto after = spec_.start_row.empty()
                             ? keys.end()
                             : std::upper_bound(keys.begin(), keys.end(), spec_.start_row);
      if (after != keys.begin()) lower_ = std::max(lower_, RowKeyPrefix(id, *(after - 1)));
    }
  }
  if (lower_ >= upper_) exhausted_ = true;
  reader_ = std::make_unique<RowReader>(table_.get(), &spec_.read, now_ms_, row_bytes_);
  if (spec_.read.filter != nullptr) {
    filter_ = spec_.read.filter->Clone();
    filter_->SetReversed(spec_.reversed);
    // Regions matter only to a filter's state.
    for (const std::string& key : table_->split_keys) region_starts_.push_back(RowKeyPrefix(id, key));
  }
}

bool Scanner::BeforeRow(std::string_view row_key_prefix, Status* status) {
  // A scan whose filter drops row after row can run for minutes inside one call.
  if (StopRequested()) {
    *status = StoppingError();
    return false;
  }
  if (region_starts_.empty()) return true;
  const size_t region = static_cast<size_t>(
      std::upper_bound(region_starts_.begin(), region_starts_.end(), row_key_prefix) -
      region_starts_.begin());
  if (region == region_) return true;
  if (region_ != static_cast<size_t>(-1)) filter_->Restart();
  region_ = region;
  return true;
}

Scanner::~Scanner() {
  it_.reset();
  db_->ReleaseSnapshot(snapshot_);
}

Status Scanner::Next(size_t max_results, RowBatch* out) {
  if (spec_.batch > 0 && filter_ != nullptr && filter_->HasFilterRow()) {
    // HBase's region server refuses a batch limit with a row-level filter when the scan
    // opens there, i.e. at the first fetch (and at every retry of it): a retryable IOException
    // caused by IncompatibleFilterException.
    return Status::IOError(
        "Cannot set batch on a scan using a filter that returns true for filter.hasFilterRow");
  }
  if (spec_.reversed && filter_ != nullptr && LoadsFamiliesOnDemand()) {
    return Status::DoNotRetry("Reverse scan with loading CFs on demand is not supported");
  }
  const size_t batch = spec_.batch > 0 ? static_cast<size_t>(spec_.batch) : 0;
  Status status;
  for (size_t produced = 0; produced < max_results;) {
    if (batch > 0 && !pending_.empty()) {
      status = FillPending(batch + 1);
      if (!status.ok()) return status;
    }
    if (batch > 0 && !pending_.empty() && pending_pos_ < pending_.cell_count(0)) {
      const size_t total = pending_.cell_count(0);
      const size_t take = std::min(total - pending_pos_, batch);
      // A piece that fills the batch exactly stops HBase's store scanner right after its last
      // cell; it reports more cells in the row when any stored cell of it follows, hidden or
      // not.
      bool partial = pending_pos_ + take < total;
      if (!partial && take == batch && pending_hidden_tail_) {
        partial = MoreRowsFollow(&status);
        if (!status.ok()) return status;
      }
      out->AppendPiece(pending_, 0, pending_pos_, take, partial);
      pending_pos_ += take;
      ++produced;
      continue;
    }
    // The row limit counts whole rows: every piece of the last row still comes out.
    const bool limit_reached = spec_.limit > 0 && rows_fetched_ >= spec_.limit;
    // Without a batch limit a row is read straight into *out, whole.
    RowBatch* target = out;
    if (batch > 0) {
      pending_.Clear();
      pending_pos_ = 0;
      target = &pending_;
      if (lookahead_ready_) {
        lookahead_ready_ = false;
        if (!lookahead_found_) {
          exhausted_ = true;
          break;
        }
        std::swap(pending_, lookahead_);
        pending_hidden_tail_ = lookahead_hidden_tail_;
        ++rows_fetched_;
        continue;
      }
    }
    if (exhausted_ || limit_reached || !FetchRow(target, &status)) {
      exhausted_ = true;
      break;
    }
    ++rows_fetched_;
    if (batch == 0) ++produced;
  }
  return status;
}

Status Scanner::Next(size_t max_results, std::vector<RowResult>* out) {
  RowBatch rows;
  const Status status = Next(max_results, &rows);
  out->reserve(out->size() + rows.size());
  for (size_t i = 0; i < rows.size(); ++i) out->push_back(rows.ToRowResult(i));
  return status;
}

bool Scanner::MoreRowsFollow(Status* status) {
  if (!lookahead_ready_) {
    const bool pending_tail = pending_hidden_tail_;
    lookahead_.Clear();
    const bool limit_reached = spec_.limit > 0 && rows_fetched_ >= spec_.limit;
    lookahead_found_ = !exhausted_ && !limit_reached && FetchRow(&lookahead_, status);
    lookahead_hidden_tail_ = pending_hidden_tail_;
    pending_hidden_tail_ = pending_tail;
    lookahead_ready_ = true;
  }
  return lookahead_found_;
}

Status Scanner::FillPending(size_t wanted) {
  const size_t left = pending_.cell_count(0) - pending_pos_;
  // With a row read ahead, the open row is that one (pending_'s ended before it was read).
  if (!row_open_ || lookahead_ready_ || left >= wanted) return Status::OK();
  if (pending_pos_ > 0) {
    pending_scratch_.Clear();
    pending_scratch_.AppendPiece(pending_, 0, pending_pos_, left, false);
    std::swap(pending_, pending_scratch_);
    pending_pos_ = 0;
  }
  RowReader::RowOptions options = ReadOptions();
  options.hidden_tail = &pending_hidden_tail_;
  options.max_cells = wanted - left;
  return reader_->Resume(it_.get(), open_row_prefix_, options, &pending_);
}

RowReader::RowOptions Scanner::ReadOptions() {
  RowReader::RowOptions options;
  options.filter = filter_.get();
  options.scan_done = &filter_done_;
  // A forward scan reads the next row from where this one ends; a reversed one seeks.
  options.end_after_row = !spec_.reversed;
  if (spec_.batch > 0) {
    options.max_cells = static_cast<size_t>(spec_.batch) + 1;
    options.row_open = &row_open_;
  }
  return options;
}

bool* Scanner::HiddenTailOut() {
  pending_hidden_tail_ = false;
  return spec_.batch > 0 ? &pending_hidden_tail_ : nullptr;
}

// HBase's region server reads a scanned family "on demand" when the filter says it is not
// essential (hbase.hregion.scan.loadColumnFamiliesOnDemand defaults to true); its reversed
// scanner refuses that at the first fetch.
bool Scanner::LoadsFamiliesOnDemand() const {
  if (spec_.read.columns.all()) {
    for (const FamilyDescriptor& family : table_->families) {
      if (!filter_->IsFamilyEssential(family.name)) return true;
    }
    return false;
  }
  for (const auto& [family, qualifiers] : spec_.read.columns.families()) {
    if (!filter_->IsFamilyEssential(family)) return true;
  }
  return false;
}

bool Scanner::FetchRow(RowBatch* out, Status* status) {
  for (;;) {
    if (filter_done_ && !SkipToNextRegion()) return false;
    if (spec_.reversed ? FetchRowReverse(out, status) : FetchRowForward(out, status)) return true;
    if (!status->ok() || !filter_done_) return false;
  }
}

// A filter that says nothing more can pass (PageFilter's count reached, WHILE) ends only the
// region scanner it runs in: HBase's client goes on with the next region, whose filter starts
// afresh (measured on HBase 2.6.1: PageFilter(1) over three regions returns three rows).
bool Scanner::SkipToNextRegion() {
  if (region_starts_.empty() || region_ == static_cast<size_t>(-1)) return false;
  if (!spec_.reversed) {
    if (region_ >= region_starts_.size()) return false;  // the last region
    const std::string& next = region_starts_[region_];
    if (next >= upper_) return false;
    it_->Seek(next);
  } else {
    if (region_ == 0) return false;  // the first region
    const std::string& start = region_starts_[region_ - 1];
    if (start <= lower_) return false;
    last_row_prefix_ = start;  // FetchRowReverse goes on below it
  }
  filter_done_ = false;
  return true;
}

bool Scanner::ReadOneRow(const std::string& row_key_prefix, RowBatch* out, Status* status) {
  const size_t rows = out->size();
  RowReader::RowOptions options = ReadOptions();
  options.hidden_tail = HiddenTailOut();
  *status = reader_->Read(it_.get(), row_key_prefix, options, out);
  if (row_open_) open_row_prefix_ = row_key_prefix;
  const bool visible = status->ok() && out->size() > rows && out->cell_count(rows) > 0;
  if (!visible && out->size() > rows) out->DropLastRow();
  return visible;
}

bool Scanner::FetchRowForward(RowBatch* out, Status* status) {
  if (!started_) {
    it_->Seek(lower_);
    started_ = true;
  }
  while (it_->Valid() && View(it_->key()) < std::string_view(upper_)) {
    const size_t n = RowKeyPrefixLength(View(it_->key()));
    if (n == 0) {
      *status = Status::Corruption("bad cell key in table " + table_->name.ToString());
      return false;
    }
    row_prefix_.assign(it_->key().data(), n);
    if (!BeforeRow(row_prefix_, status)) return false;
    if (ReadOneRow(row_prefix_, out, status)) return true;
    if (!status->ok() || filter_done_) return false;
  }
  *status = IteratorStatus(it_.get());
  return false;
}

bool Scanner::FetchRowReverse(RowBatch* out, Status* status) {
  if (!started_) {
    it_->Seek(upper_);
    if (it_->Valid()) {
      it_->Prev();
    } else {
      it_->SeekToLast();
    }
    started_ = true;
  } else {
    it_->Seek(last_row_prefix_);
    if (it_->Valid()) {
      it_->Prev();
    } else {
      it_->SeekToLast();
    }
  }
  while (it_->Valid() && View(it_->key()) >= std::string_view(lower_)) {
    const size_t n = RowKeyPrefixLength(View(it_->key()));
    if (n == 0) {
      *status = Status::Corruption("bad cell key in table " + table_->name.ToString());
      return false;
    }
    last_row_prefix_.assign(it_->key().data(), n);
    if (!BeforeRow(last_row_prefix_, status)) return false;
    it_->Seek(last_row_prefix_);
    if (ReadOneRow(last_row_prefix_, out, status)) return true;
    if (!status->ok() || filter_done_) return false;
    it_->Seek(last_row_prefix_);
    if (it_->Valid()) {
      it_->Prev();
    } else {
      it_->SeekToLast();
    }
  }
  *status = IteratorStatus(it_.get());
  return false;
}

}  // namespace hbemu::storage
