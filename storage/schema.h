#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell.h"
#include "storage/status.h"

namespace hbemu::storage {

enum class KeepDeletedCells : uint8_t { kFalse = 0, kTrue = 1, kTtl = 2 };

// One column family. Defaults are HBase's own (ColumnFamilyDescriptorBuilder); the Thrift1
// handler substitutes the IDL's defaults where a client leaves fields out.
struct FamilyDescriptor {
  std::string name;
  int32_t max_versions = 1;
  int32_t min_versions = 0;
  int32_t ttl_seconds = kForeverTtl;
  KeepDeletedCells keep_deleted_cells = KeepDeletedCells::kFalse;
  bool in_memory = false;
  bool block_cache_enabled = true;
  std::string compression = "NONE";   // codec name, upper case
  std::string bloom_filter = "ROW";   // NONE, ROW, ROWCOL, ROWPREFIX_FIXED_LENGTH
  // Stored and reported, with no effect here (LevelDB has its own blocks and caches).
  int32_t block_size = 64 * 1024;
  std::string data_block_encoding = "NONE";  // NONE, PREFIX, DIFF, FAST_DIFF, ROW_INDEX_V1
  int32_t scope = 0;                         // replication scope
  int32_t dfs_replication = 0;
  bool cache_blooms_on_write = false;
  bool cache_data_on_write = false;
  bool cache_indexes_on_write = false;
  bool compress_tags = true;
  bool evict_blocks_on_close = false;
  // Attributes the client set beyond the named fields, and per-family configuration: HBase
  // keeps both maps verbatim and hands them back.
  std::map<std::string, std::string> values;
  std::map<std::string, std::string> configuration;
};

// A namespace-qualified table name. `ns` is never empty ("default" for unqualified names).
struct TableName {
  std::string ns;
  std::string qualifier;
  // "t" for the default namespace, "ns:t" otherwise: how HBase lists table names.
  std::string ToString() const;
};

// Parses "t" or "ns:t" and checks HBase's naming rules (TableName.isLegal*).
Status ParseTableName(std::string_view full_name, TableName* out);
// Checks a table qualifier, or a snapshot name (`snapshot`: HBase checks both with one rule and
// names the kind in its texts): letters of any script, digits, '_', '-', '.', not first '.'/'-'.
Status ValidateQualifierName(std::string_view qualifier, bool snapshot);
// Checks a namespace name: one or more letters (any script), digits or '_'.
Status ValidateNamespaceName(std::string_view ns);
// The longest namespace or table qualifier that can be created, in bytes. HBase's TableName has
// no limit, but each becomes a directory name (file systems and HDFS stop at 255 bytes): HBase
// 2.6.1 accepts a 256-byte namespace and loses it, and retries a 256-byte table's creation
// forever. Names are checked against it only where they are created; elsewhere a longer name is
// merely not found, as in HBase.
inline constexpr size_t kMaxNameBytes = 255;
// `what` ("Namespace", "Table qualifier") begins the message.
Status ValidateNewNameLength(std::string_view what, std::string_view name);
// Checks a family name as ColumnFamilyDescriptorBuilder does.
Status ValidateFamilyName(std::string_view family);
// Checks a family's numeric settings (versions > 0, min <= max, ...).
Status ValidateFamily(const FamilyDescriptor& family);

// How HBase's region servers would write a table's WAL: stored and reported only.
enum class Durability : uint8_t {
  kUseDefault = 0, kSkipWal = 1, kAsyncWal = 2, kSyncWal = 3, kFsyncWal = 4
};

struct TableDescriptor {
  uint64_t id = 0;
  TableName name;
  bool enabled = true;
  // When this incarnation of the table was made (create or truncate): HBase's region id.
  int64_t created_ms = 0;
  std::vector<FamilyDescriptor> families;  // sorted by name
  // Region boundaries: region i holds [split_keys[i-1], split_keys[i]); sorted, unique and
  // non-empty. No split keys: one region.
  std::vector<std::string> split_keys;
  // The table's own attributes (TableDescriptor values) as the client set them.
  std::map<std::string, std::string> values;
  Durability durability = Durability::kUseDefault;

  // nullptr when the table has no such family.
  const FamilyDescriptor* FindFamily(std::string_view family) const;
};

// Checks split keys as HBase's createTable does and sorts them.
Status NormalizeSplitKeys(std::vector<std::string>* split_keys);

// A namespace and its configuration (NamespaceDescriptor).
struct NamespaceDescriptor {
  std::string name;
  int64_t created_ms = 0;
  std::map<std::string, std::string> configuration;
};

}  // namespace hbemu::storage
