#pragma once

// The bystander row of the benchmark: how long an ordinary client's getRow waits while two slow
// calls (scans whose filter keeps nothing, so one scannerGetList walks the whole table) run on
// the same port, against the same client with nothing else running, same server, same run.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tests/bench/bench_harness.h"

namespace hbemu::bench {

struct BystanderWorkload {
  int port = 0;
  std::string mode;    // "mem" or "disk"
  uint64_t cells = 0;  // rows of table "bench", one cell f:q each, row_key(0..cells-1)
  double seconds = 3;  // per measurement
  int rounds = 3;      // alternations; the lowest p99 of each side is kept
  std::function<std::string(uint64_t)> row_key;
};

void AddBystanderRows(const BystanderWorkload& w, std::vector<Row>* rows);

}  // namespace hbemu::bench
