#pragma once

// Filter rows of the benchmark (issue 20): the hostile shapes of the filter language through
// Thrift1 scannerOpenWithScan, over 1,000 rows of one cell: a filter 1,000 levels deep (past
// the default filter_depth: the cost of refusing it), one 500 deep (parse + scan), 100k-wide
// flat AND and OR lists (parse alone, and parse + scan), and a SKIP x500 filter over a table of
// 20 regions. Each is against the same scan with a one-filter string, or, for the regions row,
// the same filter over one region.

#include <vector>

#include "tests/bench/bench_harness.h"

namespace hbemu::bench {

// Creates tables "filters" (one region) and "filters20" (20 regions, via Thrift2) on the server
// and adds the rows. Calls per second; every op opens a new scanner (parsing the filter) and
// reads it to the end ("parse only": closes it at once).
void AddFilterRows(int port, int thrift2_port, int rounds, std::vector<Row>* rows);

}  // namespace hbemu::bench
