#pragma once

#include <string>
#include <utility>
#include <vector>

#include "storage/schema.h"
#include "storage/status.h"

namespace hbemu::server {

// A column family's settings as HBase's descriptors name them ("VERSIONS" -> "1", "TTL" ->
// "2147483647", "BLOCKCACHE" -> "true", ...), what the Thrift2 and REST gateways show. The
// twelve settings every family has come first, in the order HBase 2.6.1's REST gateway lists
// them; settings away from their defaults and the family's own values follow.
std::vector<std::pair<std::string, std::string>> FamilyAttributes(
    const storage::FamilyDescriptor& family);

// A family attribute HBase's ColumnFamilyDescriptorBuilder reads as a setting: applies it and
// sets *known; other keys are left to the caller (plain values). A number that does not parse
// is HBase's NumberFormatException message.
storage::Status ApplyFamilyAttribute(const std::string& key, const std::string& value,
                                     storage::FamilyDescriptor* family, bool* known);

}  // namespace hbemu::server
