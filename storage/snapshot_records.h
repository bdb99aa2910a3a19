#pragma once

// The value of a snapshot key (key_format.h): what a snapshot holds besides its cells.
// Versioned like the catalog's records.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/schema.h"
#include "storage/status.h"

namespace hbemu::storage {

struct SnapshotRecord {
  std::string name;  // in the key, not in the record
  int64_t created_ms = 0;
  // Taken of the whole store: a restore also drops the tables and namespaces made since.
  bool whole_store = false;
  // Each table as it was, name, families, split keys and enabled state included. `id` is
  // where the snapshot keeps the table's cells: a table id of its own that no live table has.
  std::vector<TableDescriptor> tables;
  std::vector<NamespaceDescriptor> namespaces;  // whole-store snapshots only
  uint64_t bytes = 0;  // key and value bytes of the cells kept
  uint64_t cells = 0;
};

std::string EncodeSnapshotRecord(const SnapshotRecord& record);
// out->name is left as it is.
Status DecodeSnapshotRecord(std::string_view data, SnapshotRecord* out);

// HBase's rule for snapshot names (TableName.isLegalTableQualifierName with isSnapshot), with
// HBase's messages.
Status ValidateSnapshotName(std::string_view name);

}  // namespace hbemu::storage
