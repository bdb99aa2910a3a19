// Console::Rows: the data browser's cells, page by page, within the admin limits.

#include <algorithm>

#include "server/admin/console.h"
#include "server/limits.h"
#include "storage/store.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

const char* CellTypeName(storage::CellType type) {
  switch (type) {
    case storage::CellType::kPut: return "Put";
    case storage::CellType::kDelete: return "Delete";
    case storage::CellType::kDeleteColumn: return "DeleteColumn";
    case storage::CellType::kDeleteFamily: return "DeleteFamily";
    case storage::CellType::kDeleteFamilyVersion: return "DeleteFamilyVersion";
  }
  return "Unknown";
}

// The big-endian signed long of an 8-byte value (HBase's Bytes.toLong), else null.
json LongOf(const std::string& value, size_t full_size) {
  if (value.size() != 8 || full_size != 8) return nullptr;
  uint64_t v = 0;
  for (unsigned char b : value) v = (v << 8) | b;
  return static_cast<int64_t>(v);
}

size_t LimitOf(int64_t Limits::*field, int64_t at_least) {
  return static_cast<size_t>(std::max(CurrentLimits().*field, at_least));
}

// Room kept for the page around the cells (header, style, form, notes, the next-page link's
// fixed part); what the request echoes back is added to it.
constexpr size_t kFrameBytes = 16 << 10;
// Hex and HTML escaping: the most one echoed byte becomes.
constexpr size_t kEchoExpansion = 6;

// Where the page ended, and why.
struct PageEnd {
  std::string position;  // the first cell not shown; empty when the scan is done
  std::string row;       // its row
  const char* by = nullptr;
};

}  // namespace

json Console::Rows(const std::string& name, const BrowseQuery& query,
                   const CellMeasure& measure) const {
  std::shared_ptr<const storage::TableDescriptor> table;
  if (!sources_.store->DescribeTable(name, &table).ok()) {
    throw RequestError{404, "no table named '" + ToStringBinary(name) + "'"};
  }
  std::string position;
  if (!HexDecode(query.cursor, &position)) {
    throw RequestError{400, "cursor must be the hex next_cursor of a page"};
  }
  const size_t value_bytes = LimitOf(&Limits::admin_value_bytes, 0);
  const size_t page_bytes = LimitOf(&Limits::admin_page_bytes, 0);
  storage::Store::RawReadLimits read;
  read.max_cells = LimitOf(&Limits::admin_page_cells, 1);
  read.max_rows = std::min(std::max<size_t>(query.limit, 1), read.max_cells);
  read.max_bytes = page_bytes;
  read.max_value_bytes = value_bytes;
  storage::Store::RawPage page;
  const storage::Status s =
      sources_.store->ReadRawRows(name, query.start, query.prefix, position, read, &page);
  if (!s.ok()) throw RequestError{500, s.ToString()};

  json j;
  j["table"] = table->name.ToString();
  j["start"] = query.start;
  j["prefix"] = query.prefix;
  j["limit"] = read.max_rows;
  j["markers"] = query.markers_only ? json("only") : json(query.markers);
  PageEnd end{page.next_position, page.next_row, nullptr};
  if (!end.position.empty()) {
    size_t rows_read = 0;
    for (size_t i = 0; i < page.cells.size(); ++i) {
      rows_read += i == 0 || page.cells[i].row != page.cells[i - 1].row;
    }
    end.by = page.cells.size() >= read.max_cells ? "admin_page_cells"
             : rows_read == read.max_rows && end.row != page.cells.back().row ? "limit"
                                                                              : "admin_page_bytes";
  }

  // The next page's link carries the cursor (twice the key, hex) and the query again.
  size_t used = kFrameBytes +
                kEchoExpansion * (query.start.size() + query.prefix.size() + query.cursor.size());
  json rows = json::array();
  json row;  // the row being filled, without its cells
  json cells = json::array();
  const std::string* row_key = nullptr;
  auto close_row = [&] {
    if (row_key == nullptr) return;
    row["cells"] = std::move(cells);
    rows.push_back(std::move(row));
    cells = json::array();
    row = json();
  };
  size_t shown = 0;
  for (const storage::Store::RawCell& c : page.cells) {
    const bool marker = c.type != storage::CellType::kPut;
    if (marker ? !query.markers : query.markers_only) continue;
    const bool first = row_key == nullptr || c.row != *row_key;
    json next_row;
    if (first) {
      const std::string key = Clip(c.row, value_bytes);
      next_row = {{"key", ToStringBinary(key)}, {"key_bytes", HexOf(key)},
                  {"key_length", c.row.size()}};
    }
    json cell;
    cell["family"] = ToStringBinary(Clip(c.family, value_bytes));
    cell["qualifier"] = ToStringBinary(Clip(c.qualifier, value_bytes));
    if (c.qualifier.size() > value_bytes) cell["qualifier_length"] = c.qualifier.size();
    cell["timestamp"] = c.timestamp;
    cell["date"] = UtcDate(c.timestamp);
    cell["type"] = CellTypeName(c.type);
    if (!marker) {
      cell["text"] = ToStringBinary(c.value);
      cell["hex"] = HexOf(c.value);
      cell["long"] = LongOf(c.value, c.value_size);
      cell["length"] = c.value_size;
      if (c.value.size() < c.value_size) cell["truncated"] = true;
    }
    if (c.expires_at_ms != INT64_MAX) cell["expires"] = UtcDate(c.expires_at_ms);
    const json& owner = first ? next_row : row;
    const size_t size = measure ? measure(owner, cell, first)
                                : PrettySize(cell, 4) + (first ? PrettySize(owner, 2) + 24 : 0);
    // At least one cell per page, so that following the cursor always moves on.
    if (shown > 0 && used + size > page_bytes) {
      end = {storage::Store::RawPosition(c), c.row, "admin_page_bytes"};
      break;
    }
    used += size;
    if (first) {
      close_row();
      row = std::move(next_row);
      row_key = &c.row;
    }
    cells.push_back(std::move(cell));
    ++shown;
  }
  close_row();
  j["rows"] = std::move(rows);
  if (!end.position.empty()) {
    // The next page starts at the first cell not shown: from its row when that starts a row
    // (a start row is text, in URLs and forms), and always by the cursor.
    const bool row_continues = !page.cells.empty() && row_key != nullptr && end.row == *row_key;
    if (!row_continues) {
      j["next_start"] = IsValidUtf8(end.row) ? json(end.row) : json(nullptr);
    }
    j["next_cursor"] = HexOf(end.position);
    j["row_continues"] = row_continues;
    j["ended_by"] = end.by;
  }
  return j;
}

}  // namespace hbemu::server::admin
