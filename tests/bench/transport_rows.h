#pragma once

// Transport rows of the benchmark: one ~100 MB mutateRows over buffered (unframed) transport,
// where only the message's own structure says where it ends, against the same call framed,
// where the length comes first. They show what finding a message's end costs.

#include <string>
#include <vector>

#include "tests/bench/bench_harness.h"

namespace hbemu::bench {

// Creates table "bulk" on the server at `port` and adds the buffered-vs-framed row.
void AddLargeMessageRows(int port, const std::string& mode, int rounds, std::vector<Row>* rows);

}  // namespace hbemu::bench
