#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storage/cell.h"
#include "storage/mutation.h"
#include "storage/read_spec.h"
#include "storage/row_clock.h"
#include "storage/schema.h"
#include "storage/status.h"

namespace leveldb {
class WriteBatch;
}  // namespace leveldb

namespace hbemu::storage {

// The newest timestamp a write gets. HBase's LATEST_TIMESTAMP (INT64_MAX) means "now" on the
// way in, and every read range here ends before it ([min, max) with max <= INT64_MAX), so
// nothing is stored there: where HBase would date an increment or append INT64_MAX (over a
// cell at INT64_MAX - 1), it is dated INT64_MAX - 1 (COMPATIBILITY.md, Judgement calls).
inline constexpr int64_t kNewestWriteTimestamp = kLatestTimestamp - 1;

Status NoSuchFamily(const TableDescriptor& table, std::string_view family);

// How the server dates one row's writes that carry no timestamp of their own.
struct WriteTime {
  int64_t now = 0;                    // the call's wall-clock time: one "now" per call
  const ClockMarks* ahead = nullptr;  // the row's marks (row_clock.h); null when it has none
  // checkAndMutate: the puts land no earlier than the cell they were checked against, even a
  // future-dated one (HRegion.checkAndMutate since HBASE-14070).
  int64_t min_put_ts = 0;
  // The checked cell was dated ahead of the clock by the server's own pace (it is covered by a
  // mark): a put raised to it is then ahead for the same reason and becomes a mark too, so a
  // later server-dated delete of that column still lands above it.
  bool min_put_ts_is_mark = false;
  // The clock is stopped (Clock::stopped): a server-dated write at `now` itself counts as ahead
  // of the clock, so the next server-dated write of that column goes one past it. Time that
  // stands still would otherwise date a put, a delete and a put again all at one millisecond,
  // where the delete masks the second put; in HBase time moves on between calls.
  bool stopped = false;

  // Marks at or below this say nothing: the newest timestamp not ahead of the clock.
  int64_t MarkFloor() const { return stopped ? now - 1 : now; }
  bool Ahead(int64_t ts) const { return ts > MarkFloor(); }

  // The date of a server-dated write whose newest covering mark is `mark` (ClockMarks::kNone
  // for none): `now`, or one past the mark while the mark is not behind `now`.
  int64_t After(int64_t mark) const;
};

// Reads one row as it is before the mutation: a "delete latest version" marks the n-th newest
// visible version of its column (docs/hbase-semantics.md#marker-timestamps).
using RowRead =
    std::function<Status(std::string_view row, const ReadSpec& spec, RowResult* out)>;

// Turns row mutations into LevelDB writes: HBase's checks, server timestamps and the cell
// encoding (key_format.h). One per call, reused across its rows.
class MutationBuilder {
 public:
  // `max_cell_bytes`: StoreLimits::cell_bytes.
  MutationBuilder(const TableDescriptor& table, RowRead read, int64_t max_cell_bytes,
                  leveldb::WriteBatch* batch);

  // The checks that can reject a row mutation without reading the row.
  Status Validate(const RowMutationView& m) const;
  // Validates `m` and appends its cells; everything that can reject the row is checked first,
  // so a rejected row leaves nothing in a batch shared with other rows (unless the read of a
  // "delete latest version" failed midway). *dated (cleared first) gets a mark for each
  // server-dated cell put ahead of time.now (row_clock.h). REQUIRES: the row lock is held.
  Status Add(const RowMutationView& m, const WriteTime& time, ClockMarks* dated);

 private:
  void Put(std::string_view row, std::string_view family, std::string_view qualifier,
           int64_t ts, CellType type);

  const TableDescriptor& table_;
  RowRead read_;
  int64_t max_cell_bytes_;
  leveldb::WriteBatch* batch_;
  std::string key_;    // scratch, reused across cells and rows
  std::string value_;  // scratch
};

// ---- Increment and Append: read the newest visible cell of each column, write its successor.

// The timestamp of a read-modify-write of one column: HRegion.reckonDelta's max(now, old + 1),
// then past the column's mark (`mark`, ClockMarks::kNone for none). `*mark_it` says whether the
// server's own pace put it ahead of the clock, i.e. the chain did not start from a cell the
// client dated in the future: only then do later server-dated writes go past it.
int64_t ReadModifyWriteTimestamp(const WriteTime& time, int64_t mark,
                                 const std::optional<int64_t>& old_ts, bool* mark_it);

// 8-byte big-endian counters; a missing cell counts as 0; sums wrap as Java longs.
NewValueFn IncrementBy(const std::vector<ColumnIncrement>& increments);
// Old bytes + new; a missing cell counts as empty.
NewValueFn AppendTo(const std::vector<ColumnAppend>& appends);

// One read-modify-write of `columns` of a row whose newest visible cells of those columns are
// `current`: appends the new cells to *batch and returns them in *result, sorted by column as
// HBase's Result. *dated as for MutationBuilder::Add. REQUIRES: the row lock is held.
Status BuildReadModifyWrite(const TableDescriptor& table, std::string_view row,
                            const std::vector<std::pair<std::string, std::string>>& columns,
                            const RowResult& current, const NewValueFn& new_value,
                            const WriteTime& time, int64_t max_cell_bytes,
                            leveldb::WriteBatch* batch, std::vector<Cell>* result,
                            ClockMarks* dated);

}  // namespace hbemu::storage
