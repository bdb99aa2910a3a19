#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/schema.h"

namespace hbemu::server {

// A table's regions as HBase's catalog (hbase:meta) would list them: one per range between
// split keys, all with the table's region id (its creation or truncation time).
struct RegionView {
  std::string table;      // "t" or "ns:t"
  std::string start_key;  // "" for the first region
  std::string end_key;    // "" for the last region
  int64_t region_id = 0;
  // "<table>,<startKey>,<regionId>.<md5 hex of what precedes it>.": the meta row key.
  std::string name;
};

std::vector<RegionView> RegionsOf(const storage::TableDescriptor& table);
// The region holding `row`.
RegionView RegionHolding(const storage::TableDescriptor& table, std::string_view row);
// HBase's getRegionInfo: the region whose meta row is the last at or before `meta_key`
// (a reverse scan of hbase:meta), over every table; nullopt when there is none.
std::optional<RegionView> RegionAtOrBeforeMetaKey(
    const std::vector<std::shared_ptr<const storage::TableDescriptor>>& tables,
    std::string_view meta_key);

}  // namespace hbemu::server
