#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "storage/status.h"
#include "storage/store.h"

namespace hbemu::server {

// How HBase's client reports a batch call (Table.put/delete/get of a list: Thrift1 mutateRows*,
// getRows* of two or more rows; Thrift2 putMultiple, deleteMultiple, getMultiple) that failed for
// some of its actions: RetriesExhaustedWithDetailsException, retryable, whose message is
// "Failed N action(s): <cause>: k time(s), ..., servers with issues: <servers>", each distinct
// cause once (a DoNotRetryIOException is told by its message, others by their simple class name).
inline constexpr char kRetriesExhaustedWithDetails[] =
    "org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException";

// Where the failing actions were sent, as HBase names a region server ("host,port,startcode").
struct BatchServer {
  std::string host = "localhost";
  int32_t port = 16020;
};

// What a batch to `table` meets before its rows: OK, or the whole-batch failure that
// Store::MutateRows would report (missing or disabled table). A handler asks first, so that a
// batch that can never be written is only checked and counted, with nothing built per row.
storage::Status BatchTableStatus(const storage::Store& store, std::string_view table);

// The message for a batch of `actions` actions that failed as a whole with `status` (missing
// table: "<t>: N times, servers with issues: null"; disabled table: NotServingRegionException
// from the region server), or "" when HBase reports `status` itself (any other failure).
std::string WholeBatchFailure(const storage::Status& status, size_t actions,
                              const BatchServer& server);

// The message for the rows a batch rejected while applying the others (Store::MutateRows).
std::string RowFailures(const std::vector<storage::Store::RowFailure>& failures,
                        const BatchServer& server);

}  // namespace hbemu::server
