#include "storage/row_reader.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>

#include <leveldb/iterator.h>

#include "storage/coding.h"
#include "storage/key_format.h"
#include "storage/result_budget.h"

namespace hbemu::storage {
namespace {

Status IteratorStatus(const leveldb::Iterator* it) {
  const leveldb::Status s = it->status();
  if (s.ok()) return Status::OK();
  return s.IsCorruption() ? Status::Corruption(s.ToString()) : Status::IOError(s.ToString());
}

std::string_view View(const leveldb::Slice& s) { return std::string_view(s.data(), s.size()); }

bool StartsWith(std::string_view key, std::string_view prefix) {
  return key.size() >= prefix.size() && key.compare(0, prefix.size(), prefix) == 0;
}

// A read of every column and every version over all time: what a flush keeps is what this read
// sees (with the flush's marker rules).
const ReadSpec* FlushReadSpec() {
  static const ReadSpec* const spec = [] {
    auto* s = new ReadSpec();
    s->max_versions = std::numeric_limits<int32_t>::max();  // capped by each family's VERSIONS
    return s;
  }();
  return spec;
}

// A few Next() calls are cheaper than a Seek when the target is close (a column with one or
// two old versions, the next row of a scan); only a longer run of skipped cells pays for it.
constexpr int kNextsBeforeSeek = 4;

// Counts the cells handed on to `inner` (which may be null: counting only).
class CountingSink final : public CellSink {
 public:
  explicit CountingSink(CellSink* inner) : inner_(inner) {}
  void Append(std::string_view family, std::string_view qualifier, int64_t timestamp,
              std::string_view value) override {
    ++count_;
    if (inner_ != nullptr) inner_->Append(family, qualifier, timestamp, value);
  }
  void AppendCell(Cell&& cell) override {
    ++count_;
    if (inner_ != nullptr) inner_->AppendCell(std::move(cell));
  }
  size_t count() const { return count_; }

 private:
  CellSink* const inner_;
  size_t count_ = 0;
};

// Collects the cells of a row a row-level filter needs whole, within the result budget: past
// it, it stops collecting and sets *over (RowReader::ReadCells then stops the walk).
class BudgetedCellSink final : public CellSink {
 public:
  BudgetedCellSink(std::vector<Cell>* out, uint64_t limit, bool* over)
      : out_(out), limit_(limit), over_(over) {}
  void Append(std::string_view family, std::string_view qualifier, int64_t timestamp,
              std::string_view value) override {
    if (!Charge(family.size() + qualifier.size() + value.size())) return;
    out_->push_back(
        Cell{std::string(family), std::string(qualifier), timestamp, std::string(value)});
  }
  void AppendCell(Cell&& cell) override {
    if (!Charge(cell.family.size() + cell.qualifier.size() + cell.value.size())) return;
    out_->push_back(std::move(cell));
  }

 private:
  bool Charge(size_t bytes) {
    used_ += ResultBudget::kCellOverhead + bytes;
    if (used_ > limit_) *over_ = true;
    return !*over_;
  }
  std::vector<Cell>* const out_;
  const uint64_t limit_;
  bool* const over_;
  uint64_t used_ = 0;
};

}  // namespace

RowReader::RowReader(const TableDescriptor* table, const ReadSpec* spec, int64_t now_ms,
                     int64_t row_bytes)
    : table_(table),
      spec_(spec),
      row_bytes_(static_cast<uint64_t>(std::max<int64_t>(row_bytes, 0))),
      visibility_(table, spec, now_ms) {}

RowReader::RowReader(const TableDescriptor* table, int64_t now_ms, ForFlush)
    : table_(table),
      spec_(FlushReadSpec()),
      visibility_(table, FlushReadSpec(), now_ms, nullptr, {}, RowVisibility::Purpose::kFlush) {}

bool RowReader::ReadsFamily(const std::string& family) const {
  return spec_->columns.all() || spec_->columns.families().count(family) > 0;
}

Status RowReader::Read(leveldb::Iterator* it, std::string_view row_key_prefix,
                       const RowOptions& options, RowBatch* out) {
  std::string_view row;
  if (!DecodeRowKeyPrefix(row_key_prefix, &row_scratch_, &row)) {
    return Status::Corruption("bad row key in table " + table_->name.ToString());
  }
  out->BeginRow(row);
  const size_t row_index = out->size() - 1;
  Filter* const filter = options.filter;
  if (filter != nullptr) {
    // RegionScannerImpl: a finished filter ends the scan; filterRowKey may drop the row
    // before any of its cells is read (FilterWrapper checks filterAllRemaining first).
    if (filter->FilterAllRemaining()) {
      *options.scan_done = true;
      return Status::OK();
    }
    if (filter->FilterRowKey(row)) {
      if (filter->FilterAllRemaining()) *options.scan_done = true;
      filter->Reset();
      it->Seek(PrefixSuccessor(row_key_prefix));
      return IteratorStatus(it);
    }
  }
  // A row-level filter rewrites the row's cell list (filterRowCells): it gets Cells. Every
  // other read writes its cells straight into *out.
  const bool row_filter = filter != nullptr && filter->HasFilterRow();
  row_cells_.clear();
  // HBase's store scanner fails a row past hbase.table.max.rowsize; here the row a row-level
  // filter holds whole is bounded by result_bytes, as a multi-get's rows are.
  row_over_budget_ = false;
  BudgetedCellSink cell_sink(&row_cells_, row_bytes_, &row_over_budget_);
  visibility_.Reset(filter, row);
  bool paused = false;
  HBEMU_RETURN_IF_ERROR(ReadCells(it, row_key_prefix,
                                  row_filter ? static_cast<CellSink*>(&cell_sink) : out,
                                  options.hidden_tail, options.end_after_row, nullptr,
                                  row_filter ? 0 : options.max_cells, &paused));
  if (options.row_open != nullptr) *options.row_open = paused;
  if (filter == nullptr || paused) return Status::OK();
  if (row_over_budget_) {
    row_over_budget_ = false;
    const size_t cells = row_cells_.size();
    row_cells_.clear();
    row_cells_.shrink_to_fit();
    filter->Reset();
    return Status::RowTooBig(
        "Max row size allowed: " + std::to_string(row_bytes_) +
        ", but the row is bigger than that, the row info: " + std::string(row) +
        ", already have process row cells = " + std::to_string(cells) +
        " (a row-level filter reads its row whole, within the result_bytes limit; "
        "--limit result_bytes=N raises it)");
  }
  if (row_filter) {
    if (visibility_.filter_done()) *options.scan_done = true;
    // FilterWrapper.filterRowCellsWithRet: filterRow is asked only of a non-empty row.
    filter->FilterRowCells(&row_cells_);
    if (!row_cells_.empty() && filter->FilterRow()) row_cells_.clear();
    for (const Cell& c : row_cells_) out->Append(c.family, c.qualifier, c.timestamp, c.value);
    if (filter->FilterAllRemaining()) *options.scan_done = true;
    filter->Reset();
    return Status::OK();
  }
  FinishFilteredRow(options, row_index, out);
  return Status::OK();
}

Status RowReader::Resume(leveldb::Iterator* it, std::string_view row_key_prefix,
                         const RowOptions& options, RowBatch* out) {
  bool paused = false;
  HBEMU_RETURN_IF_ERROR(ReadCells(it, row_key_prefix, out, options.hidden_tail,
                                  options.end_after_row, nullptr, options.max_cells, &paused,
                                  /*resume=*/true));
  *options.row_open = paused;
  if (options.filter != nullptr && !paused) FinishFilteredRow(options, out->size() - 1, out);
  return Status::OK();
}

void RowReader::FinishFilteredRow(const RowOptions& options, size_t row_index, RowBatch* out) {
  Filter* const filter = options.filter;
  if (visibility_.filter_done()) *options.scan_done = true;
  if (out->cell_count(row_index) > 0 && filter->FilterRow()) out->TruncateLastRow(0);
  // A filter that is done before reset (ColumnCountGetFilter past its limit) ends the scan:
  // HBase's store scanner asks filterAllRemaining at the next row's first cell, before the
  // region scanner resets the filter.
  if (filter->FilterAllRemaining()) *options.scan_done = true;
  filter->Reset();
}

Status RowReader::Read(leveldb::Iterator* it, std::string_view row_key_prefix,
                       const RowOptions& options, RowResult* out) {
  if (options.filter != nullptr) {
    // The filter protocol works on the RowBatch form; a filtered Get converts its one row.
    row_batch_.Clear();
    const Status status = Read(it, row_key_prefix, options, &row_batch_);
    if (row_batch_.empty()) return status;
    RowResult read = row_batch_.ToRowResult(0);
    out->row = std::move(read.row);
    out->cells.insert(out->cells.end(), std::make_move_iterator(read.cells.begin()),
                      std::make_move_iterator(read.cells.end()));
    return status;
  }
  std::string_view row;
  if (!DecodeRowKeyPrefix(row_key_prefix, &row_scratch_, &row)) {
    return Status::Corruption("bad row key in table " + table_->name.ToString());
  }
  out->row.assign(row.data(), row.size());
  visibility_.Reset(nullptr, row);
  CellVectorSink sink(&out->cells);
  return ReadCells(it, row_key_prefix, &sink, options.hidden_tail, options.end_after_row,
                   nullptr);
}

Status RowReader::ReadForFlush(leveldb::Iterator* it, std::string_view row_key_prefix,
                               std::vector<std::string>* dropped) {
  visibility_.Reset(nullptr, {});
  return ReadCells(it, row_key_prefix, nullptr, nullptr, true, dropped);
}

Status RowReader::ReadCells(leveldb::Iterator* it, std::string_view row_key_prefix,
                            CellSink* sink, bool* hidden_tail, bool end_after_row,
                            std::vector<std::string>* dropped, size_t max_cells, bool* paused,
                            bool resume) {
  // Whether a cell was returned matters only to the hidden tail, to a pause and to the flush.
  CountingSink counter(sink);
  CellSink* const target =
      hidden_tail != nullptr || dropped != nullptr || max_cells > 0 ? &counter : sink;
  if (!resume) {
    tail_floor_active_ = false;
    // Most often the next cell is another column's already; only a surplus version costs a
    // skip, told from its parsed key.
    column_done_ = false;
  }
  bool& column_done = column_done_;
  while (it->Valid()) {
    const std::string_view key = View(it->key());
    if (!StartsWith(key, row_key_prefix)) break;
    if (max_cells > 0 && counter.count() >= max_cells) {
      *paused = true;
      return Status::OK();
    }
    if (row_over_budget_) break;  // the row is refused whole: no need to read on
    const ParsedCellKey& last = parsed_[current_];
    current_ ^= 1;
    ParsedCellKey& cell = parsed_[current_];
    if (!ParseCellKeySuffix(key.substr(row_key_prefix.size()), &cell)) {
      return Status::Corruption("bad cell key in table " + table_->name.ToString());
    }
    if (column_done && cell.qualifier == last.qualifier && cell.family == last.family) {
      if (hidden_tail != nullptr && CountsForTail(cell.family, cell.qualifier)) {
        *hidden_tail = true;
      }
      column_.assign(key.data(), ColumnKeyPrefixLength(key));
      SkipColumn(it);
      continue;
    }
    column_done = false;
    const size_t before = counter.count();
    visibility_.Add(cell.family, cell.qualifier, cell.timestamp, cell.type, View(it->value()),
                    target);
    const bool returned = counter.count() != before;
    if (hidden_tail != nullptr) {
      if (returned) {
        *hidden_tail = false;
        NoteReturned(cell);
      } else if (CountsForTail(cell.family, cell.qualifier)) {
        *hidden_tail = true;
      }
    }
    if (dropped != nullptr) {
      // The flush deletes what it does not keep, so it must meet every put.
      if (!returned && cell.type == CellType::kPut &&
          table_->FindFamily(cell.family) != nullptr) {
        dropped->emplace_back(key);
      }
      it->Next();
      continue;
    }
    if (visibility_.filter_done()) break;
    switch (visibility_.SkipAhead(&suffix_)) {
      case RowVisibility::Skip::kNone:
        it->Next();
        break;
      case RowVisibility::Skip::kNextColumn:
        column_done = true;
        it->Next();
        break;
      case RowVisibility::Skip::kSeek:
        target_.assign(row_key_prefix.data(), row_key_prefix.size()).append(suffix_);
        SkipTo(it, target_, row_key_prefix.size(), hidden_tail);
        break;
      case RowVisibility::Skip::kRowDone:
        if (end_after_row || hidden_tail != nullptr) {
          target_ = PrefixSuccessor(row_key_prefix);
          SkipTo(it, target_, row_key_prefix.size(), hidden_tail);
        }
        return IteratorStatus(it);
    }
  }
  return IteratorStatus(it);
}

void RowReader::SkipTo(leveldb::Iterator* it, const std::string& target,
                       size_t row_key_prefix_size, bool* hidden_tail) {
  for (int i = 0; i < kNextsBeforeSeek; ++i) {
    it->Next();
    if (!it->Valid()) return;
    const std::string_view key = View(it->key());
    if (key >= target) return;
    if (i == 0) NoteSkipped(key, row_key_prefix_size, hidden_tail);
  }
  it->Seek(target);
}

// The iterator stands at the first skipped cell of the column: a few Nexts, then a Seek.
void RowReader::SkipColumn(leveldb::Iterator* it) {
  for (int i = 1; i < kNextsBeforeSeek; ++i) {
    it->Next();
    if (!it->Valid() || !StartsWith(View(it->key()), column_)) return;
  }
  target_ = PrefixSuccessor(column_);
  it->Seek(target_);
}

// A skip passes the rest of the current column or family, then only families the read does not
// open: whether any skipped cell was hidden from a read family is up to the first one.
void RowReader::NoteSkipped(std::string_view first_skipped_key, size_t row_key_prefix_size,
                            bool* hidden_tail) {
  if (hidden_tail != nullptr && !*hidden_tail &&
      ParseCellKeySuffix(first_skipped_key.substr(row_key_prefix_size), &skipped_) &&
      CountsForTail(skipped_.family, skipped_.qualifier)) {
    *hidden_tail = true;
  }
}

void RowReader::NoteReturned(const ParsedCellKey& cell) {
  const std::set<std::string>* named = visibility_.selected_qualifiers();
  tail_floor_active_ = named != nullptr && visibility_.column_versions_full();
  if (!tail_floor_active_) return;
  tail_family_ = cell.family;
  const auto next = named->upper_bound(cell.qualifier);
  if (next == named->end()) {
    tail_floor_.reset();
  } else {
    tail_floor_ = *next;
  }
}

bool RowReader::CountsForTail(const std::string& family, const std::string& qualifier) const {
  if (tail_floor_active_ && family == tail_family_) {
    return tail_floor_.has_value() && qualifier >= *tail_floor_;
  }
  return ReadsFamily(family);
}

}  // namespace hbemu::storage
