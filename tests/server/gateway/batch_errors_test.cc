// HBase's batch failure text (RetriesExhaustedWithDetailsException's message): causes counted
// and listed once each in first-seen order, singular and plural spelled as HBase spells them,
// in time linear in the number of rows however many causes differ.

#include "server/gateway/batch_errors.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::server {
namespace {

using storage::Status;
using Failures = std::vector<storage::Store::RowFailure>;

const BatchServer kServer{"rs.example", 16020};

// The message up to the server name, whose start code is the process's start time.
std::string UpToServers(const std::string& message) {
  const std::string marker = "servers with issues: ";
  const size_t at = message.find(marker);
  EXPECT_NE(at, std::string::npos) << message;
  EXPECT_EQ(message.compare(at + marker.size(), 17, "rs.example,16020,"), 0) << message;
  return message.substr(0, at + marker.size());
}

TEST(BatchErrorsTest, MissingTableFailsEveryActionWithNoServer) {
  EXPECT_EQ(WholeBatchFailure(Status::TableNotFound("nope"), 1, kServer),
            "Failed 1 action: nope: 1 time, servers with issues: null");
  EXPECT_EQ(WholeBatchFailure(Status::TableNotFound("ns:nope"), 3, kServer),
            "Failed 3 actions: ns:nope: 3 times, servers with issues: null");
  EXPECT_EQ(WholeBatchFailure(Status::TableNotFound("nope"), 0, kServer), "");
}

TEST(BatchErrorsTest, DisabledTableIsNotServingOnTheRegionServer) {
  EXPECT_EQ(UpToServers(WholeBatchFailure(Status::TableNotEnabled("t is disabled."), 2, kServer)),
            "Failed 2 actions: NotServingRegionException: 2 times, servers with issues: ");
}

TEST(BatchErrorsTest, OtherFailuresAreReportedAsThemselves) {
  EXPECT_EQ(WholeBatchFailure(Status::IOError("disk"), 5, kServer), "");
}

TEST(BatchErrorsTest, RowFailuresAreGroupedByCauseInFirstSeenOrder) {
  const Failures failures = {
      {0, Status::NoSuchColumnFamily("Column family a does not exist")},
      {1, Status::IOError("retryable")},
      {2, Status::NoSuchColumnFamily("Column family b does not exist")},
      {3, Status::NoSuchColumnFamily("Column family a does not exist")},
      {4, Status::IOError("another retryable")},
  };
  EXPECT_EQ(UpToServers(RowFailures(failures, kServer)),
            "Failed 5 actions: "
            "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family a "
            "does not exist: 2 times, "
            "IOException: 2 times, "
            "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family b "
            "does not exist: 1 time, "
            "servers with issues: ");
}

TEST(BatchErrorsTest, FortyThousandDistinctCausesAreEachListedOnce) {
  Failures failures;
  for (size_t i = 0; i < 40000; ++i) {
    failures.push_back({i, Status::NoSuchColumnFamily("family f" + std::to_string(i % 20000))});
  }
  const std::string message = RowFailures(failures, kServer);
  EXPECT_EQ(message.rfind("Failed 40000 actions: ", 0), 0u);
  size_t groups = 0;
  for (size_t at = message.find(": 2 times, "); at != std::string::npos;
       at = message.find(": 2 times, ", at + 1)) {
    ++groups;
  }
  EXPECT_EQ(groups, 20000u);
  EXPECT_NE(message.find("family f0: 2 times, "), std::string::npos);
  EXPECT_NE(message.find("family f19999: 2 times, servers with issues: "), std::string::npos);
}

}  // namespace
}  // namespace hbemu::server
