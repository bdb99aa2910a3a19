#pragma once

// Thrift2 (THBaseService) rows of the benchmark: get, put and a full scan through the Thrift2
// port, each against the same call through the Thrift1 port of the same server in the same
// run, so the table shows what choosing one gateway over the other costs.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tests/bench/bench_harness.h"

namespace hbemu::bench {

struct Thrift2Workload {
  int thrift2_port = 0;
  std::string mode;  // "mem" or "disk"
  uint64_t cells = 0;  // rows of table "bench", one cell f:q each, row_key(0..cells-1)
  double seconds = 3;
  int rounds = 3;
  std::function<std::string(uint64_t)> row_key;
  std::function<std::string(uint64_t)> value;
  // The Thrift1 counterparts (rates), measured by the caller with its own client.
  std::function<double()> thrift1_get;   // getRow, 1 connection, calls/s
  std::function<double()> thrift1_put;   // mutateRow of one cell into "writes", calls/s
  std::function<double()> thrift1_scan;  // full scan of "bench" by 1,000 rows, cells/s
};

void AddThrift2Rows(const Thrift2Workload& w, std::vector<Row>* rows);

}  // namespace hbemu::bench
