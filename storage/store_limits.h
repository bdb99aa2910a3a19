#pragma once

#include <cstdint>

namespace hbemu::storage {

// The numbers storage bounds itself by. Storage keeps no registry of limits: whoever opens the
// store or calls the filter parser hands these in. The server's registry (server/limits.h:
// names, units, bounds, `--limit`, `--limits`) fills them from its own values, and takes its
// defaults from here, where each rule lives. Field names are the registry's.

// What a Store bounds (StoreOptions::limits), fixed when it is opened.
struct StoreLimits {
  int64_t cell_bytes = 10 << 20;      // one put's row + family + qualifier + value
                                      // (HBase's hbase.client.keyvalue.maxsize)
  int64_t result_bytes = 256 << 20;   // one row a row-level filter reads whole
                                      // (HBase's hbase.table.max.rowsize, 1 GB)
  int64_t snapshots = 1024;           // snapshots kept (test controls)
  int64_t snapshot_bytes = 512 << 20; // cell bytes all snapshots keep together
};

// What one filter string may hold (filter_parser.h).
struct FilterLimits {
  int64_t filter_string_bytes = 4 << 20;  // longest filter string accepted
  int64_t filter_depth = 512;             // deepest nesting of AND/OR, parentheses, SKIP, WHILE
  int64_t filter_count = 200000;          // most filters in one filter tree
};

}  // namespace hbemu::storage
