#pragma once

// The one place that owns hbase-emulator's on-disk format. Everything lives in a single
// LevelDB using the default bytewise comparator; every key starts with a one-byte keyspace
// tag. Integers are big-endian; variable-length parts use enc() from coding.h (escaped,
// terminated, order-preserving, prefix-free).
//
//   s + name                        -> system scalar: "format_version" (u32), "next_table_id" (u64),
//                                      "row_clock_horizon" (u64, clock_horizon.h; absent before
//                                      any server write ran ahead of the clock)
//   n + enc(namespace)              -> namespace record
//   t + enc(namespace) + enc(table) -> table id (u64)              [name index]
//   i + table_id(u64)               -> table record (schema.h)
//   g + table_id(u64)               -> empty: table dropped, cells still to sweep
//   h + table_id(u64) + enc(family) -> empty: family removed, its cells still to delete
//   p + enc(snapshot name)          -> snapshot record (snapshot_records.h); its cells are kept
//                                      as cell keys under table ids of their own, never live
//   r + table_id(u64) + enc(row) + enc(family) + enc(qualifier)
//     + (UINT64_MAX - timestamp)(u64) + type(u8)
//                                   -> cell value (EncodeCellValue), empty for markers
//
// Cell keys sort exactly as HBase orders cells: row, family, qualifier ascending (unsigned
// bytes, empty first), timestamp descending, then delete markers before puts.
//
// Bump kFormatVersion on any incompatible change; Store::Open refuses a mismatch.

#include <cstdint>
#include <string>
#include <string_view>

#include "storage/cell.h"

namespace hbemu::storage {

inline constexpr uint32_t kFormatVersion = 1;

inline constexpr char kSystemTag = 's';
inline constexpr char kNamespaceTag = 'n';
inline constexpr char kTableNameTag = 't';
inline constexpr char kTableInfoTag = 'i';
inline constexpr char kDroppedTableTag = 'g';
inline constexpr char kDroppedFamilyTag = 'h';
inline constexpr char kCellTag = 'r';
inline constexpr char kSnapshotTag = 'p';

std::string SystemKey(std::string_view name);
std::string NamespaceKey(std::string_view ns);
std::string NamespaceKeyPrefix();
std::string TableNameKey(std::string_view ns, std::string_view table);
std::string TableNamePrefix(std::string_view ns);  // all tables of one namespace
std::string TableInfoKey(uint64_t table_id);
std::string TableInfoPrefix();
std::string DroppedTableKey(uint64_t table_id);
std::string DroppedTablePrefix();
std::string DroppedFamilyKey(uint64_t table_id, std::string_view family);
std::string DroppedFamilyPrefix();
std::string SnapshotKey(std::string_view name);
std::string SnapshotPrefix();
bool ParseSnapshotKey(std::string_view key, std::string* name);
// The inverses of NamespaceKey, DroppedTableKey and DroppedFamilyKey.
bool ParseNamespaceKey(std::string_view key, std::string* ns);
bool ParseDroppedTableKey(std::string_view key, uint64_t* table_id);
bool ParseDroppedFamilyKey(std::string_view key, uint64_t* table_id, std::string* family);

// Half-open key range [start, limit) of LevelDB keys.
struct KeyRange {
  std::string start;
  std::string limit;
};

// Every cell of a table.
KeyRange TableCellRange(uint64_t table_id);
// r + id + enc(row): every key of one row starts with this and no key of another row does.
std::string RowKeyPrefix(uint64_t table_id, std::string_view row);
// r + id + esc(prefix): every key of every row starting with `prefix` starts with this.
std::string RowPrefixKeyPrefix(uint64_t table_id, std::string_view row_prefix);

std::string CellKey(uint64_t table_id, std::string_view row, std::string_view family,
                    std::string_view qualifier, int64_t timestamp, CellType type);
// Appends CellKey(...) to *dst: for writers that build many keys in one reused buffer.
void AppendCellKey(std::string* dst, uint64_t table_id, std::string_view row,
                   std::string_view family, std::string_view qualifier, int64_t timestamp,
                   CellType type);
// What follows RowKeyPrefix in every key of one family, and of one column.
std::string FamilyKeySuffix(std::string_view family);
std::string ColumnKeySuffix(std::string_view family, std::string_view qualifier);

// A decoded cell key. Parsing reuses the strings' capacity.
struct ParsedCellKey {
  uint64_t table_id = 0;
  std::string row;
  std::string family;
  std::string qualifier;
  int64_t timestamp = 0;
  CellType type = CellType::kPut;
};
bool ParseCellKey(std::string_view key, ParsedCellKey* out);
// Parses what follows the r + id + enc(row) prefix: family, qualifier, timestamp and type.
// Leaves out->table_id and out->row untouched.
bool ParseCellKeySuffix(std::string_view suffix, ParsedCellKey* out);

// Length of the r + id + enc(row) part at the front of a cell key, or 0 if malformed.
size_t RowKeyPrefixLength(std::string_view key);
// Length of a cell key without its timestamp and type: the front every version and marker of
// one column shares. REQUIRES: `cell_key` parses (ParseCellKey).
size_t ColumnKeyPrefixLength(std::string_view cell_key);
// The row key of a RowKeyPrefix. Most row keys hold no zero byte: their *row then points into
// `row_key_prefix` and nothing is copied; otherwise it is decoded into *scratch.
bool DecodeRowKeyPrefix(std::string_view row_key_prefix, std::string* scratch,
                        std::string_view* row);

// Cell values start with a tag byte so per-cell attributes can ride along with the value.
//   0x00 + value                              plain value
//   0x01 + expires_at_ms(u64) + value         value with a cell TTL (HBase "_ttl")
inline constexpr int64_t kNoExpiry = INT64_MAX;
void EncodeCellValue(std::string* dst, std::string_view value, int64_t expires_at_ms);
bool DecodeCellValue(std::string_view stored, std::string_view* value, int64_t* expires_at_ms);

}  // namespace hbemu::storage
