#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hbemu::storage {

// HBase's LATEST_TIMESTAMP: "no timestamp given", replaced by the server clock on write.
inline constexpr int64_t kLatestTimestamp = std::numeric_limits<int64_t>::max();

// Family TTL meaning "forever" (HBase's HConstants.FOREVER, in seconds).
inline constexpr int32_t kForeverTtl = std::numeric_limits<int32_t>::max();

// The kind of a stored cell. These values are written into every cell key: NEVER change or
// reuse them. Ascending byte order here equals HBase's descending type-code order, so at an
// equal timestamp every delete marker sorts before the put it covers.
enum class CellType : uint8_t {
  kDeleteFamily = 1,         // all columns of a family, ts <= marker (HBase code 14)
  kDeleteColumn = 2,         // all versions of a column, ts <= marker (12)
  kDeleteFamilyVersion = 3,  // all columns of a family, ts == marker (10)
  kDelete = 4,               // one version of a column, ts == marker (8)
  kPut = 5,                  // a value (4)
};

// HBase's KeyValue.Type code for a cell type.
uint8_t HBaseTypeCode(CellType type);
bool IsValidCellType(uint8_t byte);

// One visible cell as returned to readers.
struct Cell {
  std::string family;
  std::string qualifier;
  int64_t timestamp = 0;
  std::string value;
};

// The visible cells of one row, in HBase order: family, qualifier, newest version first.
// A scan with a batch limit can return one row as several RowResults with the same row key.
struct RowResult {
  std::string row;
  std::vector<Cell> cells;
  // More cells of this row follow in the next RowResult (a batch-split piece that is not the
  // last): HBase's Result.mayHaveMoreCellsInRow, Thrift2's TResult.partial.
  bool partial = false;
};

// Where a read puts the cells it sees, one at a time, in HBase order. The views are valid only
// during the call: a sink copies what it keeps. The scan path hands cells to a RowBatch
// (row_batch.h), one flat buffer, instead of building a Cell with three strings for each.
class CellSink {
 public:
  virtual ~CellSink() = default;
  virtual void Append(std::string_view family, std::string_view qualifier, int64_t timestamp,
                      std::string_view value) = 0;
  // The same for a cell the reader built anyway (a filter's transformed cell).
  virtual void AppendCell(Cell&& cell) {
    Append(cell.family, cell.qualifier, cell.timestamp, cell.value);
  }
};

// A sink that appends Cells to a vector, for reads whose results are kept as Cells.
class CellVectorSink final : public CellSink {
 public:
  explicit CellVectorSink(std::vector<Cell>* out) : out_(out) {}
  void Append(std::string_view family, std::string_view qualifier, int64_t timestamp,
              std::string_view value) override {
    out_->push_back(
        Cell{std::string(family), std::string(qualifier), timestamp, std::string(value)});
  }
  void AppendCell(Cell&& cell) override { out_->push_back(std::move(cell)); }

 private:
  std::vector<Cell>* const out_;
};

inline uint8_t HBaseTypeCode(CellType type) {
  switch (type) {
    case CellType::kDeleteFamily: return 14;
    case CellType::kDeleteColumn: return 12;
    case CellType::kDeleteFamilyVersion: return 10;
    case CellType::kDelete: return 8;
    case CellType::kPut: return 4;
  }
  return 0;
}

inline bool IsValidCellType(uint8_t byte) { return byte >= 1 && byte <= 5; }

}  // namespace hbemu::storage
