// The row clock's marks across a restart (clock_horizon.h): a start inside the lead a burst of
// increments built dates the next put of that column past the counter, as the marks the
// previous run held would have, and leaves other columns at "now".

#include "storage/clock_horizon.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <leveldb/db.h>

#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellStrings;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::Row;

ColumnMutation ServerDatedPut(std::string family, std::string qualifier, std::string value) {
  return testutil::PutOp(std::move(family), std::move(qualifier), kLatestTimestamp,
                         std::move(value));
}

class ClockHorizonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(Reopen());
    ASSERT_OK(store_->CreateTable("t", {Family("f", 100)}));
  }
  Status Reopen() {
    store_.reset();
    StoreOptions options;
    options.path = dir_.path();
    options.clock = &clock_;
    return Store::Open(options, &store_);
  }
  // A burst of increments, each dated one past the one before while the clock stands still.
  void Burst(const std::string& row, int count) {
    for (int i = 0; i < count; ++i) {
      std::vector<Cell> result;
      ASSERT_OK(store_->Increment("t", row, {ColumnIncrement{"f", "c", 1}}, &result));
    }
  }
  std::vector<std::string> Newest(const std::string& row) {
    ReadSpec spec;
    RowResult result;
    EXPECT_OK(store_->Get("t", row, spec, &result));
    return CellStrings(result.cells);
  }

  testutil::TempDir dir_;
  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

TEST_F(ClockHorizonTest, APutAfterARestartInsideAnIncrementBurstIsTheNewestVersion) {
  Burst("r", 50);  // the counter is dated kTestNowMs + 49
  clock_.Advance(10);  // the restart takes 10 ms, less than the burst's lead
  ASSERT_OK(Reopen());
  ASSERT_OK(store_->Mutate("t", Row("r", {ServerDatedPut("f", "c", "set")})));
  const std::string expected = "f:c@" + std::to_string(kTestNowMs + 50) + "=set";
  EXPECT_EQ(Newest("r"), std::vector<std::string>{expected});
  // A later put goes past that one, as marks do.
  ASSERT_OK(store_->Mutate("t", Row("r", {ServerDatedPut("f", "c", "again")})));
  EXPECT_EQ(Newest("r"),
            std::vector<std::string>{"f:c@" + std::to_string(kTestNowMs + 51) + "=again"});
}

TEST_F(ClockHorizonTest, ADeleteAfterARestartInsideABurstMasksTheCounter) {
  Burst("r", 20);
  ASSERT_OK(Reopen());
  ASSERT_OK(store_->Mutate("t", Row("r", {testutil::DeleteOp(MutationType::kDeleteColumn, "f",
                                                              "c")})));
  EXPECT_TRUE(Newest("r").empty());
  ASSERT_OK(store_->Mutate("t", Row("r", {ServerDatedPut("f", "c", "after")})));
  EXPECT_EQ(Newest("r"),
            std::vector<std::string>{"f:c@" + std::to_string(kTestNowMs + 21) + "=after"});
}

TEST_F(ClockHorizonTest, TwoRestartsInARowStillDatePastTheBurst) {
  Burst("r", 30);
  ASSERT_OK(Reopen());
  ASSERT_OK(Reopen());
  ASSERT_OK(store_->Mutate("t", Row("r", {ServerDatedPut("f", "c", "set")})));
  EXPECT_EQ(Newest("r"),
            std::vector<std::string>{"f:c@" + std::to_string(kTestNowMs + 30) + "=set"});
}

TEST_F(ClockHorizonTest, OtherColumnsAndRowsKeepTheClockAfterTheRestart) {
  Burst("r", 30);
  ASSERT_OK(Reopen());
  ASSERT_OK(store_->Mutate("t", Row("r", {ServerDatedPut("f", "other", "x")})));
  ASSERT_OK(store_->Mutate("t", Row("s", {ServerDatedPut("f", "c", "y")})));
  const std::string now = std::to_string(kTestNowMs);
  EXPECT_EQ(Newest("s"), std::vector<std::string>{"f:c@" + now + "=y"});
  const std::vector<std::string> r = Newest("r");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1], "f:other@" + now + "=x");
}

TEST_F(ClockHorizonTest, AStartPastTheKeptMarkOpensNoWindowAndWritesAreDatedNow) {
  Burst("r", 30);
  clock_.Advance(30 + ClockHorizon::kSlackMs);
  ASSERT_OK(Reopen());
  const int64_t now = clock_.NowMillis();
  ASSERT_OK(store_->Mutate("t", Row("r", {ServerDatedPut("f", "c", "set")})));
  EXPECT_EQ(Newest("r"), std::vector<std::string>{"f:c@" + std::to_string(now) + "=set"});
}

TEST(ClockHorizonUnitTest, KeptMarkOnlyGrowsAndCostsOneWritePerSlack) {
  testutil::TempDir dir;
  leveldb::Options options;
  options.create_if_missing = true;
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(options, dir.path(), &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  std::unique_ptr<ClockHorizon> horizon;
  ASSERT_OK(ClockHorizon::Open(db.get(), kTestNowMs, false, &horizon));
  EXPECT_FALSE(horizon->InRestartWindow(kTestNowMs)) << "nothing kept: no window";

  ClockMarks marks;
  marks.Add("f", "c", false, kTestNowMs + 5);
  ASSERT_OK(horizon->Cover(marks));
  EXPECT_EQ(horizon->kept(), kTestNowMs + 5 + ClockHorizon::kSlackMs);
  marks.Add("f", "c", false, kTestNowMs + 6);  // covered: nothing written
  ASSERT_OK(horizon->Cover(marks));
  EXPECT_EQ(horizon->kept(), kTestNowMs + 5 + ClockHorizon::kSlackMs);
  ClockMarks far;
  far.Add("f", "d", true, INT64_MAX - 1);  // no overflow at the top
  ASSERT_OK(horizon->Cover(far));
  EXPECT_EQ(horizon->kept(), INT64_MAX);

  ClockMarks near;
  near.Add("f", "c", false, kTestNowMs + 2000);
  ASSERT_OK(horizon->Cover(near));
  EXPECT_EQ(horizon->kept(), INT64_MAX) << "a lower mark never lowers the kept one";
  ASSERT_OK(ClockHorizon::Open(db.get(), kTestNowMs, false, &horizon));
  EXPECT_TRUE(horizon->InRestartWindow(kTestNowMs + 1'000'000));
}

TEST(ClockHorizonUnitTest, AStartBeforeTheKeptMarkOpensAWindowUntilTheClockPassesIt) {
  testutil::TempDir dir;
  leveldb::Options options;
  options.create_if_missing = true;
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(options, dir.path(), &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  std::unique_ptr<ClockHorizon> horizon;
  ASSERT_OK(ClockHorizon::Open(db.get(), kTestNowMs, false, &horizon));
  ClockMarks marks;
  marks.Add("f", "c", false, kTestNowMs + 5);
  ASSERT_OK(horizon->Cover(marks));
  const int64_t kept = kTestNowMs + 5 + ClockHorizon::kSlackMs;

  ASSERT_OK(ClockHorizon::Open(db.get(), kTestNowMs + 3, false, &horizon));
  EXPECT_TRUE(horizon->InRestartWindow(kTestNowMs + 3));
  EXPECT_TRUE(horizon->InRestartWindow(kept));
  EXPECT_FALSE(horizon->InRestartWindow(kept + 1));
  ASSERT_OK(ClockHorizon::Open(db.get(), kept + 1, false, &horizon));
  EXPECT_FALSE(horizon->InRestartWindow(kept + 1)) << "a start past it opens none";
}

}  // namespace
}  // namespace hbemu::storage
