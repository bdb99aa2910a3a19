#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace hbemu::server {

// Operation attributes both services accept (Thrift1 `attributes` arguments, Thrift2
// TPut/TIncrement/TAppend `attributes`): HBase reads the same keys from either.

// HBase's per-mutation cell TTL attribute ("_ttl": 8-byte big-endian ms). 0 when absent.
int64_t CellTtlFromAttributes(const std::map<std::string, std::string>& attributes);

}  // namespace hbemu::server
