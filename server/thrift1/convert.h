#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Hbase_types.h"
#include "storage/cell.h"
#include "storage/read_spec.h"
#include "storage/schema.h"
#include "storage/status.h"

namespace hbemu::server {

// A Thrift1 column spec split at the first ':' (HBase CellUtil.parseColumn): "f" is the whole
// family (no qualifier), "f:" the empty qualifier, "f:a:b" qualifier "a:b".
struct ColumnSpec {
  std::string family;
  std::optional<std::string> qualifier;
};
ColumnSpec ParseColumn(std::string_view spec);
// The same split as views into `spec`.
struct ColumnSpecView {
  std::string_view family;
  std::optional<std::string_view> qualifier;
};
ColumnSpecView ParseColumnView(std::string_view spec);

// Adds Thrift1 column specs to a selection in order (Get.addFamily/addColumn semantics).
void AddColumns(const std::vector<std::string>& specs, storage::ColumnSelection* selection);

// "family:qualifier", as TRowResult keys and TColumn names spell a column.
std::string ColumnName(const storage::Cell& cell);

std::vector<thrift::TCell> ToTCells(const std::vector<storage::Cell>& cells);
// Fills *out, a default-constructed TRowResult, with a row: the `columns` map (newest version of
// each column) or, when `sorted_columns`, the `sortedColumns` list in cell order. Moves the
// row's strings: the generated Thrift types have no move constructors or moving setters, so
// building in place is what keeps a scan from copying every value twice.
void ToTRowResult(storage::RowResult&& row, bool sorted_columns, thrift::TRowResult* out);

// Thrift1 ColumnDescriptor -> family, with HBase's checks (HBase's codec names, bloom types,
// positive versions). TTL <= 0 means forever.
storage::Status ToFamilyDescriptor(const thrift::ColumnDescriptor& in,
                                   storage::FamilyDescriptor* out);
thrift::ColumnDescriptor ToColumnDescriptor(const storage::FamilyDescriptor& family);

}  // namespace hbemu::server
