#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell.h"
#include "storage/key_format.h"
#include "storage/read_spec.h"
#include "storage/row_batch.h"
#include "storage/schema.h"
#include "storage/status.h"
#include "storage/visibility.h"

namespace leveldb {
class Iterator;
}  // namespace leveldb

namespace hbemu::storage {

// The one loop over a row's stored cells. Get, scans, read-modify-write, checkAndMutate and the
// flush all read rows through it: it drives a LevelDB iterator over the row's keys, feeds each
// cell to RowVisibility (the rules) and follows RowVisibility::SkipAhead, so a column's
// unwanted versions, unselected columns and families cost a seek, not a walk, in a scan as in
// a Get. With a filter it runs HBase's per-row filter protocol around the cells.
//
// One reader serves one read (a Get, a scanner, a flush) with one table, spec and clock reading;
// what it learnt about a family is kept from row to row. Not thread-safe.
class RowReader {
 public:
  // A read as `spec` asks. `table` and `spec` must outlive the reader. `row_bytes`: the most a
  // row-level filter's row may hold (StoreLimits::result_bytes).
  RowReader(const TableDescriptor* table, const ReadSpec* spec, int64_t now_ms,
            int64_t row_bytes);

  // A flush's reader: every column and every version over all time, judged as a flush judges
  // them (RowVisibility::Purpose::kFlush). `table` must outlive the reader.
  struct ForFlush {};
  RowReader(const TableDescriptor* table, int64_t now_ms, ForFlush);

  RowReader(const RowReader&) = delete;
  RowReader& operator=(const RowReader&) = delete;

  // How to read one row, besides what the reader was made with.
  struct RowOptions {
    // The read's own stateful filter instance, or null (the spec's filter is then ignored).
    // With one, HBase's per-row protocol runs: filterAllRemaining, filterRowKey, per-cell
    // decisions, filterRowCells / filterRow, reset. A row the filter drops comes back with no
    // cells.
    Filter* filter = nullptr;
    // Set when the filter ends the scan (after this row); the iterator is then left anywhere.
    // Required with a filter.
    bool* scan_done = nullptr;
    // When given, set when stored cells of the read's families that the read does not return
    // (markers, deleted or surplus versions, unselected columns) follow the row's last returned
    // cell: HBase's store scanner peeks at them to mark a batch piece partial.
    bool* hidden_tail = nullptr;
    // Leave the iterator at the first key after the row (a forward scan reads on from there).
    // Otherwise it is left anywhere at or after the row's last key read.
    bool end_after_row = false;
    // Nonzero: the read stops once it has appended this many cells and keys of the row are
    // left, setting *row_open (required then); Resume reads on from there. A batched scan
    // holds the pieces it returns next, not a row of any size. REQUIRES: no row-level filter
    // (filterRowCells needs the whole row; HBase refuses batch with one too).
    size_t max_cells = 0;
    bool* row_open = nullptr;
  };

  // Reads the visible cells of the row whose keys start with `row_key_prefix` (RowKeyPrefix),
  // starting at the iterator's position: the row's first key, or any key after the row (the
  // row has no cells). Appends the row to *out, with no cells when none is visible (on an error
  // it may be incomplete).
  Status Read(leveldb::Iterator* it, std::string_view row_key_prefix, const RowOptions& options,
              RowBatch* out);
  // Reads on in the row a Read or Resume with the same options left open, appending to the
  // last row of *out (which may have been emptied of the cells already taken). The iterator
  // must be where that call left it.
  Status Resume(leveldb::Iterator* it, std::string_view row_key_prefix, const RowOptions& options,
                RowBatch* out);
  // The same as a RowResult: sets out->row and appends the cells to out->cells.
  Status Read(leveldb::Iterator* it, std::string_view row_key_prefix, const RowOptions& options,
              RowResult* out);

  // The flush's view of the row at the iterator (as Read): appends to *dropped the keys of the
  // puts the flush does not keep (cells of families the table does not name are left alone:
  // a dropped family has its own sweep). Leaves the iterator at the first key after the row.
  // REQUIRES: made with ForFlush.
  Status ReadForFlush(leveldb::Iterator* it, std::string_view row_key_prefix,
                      std::vector<std::string>* dropped);

 private:
  // Walks the row's cells from the iterator's position into *sink, seeking past what cannot
  // matter unless `dropped` is given (a flush must see every put to delete it).
  // With max_cells, stops before a key of the row once that many cells went to the sink,
  // setting *paused. `resume` goes on with the state the paused walk left.
  Status ReadCells(leveldb::Iterator* it, std::string_view row_key_prefix, CellSink* sink,
                   bool* hidden_tail, bool end_after_row, std::vector<std::string>* dropped,
                   size_t max_cells = 0, bool* paused = nullptr, bool resume = false);
  // The end of a row's filter protocol (filterRow, filterAllRemaining, reset), once its last
  // cell was read.
  void FinishFilteredRow(const RowOptions& options, size_t row_index, RowBatch* out);
  // Moves the iterator to the first key at or after `target` (a key of the same row or the row
  // end), skipping the cells in between; sets *hidden_tail when one of them is of a read family.
  void SkipTo(leveldb::Iterator* it, const std::string& target, size_t row_key_prefix_size,
              bool* hidden_tail);
  // Skips the rest of the column whose key prefix is in column_, from its first skipped cell.
  void SkipColumn(leveldb::Iterator* it);
  // Sets *hidden_tail (may be null) when the first cell a skip passes is of a read family.
  void NoteSkipped(std::string_view first_skipped_key, size_t row_key_prefix_size,
                   bool* hidden_tail);
  // True when the read opens the family's store (HBase's heap only peeks into those).
  bool ReadsFamily(const std::string& family) const;
  // Whether a stored cell the read does not return, met after the last returned one, is one
  // HBase's store scanner would peek at (see tail_floor_).
  bool CountsForTail(const std::string& family, const std::string& qualifier) const;
  // Called after each returned cell: where the store scanner goes on from it.
  void NoteReturned(const ParsedCellKey& cell);

  const TableDescriptor* const table_;
  const ReadSpec* const spec_;
  const uint64_t row_bytes_ = 0;
  RowVisibility visibility_;  // Reset for each row
  // Scratch reused from row to row.
  ParsedCellKey parsed_[2];  // the cell being read and the one before it, by turns
  int current_ = 0;
  bool column_done_ = false;  // the last cell's column needs no later cell (Skip::kNextColumn)
  bool row_over_budget_ = false;  // a row-level filter's row passed row_bytes_
  ParsedCellKey skipped_;
  // After a returned cell that used up its named column's versions, HBase seeks to the next
  // named column of the family (or past the family's row): cells of tail_family_ before
  // tail_floor_ (all of them when it is unset) are never peeked at.
  bool tail_floor_active_ = false;
  std::string tail_family_;
  std::optional<std::string> tail_floor_;
  std::string suffix_;
  std::string column_;
  std::string target_;
  std::string row_scratch_;
  std::vector<Cell> row_cells_;
  RowBatch row_batch_;
};

}  // namespace hbemu::storage
