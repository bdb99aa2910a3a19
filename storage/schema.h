#pragma once

#include <cstdint>
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
// Checks a namespace name: one or more of [A-Za-z0-9_].
Status ValidateNamespaceName(std::string_view ns);
// Checks a family name as ColumnFamilyDescriptorBuilder does.
Status ValidateFamilyName(std::string_view family);
// Checks a family's numeric settings (versions > 0, min <= max, ...).
Status ValidateFamily(const FamilyDescriptor& family);

struct TableDescriptor {
  uint64_t id = 0;
  TableName name;
  bool enabled = true;
  int64_t created_ms = 0;
  std::vector<FamilyDescriptor> families;  // sorted by name

  // nullptr when the table has no such family.
  const FamilyDescriptor* FindFamily(std::string_view family) const;
};

// Versioned encoding of catalog values (key_format.h says where they live).
std::string EncodeTableDescriptor(const TableDescriptor& table);
Status DecodeTableDescriptor(std::string_view data, TableDescriptor* out);

}  // namespace hbemu::storage
