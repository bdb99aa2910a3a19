#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell.h"
#include "storage/read_spec.h"
#include "storage/row_batch.h"
#include "storage/row_reader.h"
#include "storage/schema.h"
#include "storage/status.h"

namespace leveldb {
class DB;
class Iterator;
class Snapshot;
}  // namespace leveldb

namespace hbemu::storage {

// An open scan over one table, reading from the LevelDB snapshot taken when it was opened.
// Rows with no visible cells are skipped. Created by Store::OpenScanner.
//
// Not thread-safe: one caller at a time (the server's scanner registry serialises calls).
// About the memory a kept scan request holds (row bounds, the columns it names, its filter tree),
// for the scanner_bytes budget (storage/memory_size.h).
size_t ScanSpecBytes(const ScanSpec& spec);

class Scanner {
 public:
  // `row_bytes`: StoreLimits::result_bytes (see RowReader).
  Scanner(leveldb::DB* db, std::shared_ptr<const TableDescriptor> table, ScanSpec spec,
          int64_t now_ms, int64_t row_bytes);
  ~Scanner();
  Scanner(const Scanner&) = delete;
  Scanner& operator=(const Scanner&) = delete;

  // Appends up to `max_results` results to *out as rows. Fewer (possibly none) means the
  // scan is exhausted (or its row limit reached); later calls return none. A batch-split piece
  // that is not its row's last has `partial` set.
  Status Next(size_t max_results, RowBatch* out);
  // The same, as RowResults.
  Status Next(size_t max_results, std::vector<RowResult>* out);

  // Memory the scanner keeps between calls, for the scanner_bytes budget: its state, its copy of
  // the spec and its filter instance (ScanSpecBytes), and the rows it has read ahead (a batched
  // scan's pieces).
  size_t HeldBytes() const;

 private:
  // True when the filter leaves a scanned family to be loaded on demand (HBase's joined heap).
  bool LoadsFamiliesOnDemand() const;
  // Appends the next row with visible cells to *out. False when the scan is exhausted.
  bool FetchRow(RowBatch* out, Status* status);
  // After the filter ended the scan in this region: moves to the next region in the scan's
  // direction, if any is in range. False when there is none.
  bool SkipToNextRegion();
  bool FetchRowForward(RowBatch* out, Status* status);
  bool FetchRowReverse(RowBatch* out, Status* status);
  // Reads the row at `row_key_prefix` into *out; true when it has visible cells (else it is
  // not left in *out).
  bool ReadOneRow(const std::string& row_key_prefix, RowBatch* out, Status* status);
  // Where the reader reports the row's hidden tail: only batched scans need it.
  bool* HiddenTailOut();
  // How the reader reads a row for this scan (hidden_tail left to the caller).
  RowReader::RowOptions ReadOptions();
  // Batched scans: reads on in pending_'s row, when the reader left it open, until `wanted`
  // cells not yet returned are held or the row ends. Cells already returned are dropped first.
  Status FillPending(size_t wanted);
  // Whether the scan returns another row after pending_'s, reading it ahead into lookahead_.
  // HBase's client leaves a row's last batch piece unmarked when the scan ends with it, even
  // if the region server peeked at hidden cells after it (measured on HBase 2.6.1).
  bool MoreRowsFollow(Status* status);
  // Called with each row's key prefix before it is read; false, with *status set, when the scan
  // must end there because the server is stopping (storage/cancel.h). HBase runs a scan region by
  // region, each region scanner with its own copy of the filter: on entering another region the
  // filter starts afresh (a PageFilter counts from 0 again,
  // docs/hbase-semantics.md#the-19-filters). The scanner's one instance is restarted, not cloned
  // again.
  bool BeforeRow(std::string_view row_key_prefix, Status* status);

  leveldb::DB* const db_;
  const std::shared_ptr<const TableDescriptor> table_;
  const ScanSpec spec_;
  const int64_t now_ms_;
  const int64_t row_bytes_;
  const leveldb::Snapshot* snapshot_;
  std::unique_ptr<leveldb::Iterator> it_;
  std::string lower_;  // inclusive key bound
  std::string upper_;  // exclusive key bound
  bool started_ = false;
  bool exhausted_ = false;
  std::string row_prefix_;       // the current row's key prefix (forward scans)
  std::string last_row_prefix_;  // reverse scans resume before this row
  // With a batch limit, the row being returned in pieces (one row at most), and how many of
  // its cells held there have been returned. It holds a batch and one cell more at a time
  // (enough to tell whether a piece is partial), read as the pieces go out: a batched scan over
  // a row of any size holds about one piece.
  RowBatch pending_;
  size_t pending_pos_ = 0;
  RowBatch pending_scratch_;  // FillPending's copy of the cells not yet returned
  // The row read last (pending_'s, or lookahead_'s) has keys left to read, from the iterator's
  // position; open_row_prefix_ is its key prefix.
  bool row_open_ = false;
  std::string open_row_prefix_;
  std::unique_ptr<Filter> filter_;  // this scan's own instance of spec_.read.filter (one clone)
  std::unique_ptr<RowReader> reader_;  // reused from row to row
  bool filter_done_ = false;  // the filter ended the scan in this region (SkipToNextRegion)
  std::vector<std::string> region_starts_;  // RowKeyPrefix of each split key, ascending
  size_t region_ = static_cast<size_t>(-1);  // index of the region being read; none yet
  int64_t rows_fetched_ = 0;  // rows with visible cells so far, against spec_.limit
  bool pending_hidden_tail_ = false;  // pending_'s row has hidden cells after its last one
  // The row after pending_'s, read ahead to tell whether the scan goes on after it (see
  // MoreRowsFollow): valid while lookahead_ready_.
  RowBatch lookahead_;
  bool lookahead_ready_ = false;
  bool lookahead_found_ = false;
  bool lookahead_hidden_tail_ = false;
};

}  // namespace hbemu::storage
