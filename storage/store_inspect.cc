// Store's read-only views for the admin console: LevelDB's own figures, and cells as stored.
// Kept apart from store.cc because nothing here decides HBase semantics.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include <leveldb/db.h>

#include "storage/key_format.h"
#include "storage/store.h"

namespace hbemu::storage {
namespace {

std::string_view View(const leveldb::Slice& s) { return std::string_view(s.data(), s.size()); }

Status IteratorStatus(const leveldb::Iterator* it) {
  const leveldb::Status s = it->status();
  return s.ok() ? Status::OK() : Status::IOError(s.ToString());
}

}  // namespace

bool Store::DbProperty(std::string_view name, std::string* value) const {
  return db_->GetProperty(leveldb::Slice(name.data(), name.size()), value);
}

Status Store::ApproximateTableBytes(std::string_view name, uint64_t* bytes) const {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(name, /*require_enabled=*/false, &table));
  const KeyRange range = TableCellRange(table->id);
  const leveldb::Range r(range.start, range.limit);
  db_->GetApproximateSizes(&r, 1, bytes);
  return Status::OK();
}

Status Store::ReadRawRows(std::string_view name, std::string_view start_row,
                          std::string_view prefix, std::string_view position,
                          const RawReadLimits& limits, RawPage* out) const {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(name, /*require_enabled=*/false, &table));
  out->cells.clear();
  out->next_position.clear();
  out->next_row.clear();
  const KeyRange range = TableCellRange(table->id);
  const std::string key_prefix = RowPrefixKeyPrefix(table->id, prefix);
  std::string start = std::max(RowKeyPrefix(table->id, start_row), key_prefix);
  if (!position.empty()) {
    // Every key of the table starts with range.start; a position is the rest of a cell's key.
    std::string at = range.start;
    at.append(position.data(), position.size());
    start = std::max(start, at);
  }
  leveldb::ReadOptions options;
  options.fill_cache = false;  // browsing must not evict what the clients read
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(options));
  ParsedCellKey parsed;
  size_t rows = 0;
  size_t bytes = 0;
  std::string current_row;
  for (it->Seek(start); it->Valid(); it->Next()) {
    const std::string_view key = View(it->key());
    if (key >= range.limit || key.compare(0, key_prefix.size(), key_prefix) != 0) break;
    if (!ParseCellKey(key, &parsed)) {
      return Status::Corruption("bad cell key in table " + table->name.ToString());
    }
    const bool new_row = rows == 0 || parsed.row != current_row;
    if (!out->cells.empty() &&
        ((new_row && rows == limits.max_rows) || out->cells.size() >= limits.max_cells ||
         bytes >= limits.max_bytes)) {
      out->next_position.assign(key.substr(range.start.size()));
      out->next_row = parsed.row;
      break;
    }
    if (new_row) {
      ++rows;
      current_row = parsed.row;
    }
    RawCell cell;
    cell.row = parsed.row;
    cell.family = parsed.family;
    cell.qualifier = parsed.qualifier;
    cell.timestamp = parsed.timestamp;
    cell.type = parsed.type;
    std::string_view value;
    if (DecodeCellValue(View(it->value()), &value, &cell.expires_at_ms)) {
      cell.value_size = value.size();
      cell.value = value.substr(0, limits.max_value_bytes);
    }
    bytes += cell.row.size() + cell.family.size() + cell.qualifier.size() + cell.value.size();
    out->cells.push_back(std::move(cell));
  }
  return IteratorStatus(it.get());
}

Status Store::ReadRawRows(std::string_view name, std::string_view start_row,
                          std::string_view prefix, size_t max_rows, size_t max_cells,
                          RawPage* out) const {
  RawReadLimits limits;
  limits.max_rows = max_rows;
  limits.max_cells = max_cells;
  limits.max_bytes = SIZE_MAX;
  limits.max_value_bytes = SIZE_MAX;
  return ReadRawRows(name, start_row, prefix, /*position=*/{}, limits, out);
}

std::string Store::RawPosition(const RawCell& cell) {
  // The table id is in the part every key of the table shares, which a position leaves out.
  const std::string key =
      CellKey(0, cell.row, cell.family, cell.qualifier, cell.timestamp, cell.type);
  return key.substr(TableCellRange(0).start.size());
}

Status Store::CountTable(std::string_view name, size_t max_cells, uint64_t* rows,
                         uint64_t* cells, bool* complete) const {
  std::shared_ptr<const TableDescriptor> table;
  HBEMU_RETURN_IF_ERROR(FindTable(name, /*require_enabled=*/false, &table));
  *rows = 0;
  *cells = 0;
  *complete = true;
  const KeyRange range = TableCellRange(table->id);
  leveldb::ReadOptions options;
  options.fill_cache = false;
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(options));
  std::string last_row_prefix;
  for (it->Seek(range.start); it->Valid(); it->Next()) {
    const std::string_view key = View(it->key());
    if (key >= range.limit) break;
    if (*cells == max_cells) {
      *complete = false;
      break;
    }
    ++*cells;
    const size_t row_prefix = RowKeyPrefixLength(key);
    if (row_prefix == 0) return Status::Corruption("bad cell key in table " + std::string(name));
    if (key.substr(0, row_prefix) != last_row_prefix) {
      ++*rows;
      last_row_prefix.assign(key.data(), row_prefix);
    }
  }
  return IteratorStatus(it.get());
}

}  // namespace hbemu::storage
