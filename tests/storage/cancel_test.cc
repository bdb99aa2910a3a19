// The process-wide stop flag (storage/cancel.h): a scan checks it between rows and ends with an
// IOError once it is set, wherever it is, so a call cannot hold a stopping server.

#include "storage/cancel.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/filter_parser.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

class CancelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    TableDescriptor table;
    table.families = {testutil::Family("f")};
    table.split_keys = {"r50"};
    ASSERT_OK(store_->CreateTable("t", table));
    for (int i = 0; i < 100; ++i) {
      const std::string row = "r" + std::to_string(10 + i);
      ASSERT_OK(store_->Mutate("t", testutil::Row(row, {testutil::PutOp("f", "q", 1, row)})));
    }
  }
  void TearDown() override { ClearStopRequestForTesting(); }

  ManualClock clock_{testutil::kTestNowMs};
  std::unique_ptr<Store> store_;
};

TEST_F(CancelTest, AScanThatItsFilterKeepsEmptyEndsWithAnIOErrorOnceTheServerStops) {
  ScanSpec scan;
  // Drops every row: without the flag this one call would read the whole table.
  ASSERT_OK(ParseFilterString("RowFilter(=, 'binary:none')", &scan.read.filter));
  std::unique_ptr<Scanner> scanner;
  ASSERT_OK(store_->OpenScanner("t", scan, &scanner));
  RequestStop();
  std::vector<RowResult> rows;
  const Status s = scanner->Next(10, &rows);
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("stopping"), std::string::npos) << s.message();
  EXPECT_TRUE(rows.empty());
}

TEST_F(CancelTest, AScanInProgressStopsAtItsNextRowForwardAndReversed) {
  for (bool reversed : {false, true}) {
    ScanSpec scan;
    scan.reversed = reversed;
    std::unique_ptr<Scanner> scanner;
    ASSERT_OK(store_->OpenScanner("t", scan, &scanner));
    std::vector<RowResult> rows;
    ASSERT_OK(scanner->Next(10, &rows));
    EXPECT_EQ(rows.size(), 10u);
    RequestStop();
    rows.clear();
    EXPECT_CODE(kIOError, scanner->Next(10, &rows));
    EXPECT_TRUE(rows.empty());
    ClearStopRequestForTesting();
  }
}

TEST_F(CancelTest, WithoutTheFlagTheSameScanRunsToItsEnd) {
  ScanSpec scan;
  ASSERT_OK(ParseFilterString("RowFilter(=, 'binary:none')", &scan.read.filter));
  std::unique_ptr<Scanner> scanner;
  ASSERT_OK(store_->OpenScanner("t", scan, &scanner));
  std::vector<RowResult> rows;
  ASSERT_OK(scanner->Next(10, &rows));
  EXPECT_TRUE(rows.empty());
}

}  // namespace
}  // namespace hbemu::storage
