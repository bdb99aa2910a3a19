#include "storage/key_format.h"

#include "storage/coding.h"

namespace hbemu::storage {
namespace {

// Tag byte plus a big-endian table id: the front of every per-table key.
constexpr size_t kTaggedIdLength = 1 + 8;
// Inverted timestamp plus type byte: the end of every cell key.
constexpr size_t kCellKeyTailLength = 8 + 1;

std::string Tagged(char tag) { return std::string(1, tag); }

// Reads the table id of a TaggedId(tag, id) prefix of *key and advances *key past it.
bool GetTaggedId(std::string_view* key, char tag, uint64_t* id) {
  if (key->size() < kTaggedIdLength || (*key)[0] != tag) return false;
  *id = DecodeFixed64BE(key->data() + 1);
  key->remove_prefix(kTaggedIdLength);
  return true;
}

std::string TaggedId(char tag, uint64_t id) {
  std::string key(1, tag);
  PutFixed64BE(&key, id);
  return key;
}

}  // namespace

std::string SystemKey(std::string_view name) { return Tagged(kSystemTag).append(name); }

std::string NamespaceKey(std::string_view ns) {
  std::string key = Tagged(kNamespaceTag);
  PutEscapedTerminated(&key, ns);
  return key;
}
std::string NamespaceKeyPrefix() { return Tagged(kNamespaceTag); }

bool ParseNamespaceKey(std::string_view key, std::string* ns) {
  if (key.empty() || key[0] != kNamespaceTag) return false;
  key.remove_prefix(1);
  return GetEscapedTerminated(&key, ns) && key.empty();
}

std::string TableNameKey(std::string_view ns, std::string_view table) {
  std::string key = TableNamePrefix(ns);
  PutEscapedTerminated(&key, table);
  return key;
}

std::string TableNamePrefix(std::string_view ns) {
  std::string key = Tagged(kTableNameTag);
  PutEscapedTerminated(&key, ns);
  return key;
}

std::string TableInfoKey(uint64_t table_id) { return TaggedId(kTableInfoTag, table_id); }
std::string TableInfoPrefix() { return Tagged(kTableInfoTag); }
std::string DroppedTableKey(uint64_t table_id) { return TaggedId(kDroppedTableTag, table_id); }
std::string DroppedTablePrefix() { return Tagged(kDroppedTableTag); }

bool ParseDroppedTableKey(std::string_view key, uint64_t* table_id) {
  return GetTaggedId(&key, kDroppedTableTag, table_id) && key.empty();
}

std::string DroppedFamilyKey(uint64_t table_id, std::string_view family) {
  std::string key = TaggedId(kDroppedFamilyTag, table_id);
  PutEscapedTerminated(&key, family);
  return key;
}
std::string DroppedFamilyPrefix() { return Tagged(kDroppedFamilyTag); }

bool ParseDroppedFamilyKey(std::string_view key, uint64_t* table_id, std::string* family) {
  return GetTaggedId(&key, kDroppedFamilyTag, table_id) && GetEscapedTerminated(&key, family) &&
         key.empty();
}

std::string SnapshotKey(std::string_view name) {
  std::string key = Tagged(kSnapshotTag);
  PutEscapedTerminated(&key, name);
  return key;
}
std::string SnapshotPrefix() { return Tagged(kSnapshotTag); }

bool ParseSnapshotKey(std::string_view key, std::string* name) {
  if (key.empty() || key[0] != kSnapshotTag) return false;
  key.remove_prefix(1);
  return GetEscapedTerminated(&key, name) && key.empty();
}

KeyRange TableCellRange(uint64_t table_id) {
  return KeyRange{TaggedId(kCellTag, table_id), TaggedId(kCellTag, table_id + 1)};
}

std::string RowKeyPrefix(uint64_t table_id, std::string_view row) {
  std::string key = TaggedId(kCellTag, table_id);
  PutEscapedTerminated(&key, row);
  return key;
}

std::string RowPrefixKeyPrefix(uint64_t table_id, std::string_view row_prefix) {
  std::string key = TaggedId(kCellTag, table_id);
  PutEscaped(&key, row_prefix);
  return key;
}

std::string CellKey(uint64_t table_id, std::string_view row, std::string_view family,
                    std::string_view qualifier, int64_t timestamp, CellType type) {
  std::string key;
  AppendCellKey(&key, table_id, row, family, qualifier, timestamp, type);
  return key;
}

void AppendCellKey(std::string* dst, uint64_t table_id, std::string_view row,
                   std::string_view family, std::string_view qualifier, int64_t timestamp,
                   CellType type) {
  dst->push_back(kCellTag);
  PutFixed64BE(dst, table_id);
  PutEscapedTerminated(dst, row);
  PutEscapedTerminated(dst, family);
  PutEscapedTerminated(dst, qualifier);
  // Inverting makes newer versions sort first under the bytewise comparator.
  PutFixed64BE(dst, UINT64_MAX - static_cast<uint64_t>(timestamp));
  dst->push_back(static_cast<char>(type));
}

std::string FamilyKeySuffix(std::string_view family) {
  std::string suffix;
  PutEscapedTerminated(&suffix, family);
  return suffix;
}

std::string ColumnKeySuffix(std::string_view family, std::string_view qualifier) {
  std::string suffix = FamilyKeySuffix(family);
  PutEscapedTerminated(&suffix, qualifier);
  return suffix;
}

bool ParseCellKey(std::string_view key, ParsedCellKey* out) {
  if (!GetTaggedId(&key, kCellTag, &out->table_id)) return false;
  if (!GetEscapedTerminated(&key, &out->row)) return false;
  return ParseCellKeySuffix(key, out);
}

bool ParseCellKeySuffix(std::string_view key, ParsedCellKey* out) {
  if (!GetEscapedTerminated(&key, &out->family)) return false;
  if (!GetEscapedTerminated(&key, &out->qualifier)) return false;
  if (key.size() != kCellKeyTailLength) return false;
  const uint64_t inverted = DecodeFixed64BE(key.data());
  const uint64_t ts = UINT64_MAX - inverted;
  if (ts > static_cast<uint64_t>(INT64_MAX)) return false;
  out->timestamp = static_cast<int64_t>(ts);
  const uint8_t type = static_cast<uint8_t>(key[8]);
  if (!IsValidCellType(type)) return false;
  out->type = static_cast<CellType>(type);
  return true;
}

size_t RowKeyPrefixLength(std::string_view key) {
  if (key.size() < kTaggedIdLength || key[0] != kCellTag) return 0;
  for (size_t i = kTaggedIdLength; i + 1 < key.size(); ++i) {
    if (key[i] != '\0') continue;
    if (key[i + 1] == '\x01') return i + 2;
    ++i;  // 00 FF: an escaped zero byte
  }
  return 0;
}

size_t ColumnKeyPrefixLength(std::string_view cell_key) {
  return cell_key.size() - kCellKeyTailLength;
}

bool DecodeRowKeyPrefix(std::string_view row_key_prefix, std::string* scratch,
                        std::string_view* row) {
  if (row_key_prefix.size() < kTaggedIdLength || row_key_prefix[0] != kCellTag) return false;
  std::string_view encoded = row_key_prefix.substr(kTaggedIdLength);
  constexpr std::string_view kTerminator("\0\x01", 2);
  if (encoded.size() >= kTerminator.size() && encoded.find('\0') == encoded.size() - 2 &&
      encoded.substr(encoded.size() - 2) == kTerminator) {
    *row = encoded.substr(0, encoded.size() - 2);
    return true;
  }
  if (!GetEscapedTerminated(&encoded, scratch) || !encoded.empty()) return false;
  *row = *scratch;
  return true;
}

void EncodeCellValue(std::string* dst, std::string_view value, int64_t expires_at_ms) {
  if (expires_at_ms == kNoExpiry) {
    dst->push_back('\0');
  } else {
    dst->push_back('\x01');
    PutFixed64BE(dst, static_cast<uint64_t>(expires_at_ms));
  }
  dst->append(value.data(), value.size());
}

bool DecodeCellValue(std::string_view stored, std::string_view* value, int64_t* expires_at_ms) {
  if (stored.empty()) {  // delete markers carry no value
    *value = stored;
    *expires_at_ms = kNoExpiry;
    return true;
  }
  if (stored[0] == '\0') {
    *value = stored.substr(1);
    *expires_at_ms = kNoExpiry;
    return true;
  }
  constexpr size_t kExpiryHeaderLength = 1 + 8;  // tag + expires_at_ms
  if (stored[0] == '\x01' && stored.size() >= kExpiryHeaderLength) {
    *expires_at_ms = static_cast<int64_t>(DecodeFixed64BE(stored.data() + 1));
    *value = stored.substr(kExpiryHeaderLength);
    return true;
  }
  return false;
}

}  // namespace hbemu::storage
