#include "server/thrift1/convert.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace hbemu::server {

using storage::Cell;
using storage::Status;

namespace {

// "family:qualifier" into a buffer the caller reuses.
void SetColumnName(const Cell& cell, std::string* name) {
  name->clear();
  name->reserve(cell.family.size() + 1 + cell.qualifier.size());
  name->append(cell.family).push_back(':');
  name->append(cell.qualifier);
}

}  // namespace

ColumnSpecView ParseColumnView(std::string_view spec) {
  ColumnSpecView out;
  const size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    out.family = spec;
  } else {
    out.family = spec.substr(0, colon);
    out.qualifier = spec.substr(colon + 1);
  }
  return out;
}

ColumnSpec ParseColumn(std::string_view spec) {
  const ColumnSpecView view = ParseColumnView(spec);
  ColumnSpec out;
  out.family = std::string(view.family);
  if (view.qualifier) out.qualifier = std::string(*view.qualifier);
  return out;
}

void AddColumns(const std::vector<std::string>& specs, storage::ColumnSelection* selection) {
  for (const std::string& s : specs) {
    ColumnSpec c = ParseColumn(s);
    if (c.qualifier.has_value()) {
      selection->AddColumn(c.family, *c.qualifier);
    } else {
      selection->AddFamily(c.family);
    }
  }
}

std::string ColumnName(const Cell& cell) {
  std::string name;
  SetColumnName(cell, &name);
  return name;
}

std::vector<thrift::TCell> ToTCells(const std::vector<Cell>& cells) {
  std::vector<thrift::TCell> out;
  out.reserve(cells.size());
  for (const Cell& c : cells) {
    thrift::TCell t;
    t.__set_value(c.value);
    t.__set_timestamp(c.timestamp);
    out.push_back(std::move(t));
  }
  return out;
}

void ToTRowResult(storage::RowResult&& row, bool sorted_columns, thrift::TRowResult* out) {
  out->row = std::move(row.row);
  out->__isset.row = true;
  if (sorted_columns) {
    std::vector<thrift::TColumn>& columns = out->sortedColumns;
    columns.resize(row.cells.size());
    for (size_t i = 0; i < row.cells.size(); ++i) {
      Cell& c = row.cells[i];
      thrift::TColumn& col = columns[i];
      col.columnName = ColumnName(c);
      col.cell.value = std::move(c.value);
      col.cell.timestamp = c.timestamp;
      col.cell.__isset.value = col.cell.__isset.timestamp = true;
      col.__isset.columnName = col.__isset.cell = true;
    }
    out->__isset.sortedColumns = true;
  } else {
    std::map<std::string, thrift::TCell>& columns = out->columns;
    for (Cell& c : row.cells) {
      std::string name = ColumnName(c);
      // Cells come in (family, qualifier) order, which is nearly always the names' order too:
      // append at the end then. Newest first within a column, so the first one seen is kept.
      auto it = columns.end();
      if (columns.empty() || columns.rbegin()->first < name) {
        it = columns.emplace_hint(columns.end(), std::move(name), thrift::TCell());
      } else {
        bool inserted;
        std::tie(it, inserted) = columns.try_emplace(std::move(name));
        if (!inserted) continue;
      }
      it->second.value = std::move(c.value);
      it->second.timestamp = c.timestamp;
      it->second.__isset.value = it->second.__isset.timestamp = true;
    }
    out->__isset.columns = true;
  }
}

Status ToFamilyDescriptor(const thrift::ColumnDescriptor& in, storage::FamilyDescriptor* out) {
  if (in.name.empty()) return Status::InvalidArgument("column name is empty");
  out->name = ParseColumn(in.name).family;
  HBEMU_RETURN_IF_ERROR(storage::ValidateFamilyName(out->name));

  std::string compression = in.compression;
  std::transform(compression.begin(), compression.end(), compression.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static const char* const kCodecs[] = {"none", "gz",    "lzo",  "snappy", "lz4",
                                        "bzip2", "zstd", "lzma", "brotli"};
  if (std::find(std::begin(kCodecs), std::end(kCodecs), compression) == std::end(kCodecs)) {
    return Status::InvalidArgument("Unsupported compression algorithm name: " + compression);
  }
  std::transform(compression.begin(), compression.end(), compression.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  out->compression = compression;

  // BloomType.valueOf: exact, upper-case names only.
  static const char* const kBlooms[] = {"NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH"};
  if (std::find(std::begin(kBlooms), std::end(kBlooms), in.bloomFilterType) ==
      std::end(kBlooms)) {
    return Status::InvalidArgument("No enum constant org.apache.hadoop.hbase.regionserver.BloomType." +
                                   in.bloomFilterType);
  }
  out->bloom_filter = in.bloomFilterType;
  if (in.maxVersions <= 0) return Status::InvalidArgument("Maximum versions must be positive");
  out->max_versions = in.maxVersions;
  out->in_memory = in.inMemory;
  out->block_cache_enabled = in.blockCacheEnabled;
  out->ttl_seconds = in.timeToLive <= 0 ? storage::kForeverTtl : in.timeToLive;
  return Status::OK();
}

thrift::ColumnDescriptor ToColumnDescriptor(const storage::FamilyDescriptor& f) {
  thrift::ColumnDescriptor d;
  d.__set_name(f.name + ":");
  d.__set_maxVersions(f.max_versions);
  d.__set_compression(f.compression);
  d.__set_inMemory(f.in_memory);
  d.__set_bloomFilterType(f.bloom_filter);
  d.__set_bloomFilterVectorSize(0);
  d.__set_bloomFilterNbHashes(0);
  d.__set_blockCacheEnabled(f.block_cache_enabled);
  d.__set_timeToLive(f.ttl_seconds);
  return d;
}


}  // namespace hbemu::server
