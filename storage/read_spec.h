#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "storage/filter.h"

namespace hbemu::storage {

// Which columns a read returns. Built with HBase's Get/Scan addFamily/addColumn rules, which
// depend on order: a family after a column of it widens to the whole family; a column after
// its family narrows to that column (and further columns extend the set).
class ColumnSelection {
 public:
  void AddFamily(const std::string& family) { families_[family] = std::nullopt; }
  void AddColumn(const std::string& family, const std::string& qualifier) {
    auto& entry = families_[family];
    if (!entry.has_value()) entry.emplace();
    entry->insert(qualifier);
  }
  // No family named: every column of the table.
  bool all() const { return families_.empty(); }
  // family -> nullopt for "whole family", or the selected qualifiers.
  const std::map<std::string, std::optional<std::set<std::string>>>& families() const {
    return families_;
  }

 private:
  std::map<std::string, std::optional<std::set<std::string>>> families_;
};

// Half-open [min, max) in cell timestamps. The default covers all time.
struct TimeRange {
  int64_t min = 0;
  int64_t max = std::numeric_limits<int64_t>::max();
};

// What one Get or Scan asks for, beyond the rows.
struct ReadSpec {
  ColumnSelection columns;
  TimeRange time_range;
  int32_t max_versions = 1;  // capped by each family's VERSIONS
  // A parsed filter (filter_parser.h), or null. Shared and immutable: every Get or Scanner
  // clones its own stateful instance. With a filter, versions up to the family's VERSIONS
  // reach it and up to min(max_versions, VERSIONS) accepted ones are kept (docs/hbase-semantics.md
  // #the-read-pipeline).
  std::shared_ptr<const Filter> filter;
  // Per-family time ranges that replace `time_range` for their family (HBase's
  // setColumnFamilyTimeRange, Thrift2 TScan.colFamTimeRangeMap). A family the table does not
  // have is ignored, as in HBase.
  std::map<std::string, TimeRange> family_time_ranges;
  // HBase's maxResultsPerColumnFamily / rowOffsetPerColumnFamily (Thrift2 TGet.storeLimit /
  // storeOffset), per row and family over the cells the read returns (after deletes, versions,
  // time range and per-cell filtering; before row-level filtering): skip the first
  // `store_offset` (a negative one is 0), then return up to `store_limit` (0 returns one, as
  // HBase does; negative: no limit). The filter does not see the family's cells past the limit.
  int32_t store_limit = -1;
  int32_t store_offset = 0;

  // The time range that applies to `family`.
  const TimeRange& TimeRangeFor(const std::string& family) const {
    if (family_time_ranges.empty()) return time_range;
    auto it = family_time_ranges.find(family);
    return it == family_time_ranges.end() ? time_range : it->second;
  }
};

// A scan over a row range. Forward: start <= row < stop. Reversed: stop < row <= start.
// A start equal to its (non-empty) stop reads that one row, as HBase 2's "get scan".
// An empty start or stop means unbounded on that side.
struct ScanSpec {
  std::string start_row;
  std::string stop_row;
  // When set, only rows beginning with this prefix (and the scan ends after them).
  std::optional<std::string> row_prefix;
  bool reversed = false;
  ReadSpec read;
  // Maximum cells per RowResult; a wider row comes back in several pieces. 0 = no limit.
  int32_t batch = 0;
  // Maximum rows for the whole scan (HBase's Scan.setLimit, Thrift2 TScan.limit), counted as
  // rows returned after filtering; every piece of a batched row belongs to one row. <= 0: none.
  int32_t limit = 0;
  // Only the region holding the scan's start (HBase's client with an explicit Scan.setLimit(0):
  // measured on HBase 2.6.1, its scan ends with the first region it reads).
  bool first_region_only = false;
};

}  // namespace hbemu::storage
