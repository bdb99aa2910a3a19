#include "storage/row_batch.h"

#include <cassert>

namespace hbemu::storage {

std::string_view RowBatch::row_key(size_t row) const {
  const RowEntry& r = rows_[row];
  return std::string_view(bytes_.data() + r.key_offset, r.key_size);
}

RowBatch::CellRef RowBatch::cell(size_t row, size_t i) const {
  const CellEntry& c = cells_[rows_[row].first_cell + i];
  const char* p = bytes_.data() + c.offset;
  return CellRef{std::string_view(p, c.family_size),
                 std::string_view(p + c.family_size, c.qualifier_size), c.timestamp,
                 std::string_view(p + c.family_size + c.qualifier_size, c.value_size)};
}

void RowBatch::Clear() {
  bytes_.clear();
  cells_.clear();
  rows_.clear();
}

size_t RowBatch::capacity_bytes() const {
  return bytes_.capacity() + cells_.capacity() * sizeof(CellEntry) +
         rows_.capacity() * sizeof(RowEntry);
}

void RowBatch::BeginRow(std::string_view key) {
  rows_.push_back(RowEntry{bytes_.size(), key.size(), cells_.size(), 0, false});
  bytes_.append(key.data(), key.size());
}

void RowBatch::Append(std::string_view family, std::string_view qualifier, int64_t timestamp,
                      std::string_view value) {
  assert(!rows_.empty());
  cells_.push_back(CellEntry{bytes_.size(), family.size(), qualifier.size(), value.size(),
                             timestamp});
  bytes_.append(family.data(), family.size());
  bytes_.append(qualifier.data(), qualifier.size());
  bytes_.append(value.data(), value.size());
  ++rows_.back().cell_count;
}

void RowBatch::TruncateLastRow(size_t keep) {
  RowEntry& r = rows_.back();
  if (keep >= r.cell_count) return;
  const size_t first_dropped = r.first_cell + keep;
  bytes_.resize(cells_[first_dropped].offset);
  cells_.resize(first_dropped);
  r.cell_count = keep;
}

void RowBatch::DropLastRow() {
  const RowEntry& r = rows_.back();
  bytes_.resize(r.key_offset);
  cells_.resize(r.first_cell);
  rows_.pop_back();
}

void RowBatch::AppendPiece(const RowBatch& from, size_t row, size_t first, size_t count,
                           bool partial) {
  assert(&from != this);
  BeginRow(from.row_key(row));
  rows_.back().partial = partial;
  for (size_t i = first; i < first + count; ++i) {
    const CellRef c = from.cell(row, i);
    Append(c.family, c.qualifier, c.timestamp, c.value);
  }
}

RowResult RowBatch::ToRowResult(size_t row) const {
  RowResult out;
  out.row = std::string(row_key(row));
  out.partial = partial(row);
  out.cells.reserve(cell_count(row));
  for (size_t i = 0; i < cell_count(row); ++i) {
    const CellRef c = cell(row, i);
    out.cells.push_back(
        Cell{std::string(c.family), std::string(c.qualifier), c.timestamp, std::string(c.value)});
  }
  return out;
}

void RowBatch::AppendRowResult(const RowResult& row) {
  BeginRow(row.row);
  rows_.back().partial = row.partial;
  for (const Cell& c : row.cells) Append(c.family, c.qualifier, c.timestamp, c.value);
}

}  // namespace hbemu::storage
