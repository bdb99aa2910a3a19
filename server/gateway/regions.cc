#include "server/gateway/regions.h"

#include <algorithm>

#include <boost/uuid/detail/md5.hpp>

namespace hbemu::server {
namespace {

std::string RegionName(const std::string& table, std::string_view start_key, int64_t region_id) {
  std::string base = table;
  base.push_back(',');
  base.append(start_key.data(), start_key.size());
  base.push_back(',');
  base.append(std::to_string(region_id));
  boost::uuids::detail::md5 md5;
  md5.process_bytes(base.data(), base.size());
  boost::uuids::detail::md5::digest_type digest;
  md5.get_digest(digest);
  // boost's digest words are host-order integers; print them as the big-endian byte string.
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int word : digest) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      const unsigned byte = (word >> shift) & 0xff;
      hex.push_back(kHex[byte >> 4]);
      hex.push_back(kHex[byte & 0xf]);
    }
  }
  return base + "." + hex + ".";
}

RegionView MakeRegion(const storage::TableDescriptor& table, size_t index) {
  const auto& splits = table.split_keys;
  RegionView region;
  region.table = table.name.ToString();
  region.start_key = index == 0 ? "" : splits[index - 1];
  region.end_key = index < splits.size() ? splits[index] : "";
  region.region_id = table.created_ms;
  region.name = RegionName(region.table, region.start_key, region.region_id);
  return region;
}

}  // namespace

std::vector<RegionView> RegionsOf(const storage::TableDescriptor& table) {
  std::vector<RegionView> out;
  for (size_t i = 0; i <= table.split_keys.size(); ++i) out.push_back(MakeRegion(table, i));
  return out;
}

RegionView RegionHolding(const storage::TableDescriptor& table, std::string_view row) {
  const auto& splits = table.split_keys;
  const size_t index = static_cast<size_t>(
      std::upper_bound(splits.begin(), splits.end(), row,
                       [](std::string_view r, const std::string& key) { return r < key; }) -
      splits.begin());
  return MakeRegion(table, index);
}

std::optional<RegionView> RegionAtOrBeforeMetaKey(
    const std::vector<std::shared_ptr<const storage::TableDescriptor>>& tables,
    std::string_view meta_key) {
  std::optional<RegionView> best;
  for (const auto& table : tables) {
    for (RegionView& region : RegionsOf(*table)) {
      if (std::string_view(region.name) > meta_key) continue;
      if (!best || region.name > best->name) best = std::move(region);
    }
  }
  return best;
}

}  // namespace hbemu::server
