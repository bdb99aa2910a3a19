#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "server/admin/heat_map.h"

namespace hbemu::server::admin {

// How the heat map groups row keys into buckets, chosen per request (the table page's form and
// the JSON API's query): the first `bytes` bytes (1..kPrefixBytes), or, with a delimiter, the
// key up to and including its first delimiter within the first kPrefixBytes bytes (a salt
// "12:" of any width up to that; a key without the delimiter there keeps its kPrefixBytes).
struct BucketSpec {
  int bytes = 1;
  int delimiter = -1;  // a byte value, or -1 for none
};

// Reads the query values ("" means the default). False, with a reason, on anything else.
bool ParseBucketSpec(const std::string& bytes, const std::string& delimiter, BucketSpec* spec,
                     std::string* error);

// The bucket of a recorded prefix (the first kPrefixBytes bytes of a row, or the whole row).
std::string_view BucketPrefix(std::string_view recorded, const BucketSpec& spec);

// One bucket's counts. A `rest` bucket holds the rows starting with byte `prefix` whose
// recorded prefix was not tracked (the table saw more than kMaxPrefixes distinct ones).
struct PrefixBucket {
  std::string prefix;
  bool rest = false;
  uint64_t reads = 0, writes = 0;
  std::array<uint64_t, kWindows> window_reads{}, window_writes{};
};

// The snapshot's counts per bucket in key order (a byte's rest after its tracked prefixes),
// buckets without any count left out. One byte with no delimiter is the exact first-byte
// count, where an empty row counts under \x00 as it always has.
std::vector<PrefixBucket> GroupBuckets(const HeatMap::Snapshot& heat, const BucketSpec& spec);

// How a bucket is shown: printable ASCII as is, every other byte (and the backslash) as \xNN;
// an empty prefix (the empty row) as "(empty)"; a rest bucket with a trailing "…".
std::string PrefixLabel(std::string_view prefix, bool rest = false);

}  // namespace hbemu::server::admin
