#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell.h"

namespace hbemu::storage {

// Rows of visible cells in one flat, reusable buffer: what a scan hands to the server on its
// fast path. Every row key, family, qualifier and value is copied once into one byte buffer,
// and Clear() keeps the capacity, so a warmed-up batch costs no allocation per row or cell
// (a RowResult costs a vector per row and a string per value; building and freeing them was a
// visible part of a full scan's server time). As a CellSink, RowVisibility writes into it.
//
// Rows keep the order they were added in, cells within a row the order the sink received
// them. Views returned by the accessors stay valid until the batch is next changed.
//
// Not thread-safe.
class RowBatch final : public CellSink {
 public:
  struct CellRef {
    std::string_view family;
    std::string_view qualifier;
    int64_t timestamp;
    std::string_view value;
  };

  // Rows in the batch.
  size_t size() const { return rows_.size(); }
  bool empty() const { return rows_.empty(); }
  std::string_view row_key(size_t row) const;
  size_t cell_count(size_t row) const { return rows_[row].cell_count; }
  CellRef cell(size_t row, size_t i) const;
  // More cells of this row follow in the next row of the same key (RowResult::partial).
  bool partial(size_t row) const { return rows_[row].partial; }
  void set_partial(size_t row, bool partial) { rows_[row].partial = partial; }

  // Bytes of the row keys, families, qualifiers and values held: about what a reply of these
  // rows carries, for a caller that bounds a reply's size.
  size_t data_bytes() const { return bytes_.size(); }

  // Empties the batch, keeping its memory.
  void Clear();
  // Bytes of memory held, so a caller that keeps a batch across calls can give back one that
  // grew for an unusually large result.
  size_t capacity_bytes() const;

  // Starts a row with no cells; Append adds cells to the last row started.
  void BeginRow(std::string_view key);
  // CellSink. REQUIRES: a row was started.
  void Append(std::string_view family, std::string_view qualifier, int64_t timestamp,
              std::string_view value) override;
  // Keeps the first `keep` cells of the last row (a row a filter drops keeps 0).
  void TruncateLastRow(size_t keep);
  // Removes the last row and its cells.
  void DropLastRow();
  // Appends a row made of cells [first, first + count) of `from`'s row `row`.
  void AppendPiece(const RowBatch& from, size_t row, size_t first, size_t count, bool partial);

  // The RowResult form of one row, for callers that keep Cells.
  RowResult ToRowResult(size_t row) const;
  // Appends a RowResult as a row.
  void AppendRowResult(const RowResult& row);

 private:
  // Family, qualifier and value sit back to back in bytes_ from `offset`.
  struct CellEntry {
    size_t offset;
    size_t family_size;
    size_t qualifier_size;
    size_t value_size;
    int64_t timestamp;
  };
  struct RowEntry {
    size_t key_offset;
    size_t key_size;
    size_t first_cell;
    size_t cell_count;
    bool partial;
  };

  std::string bytes_;
  std::vector<CellEntry> cells_;
  std::vector<RowEntry> rows_;
};

}  // namespace hbemu::storage
