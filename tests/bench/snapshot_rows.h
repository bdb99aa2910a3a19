#pragma once

// The snapshot rows of the benchmark (issue 22): how long restoring a seeded fixture of 10,000
// rows takes, the cost a test suite pays before every test, against re-seeding the same rows
// (truncate, then one batch write), in memory and on disk. Measured on the storage engine in
// this process: the control door adds one local HTTP request.

#include <vector>

#include "tests/bench/bench_harness.h"

namespace hbemu::bench {

void AddSnapshotRows(int rounds, bool disk, std::vector<Row>* rows);

}  // namespace hbemu::bench
