#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell.h"
#include "storage/status.h"

namespace hbemu::storage {

// One change to one row. Timestamps left at kLatestTimestamp get the server clock, the same
// reading for every part of one RowMutation (HBase gives one batch one "now"), or one past a
// column the server's own pace ran ahead of the clock (mutation_build.h WriteTime).
enum class MutationType {
  kPut,                  // value at (family, qualifier, timestamp)
  kDeleteColumn,         // all versions of the column with ts <= timestamp
  kDeleteVersion,        // the version at exactly timestamp; latest: the newest visible one
  kDeleteFamily,         // the whole family, ts <= timestamp
  kDeleteFamilyVersion,  // every column of the family at exactly timestamp (ts required)
  kDeleteRow,            // every family of the row, ts <= timestamp
};

struct ColumnMutation {
  MutationType type = MutationType::kPut;
  std::string family;
  std::string qualifier;
  int64_t timestamp = kLatestTimestamp;
  std::string value;
};

struct RowMutation {
  std::string row;
  std::vector<ColumnMutation> mutations;
  // HBase's per-mutation "_ttl" attribute, in ms; 0 for none. Applies to the puts.
  int64_t cell_ttl_ms = 0;
};

// Read-modify-write of one column (Store::Increment, Store::Append).
struct ColumnIncrement {
  std::string family;
  std::string qualifier;
  int64_t amount = 0;
};

struct ColumnAppend {
  std::string family;
  std::string qualifier;
  std::string value;
};

// The new value of read-modify-write column `index` from its newest visible cell (nullopt when
// absent); mutation_build.h makes them.
using NewValueFn =
    std::function<Status(size_t index, const std::optional<Cell>& old, std::string* value)>;

// RowMutation's meaning over borrowed bytes. A batch call's rows can then point into the
// request they were decoded from: a value is copied once, into the LevelDB write batch, and
// a batch of 1,000 rows costs no allocation per cell (mutateRows spent a third of its server
// time copying and freeing strings before).
struct ColumnMutationView {
  MutationType type = MutationType::kPut;
  std::string_view family;
  std::string_view qualifier;
  int64_t timestamp = kLatestTimestamp;
  std::string_view value;
};

struct RowMutationView {
  std::string_view row;
  const ColumnMutationView* begin = nullptr;
  const ColumnMutationView* end = nullptr;
  int64_t cell_ttl_ms = 0;

  bool empty() const { return begin == end; }
};

// Rows of column mutations, laid out flat and reusable from call to call. The bytes it points
// to must outlive it.
class MutationBatchView {
 public:
  void Clear() {
    rows_.clear();
    columns_.clear();
  }
  void Reserve(size_t rows, size_t columns) {
    rows_.reserve(rows);
    columns_.reserve(columns);
  }
  // Starts a row; the columns added next belong to it.
  void AddRow(std::string_view row, int64_t cell_ttl_ms = 0) {
    rows_.push_back(Row{row, columns_.size(), cell_ttl_ms});
  }
  void AddColumn(const ColumnMutationView& column) { columns_.push_back(column); }
  // A row of owned mutations, as a view.
  void Add(const RowMutation& row);

  size_t size() const { return rows_.size(); }
  bool empty() const { return rows_.empty(); }
  RowMutationView operator[](size_t i) const {
    const ColumnMutationView* base = columns_.data();
    const size_t end = i + 1 < rows_.size() ? rows_[i + 1].first : columns_.size();
    return RowMutationView{rows_[i].row, base + rows_[i].first, base + end, rows_[i].cell_ttl_ms};
  }

 private:
  struct Row {
    std::string_view row;
    size_t first;  // into columns_
    int64_t cell_ttl_ms;
  };
  std::vector<Row> rows_;
  std::vector<ColumnMutationView> columns_;
};

}  // namespace hbemu::storage
