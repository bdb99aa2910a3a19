// How the server dates writes that carry no timestamp (storage/mutation_build.h,
// storage/row_clock.h), through the Store facade with a ManualClock.
//
// Real HBase 2.6.1 (Thrift1 and Thrift2 gateways, asked on 2026-11-26):
// - increment/append over a cell at ts o is dated max(now, o + 1), per column: over f:a at
//   INT64_MAX - 1 the new cell is at INT64_MAX; HBase's Get and Scan show it (Thrift1 getVer does
//   not), but the next increment reads the INT64_MAX - 1 cell again: 6, 6, 6 (lost updates).
//   Over INT64_MAX - 2: 6 @ MAX-1, then 7 @ MAX, then 7 @ MAX again.
// - a later put of another column, or of the same one, without a timestamp is dated now (the
//   same column then stays hidden behind the counter), and so is an increment of another column.
// - after put f:a @now+1d, append f:a is dated now+1d+1; every later server-dated write of the
//   row (put, checkAndPut, checkAndMutate, mutateRow, append/increment of other columns, another
//   row) is dated now; an increment of one future cell and one absent column in one call:
//   old+1 and now.
// - checkAndPut over a future-dated checked cell dates the put at that cell's ts.
// This store never dates a write INT64_MAX, which no read range here includes: where HBase
// would, the cell is dated INT64_MAX - 1 (COMPATIBILITY.md, Judgement calls).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/coding.h"
#include "storage/mutation_build.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellStrings;
using testutil::DeleteOp;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;
using Cells = std::vector<std::string>;

constexpr int64_t kNow = kTestNowMs;
constexpr int64_t kDayMs = 86400 * 1000;
constexpr int64_t kMax = INT64_MAX;

std::string Long(int64_t v) {
  std::string s;
  PutFixed64BE(&s, static_cast<uint64_t>(v));
  return s;
}

std::string At(int64_t ts) { return std::to_string(ts); }
// A counter's value as CellStrings shows it.
std::string Shown(int64_t v) { return testutil::Escape(Long(v)); }

class WriteTimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    ASSERT_OK(store_->CreateTable("t", {Family("f", 5), Family("g", 5)}));
    ASSERT_OK(store_->CreateTable("u", {Family("f", 5)}));
  }

  Status Put(const std::string& row, const std::string& qualifier, int64_t ts,
             const std::string& value, const std::string& table = "t") {
    return store_->Mutate(table, Row(row, {PutOp("f", qualifier, ts, value)}));
  }
  Cells Get(const std::string& row, int versions = 1, const std::string& table = "t") {
    ReadSpec spec;
    spec.max_versions = versions;
    RowResult result;
    EXPECT_OK(store_->Get(table, row, spec, &result));
    return CellStrings(result.cells);
  }
  // The new cell of one increment, as "f:q@ts=value" with the value as a number.
  std::string Increment(const std::string& row, const std::string& qualifier) {
    std::vector<Cell> cells;
    EXPECT_OK(store_->Increment("t", row, {{"f", qualifier, 1}}, &cells));
    if (cells.size() != 1) return "?";
    return "f:" + qualifier + "@" + At(cells[0].timestamp) + "=" +
           std::to_string(static_cast<int64_t>(DecodeFixed64BE(cells[0].value.data())));
  }
  int64_t AppendTs(const std::string& row, const std::string& qualifier, const std::string& v) {
    std::vector<Cell> cells;
    EXPECT_OK(store_->Append("t", row, {{"f", qualifier, v}}, &cells));
    return cells.size() == 1 ? cells[0].timestamp : -1;
  }

  ManualClock clock_{kNow};
  std::unique_ptr<Store> store_;
};

// ---------------------------------------------------------------- INT64_MAX

TEST_F(WriteTimeTest, IncrementOverACellAtMaxMinusOneStaysVisibleAndKeepsCounting) {
  ASSERT_OK(Put("r", "a", kMax - 1, Long(5)));
  EXPECT_EQ(Increment("r", "a"), "f:a@" + At(kMax - 1) + "=6");
  EXPECT_EQ(Get("r"), (Cells{"f:a@" + At(kMax - 1) + "=" + Shown(6)}))
      << "the read shows what the increment answered";
  EXPECT_EQ(Increment("r", "a"), "f:a@" + At(kMax - 1) + "=7") << "no lost update";
  EXPECT_EQ(Increment("r", "a"), "f:a@" + At(kMax - 1) + "=8");
}

TEST_F(WriteTimeTest, IncrementOverACellAtMaxMinusTwoStopsBelowMax) {
  ASSERT_OK(Put("r", "a", kMax - 2, Long(5)));
  EXPECT_EQ(Increment("r", "a"), "f:a@" + At(kMax - 1) + "=6");
  EXPECT_EQ(Increment("r", "a"), "f:a@" + At(kMax - 1) + "=7");
  EXPECT_EQ(Get("r", 5).size(), 2u) << "the MAX-2 version stays below the counter";
}

TEST_F(WriteTimeTest, AppendOverACellAtMaxMinusOneStaysVisible) {
  ASSERT_OK(Put("r", "s", kMax - 1, "x"));
  EXPECT_EQ(AppendTs("r", "s", "y"), kMax - 1);
  EXPECT_EQ(AppendTs("r", "s", "z"), kMax - 1);
  EXPECT_EQ(Get("r"), (Cells{"f:s@" + At(kMax - 1) + "=xyz"}));
}

TEST_F(WriteTimeTest, WritesAfterAnIncrementAtMaxAreDatedNowAsInHBase) {
  ASSERT_OK(Put("r", "a", kMax - 1, Long(5)));
  Increment("r", "a");
  ASSERT_OK(Put("r", "b", kLatestTimestamp, "b"));
  EXPECT_EQ(Increment("r", "c"), "f:c@" + At(kNow) + "=1");
  ASSERT_OK(Put("r", "a", kLatestTimestamp, "hidden"));
  EXPECT_EQ(Get("r", 5), (Cells{"f:a@" + At(kMax - 1) + "=" + Shown(6),
                                "f:a@" + At(kNow) + "=hidden", "f:b@" + At(kNow) + "=b",
                                "f:c@" + At(kNow) + "=" + Shown(1)}))
      << "HBase also dates the put now, below the counter";
}

// A cell at INT64_MAX (written by an earlier version of this server) is outside every read,
// so an increment starts from the newest visible cell; nothing overflows.
TEST_F(WriteTimeTest, IncrementNeverOverflowsPastMax) {
  bool mark = true;
  const WriteTime time{kNow, nullptr, 0};
  EXPECT_EQ(ReadModifyWriteTimestamp(time, ClockMarks::kNone, kMax, &mark), kMax - 1);
  EXPECT_FALSE(mark);
  EXPECT_EQ(ReadModifyWriteTimestamp(time, ClockMarks::kNone, kMax - 1, &mark), kMax - 1);
  EXPECT_EQ(time.After(kMax - 1), kMax - 1);
  EXPECT_EQ(time.After(kMax), kMax - 1);
}

// ---------------------------------------------------------------- the dating rule itself

TEST_F(WriteTimeTest, ReadModifyWriteIsMarkedOnlyWhenTheServersPaceRanItAhead) {
  const WriteTime time{kNow, nullptr, 0};
  bool mark = true;
  EXPECT_EQ(ReadModifyWriteTimestamp(time, ClockMarks::kNone, std::nullopt, &mark), kNow);
  EXPECT_FALSE(mark) << "a new cell at now is not ahead";
  EXPECT_EQ(ReadModifyWriteTimestamp(time, ClockMarks::kNone, kNow - 5, &mark), kNow);
  EXPECT_FALSE(mark);
  EXPECT_EQ(ReadModifyWriteTimestamp(time, ClockMarks::kNone, kNow, &mark), kNow + 1);
  EXPECT_TRUE(mark) << "a cell dated now by this server, then one more call in the same ms";
  EXPECT_EQ(ReadModifyWriteTimestamp(time, kNow + 3, kNow + 3, &mark), kNow + 4);
  EXPECT_TRUE(mark) << "a chain the server ran ahead goes on";
  EXPECT_EQ(ReadModifyWriteTimestamp(time, kNow + 3, std::nullopt, &mark), kNow + 4);
  EXPECT_TRUE(mark) << "past a delete marker the server ran ahead";
  EXPECT_EQ(ReadModifyWriteTimestamp(time, ClockMarks::kNone, kNow + 3, &mark), kNow + 4);
  EXPECT_FALSE(mark) << "the client dated that cell ahead: HBase's later writes stay at now";
  EXPECT_EQ(ReadModifyWriteTimestamp(time, kNow + 1, kNow + kDayMs, &mark), kNow + kDayMs + 1);
  EXPECT_FALSE(mark);
}

TEST_F(WriteTimeTest, AServerDatedWriteGoesOnePastAMarkThatIsNotBehindTheClock) {
  const WriteTime time{kNow, nullptr, 0};
  EXPECT_EQ(time.After(ClockMarks::kNone), kNow);
  EXPECT_EQ(time.After(kNow - 1), kNow);
  EXPECT_EQ(time.After(kNow), kNow + 1);
  EXPECT_EQ(time.After(kNow + 7), kNow + 8);
}

// ---------------------------------------------------------------- future-dated cells

TEST_F(WriteTimeTest, AppendOverAFutureCellLeavesEveryOtherWriteAtNow) {
  const int64_t future = kNow + kDayMs;
  ASSERT_OK(Put("r", "a", future, "x"));
  EXPECT_EQ(AppendTs("r", "a", "y"), future + 1) << "HRegion.reckonDelta: old + 1";
  ASSERT_OK(Put("r", "p", kLatestTimestamp, "p"));
  bool applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "p", CompareOp::kEqual, std::string("p"),
                                   Row("r", {PutOp("f", "q", kLatestTimestamp, "q")}), &applied));
  ASSERT_TRUE(applied);
  ASSERT_OK(store_->MutateRows("t", {Row("r", {PutOp("f", "m", kLatestTimestamp, "m")})}));
  EXPECT_EQ(AppendTs("r", "o", "o"), kNow);
  EXPECT_EQ(Increment("r", "i"), "f:i@" + At(kNow) + "=1");
  ASSERT_OK(Put("s", "a", kLatestTimestamp, "other row"));
  ASSERT_OK(Put("r", "a", kLatestTimestamp, "other table", "u"));
  EXPECT_EQ(Get("r"),
            (Cells{"f:a@" + At(future + 1) + "=xy", "f:i@" + At(kNow) + "=" + Shown(1),
                   "f:m@" + At(kNow) + "=m", "f:o@" + At(kNow) + "=o",
                   "f:p@" + At(kNow) + "=p", "f:q@" + At(kNow) + "=q"}));
  EXPECT_EQ(Get("s"), (Cells{"f:a@" + At(kNow) + "=other row"}));
  EXPECT_EQ(Get("r", 1, "u"), (Cells{"f:a@" + At(kNow) + "=other table"}));
}

TEST_F(WriteTimeTest, APutOfTheFutureDatedColumnStaysBelowItAsInHBase) {
  const int64_t future = kNow + kDayMs;
  ASSERT_OK(Put("r", "n", future, Long(1)));
  EXPECT_EQ(Increment("r", "n"), "f:n@" + At(future + 1) + "=2");
  ASSERT_OK(Put("r", "n", kLatestTimestamp, Long(100)));
  EXPECT_EQ(Increment("r", "n"), "f:n@" + At(future + 2) + "=3");
}

TEST_F(WriteTimeTest, OneIncrementOfAFutureAndAnAbsentColumnDatesEachOnItsOwn) {
  const int64_t future = kNow + kDayMs;
  ASSERT_OK(Put("r", "n", future, Long(1)));
  std::vector<Cell> cells;
  ASSERT_OK(store_->Increment("t", "r", {{"f", "n", 1}, {"f", "i", 1}}, &cells));
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].qualifier + "@" + At(cells[0].timestamp), "i@" + At(kNow));
  EXPECT_EQ(cells[1].qualifier + "@" + At(cells[1].timestamp), "n@" + At(future + 1));
}

// ---------------------------------------------------------------- the server's own pace

// HBase calls take a millisecond or more; here a chain of increments within one millisecond
// runs ahead of the clock (max(now, old + 1)). happybase's counter test then sets the counter
// with a put at "now" and increments again: the put must be the newest version, as in HBase.
TEST_F(WriteTimeTest, APutAfterAFastIncrementChainIsTheNewestVersionOfThatColumn) {
  std::string last;
  for (int i = 0; i < 5; ++i) last = Increment("r", "n");
  EXPECT_EQ(last, "f:n@" + At(kNow + 4) + "=5") << "the chain ran ahead of the clock";
  ASSERT_OK(Put("r", "n", kLatestTimestamp, Long(0)));
  EXPECT_EQ(Increment("r", "n"), "f:n@" + At(kNow + 6) + "=1");
  EXPECT_EQ(Get("r", 5).front(), "f:n@" + At(kNow + 6) + "=" + Shown(1));
  EXPECT_EQ(Get("r", 5).size(), 5u) << "every version kept, as one call per millisecond would";
}

TEST_F(WriteTimeTest, AFastChainMovesNoOtherColumnRowOrTable) {
  for (int i = 0; i < 5; ++i) Increment("r", "n");
  ASSERT_OK(Put("r", "b", kLatestTimestamp, "b"));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("g", "n", kLatestTimestamp, "g")})));
  EXPECT_EQ(AppendTs("r", "o", "o"), kNow);
  ASSERT_OK(Put("s", "n", kLatestTimestamp, "s"));
  ASSERT_OK(Put("r", "n", kLatestTimestamp, "u", "u"));
  EXPECT_EQ(Get("r"), (Cells{"f:b@" + At(kNow) + "=b",
                             "f:n@" + At(kNow + 4) + "=" + Shown(5),
                             "f:o@" + At(kNow) + "=o", "g:n@" + At(kNow) + "=g"}));
  EXPECT_EQ(Get("s"), (Cells{"f:n@" + At(kNow) + "=s"}));
  EXPECT_EQ(Get("r", 1, "u"), (Cells{"f:n@" + At(kNow) + "=u"}));
}

TEST_F(WriteTimeTest, DeletesAtNowMaskAFastChain) {
  for (int i = 0; i < 3; ++i) Increment("r", "n");
  ASSERT_OK(store_->Mutate("t", Row("r", {DeleteOp(MutationType::kDeleteColumn, "f", "n")})));
  EXPECT_EQ(Get("r"), Cells{}) << "a column delete at now masks the whole chain";
  EXPECT_EQ(Increment("r", "n"), "f:n@" + At(kNow + 4) + "=1") << "and counting restarts above it";

  for (int i = 0; i < 3; ++i) Increment("r", "m");
  ASSERT_OK(store_->Mutate("t", Row("r", {DeleteOp(MutationType::kDeleteFamily, "f")})));
  EXPECT_EQ(Get("r"), Cells{}) << "so does a family delete";
  ASSERT_OK(Put("r", "x", kLatestTimestamp, "x"));
  EXPECT_EQ(Get("r").size(), 1u) << "a put of any column of the family lands above it";

  for (int i = 0; i < 3; ++i) Increment("q", "n");
  ASSERT_OK(store_->Mutate("t", Row("q", {DeleteOp(MutationType::kDeleteRow, "", "")})));
  EXPECT_EQ(Get("q"), Cells{}) << "and a row delete";
}

TEST_F(WriteTimeTest, OnceTheClockCatchesUpWritesAreDatedNowAgain) {
  for (int i = 0; i < 3; ++i) Increment("r", "n");  // newest at kNow + 2
  clock_.Advance(10);
  ASSERT_OK(Put("r", "n", kLatestTimestamp, Long(0)));
  EXPECT_EQ(Get("r"), (Cells{"f:n@" + At(kNow + 10) + "=" + Shown(0)}));
}

TEST_F(WriteTimeTest, CheckAndPutOverAFutureCellIsDatedAtThatCellAsInHBase) {
  const int64_t future = kNow + kDayMs;
  ASSERT_OK(Put("r", "a", future, "x"));
  bool applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "a", CompareOp::kEqual, std::string("x"),
                                   Row("r", {PutOp("f", "a", kLatestTimestamp, "y")}), &applied));
  ASSERT_TRUE(applied);
  EXPECT_EQ(Get("r", 5), (Cells{"f:a@" + At(future) + "=y"}));
  ASSERT_OK(Put("r", "b", kLatestTimestamp, "b"));
  EXPECT_EQ(Get("r", 5).back(), "f:b@" + At(kNow) + "=b") << "and leaves no mark";
}

// The Java round trip's sequence, frozen in one millisecond: two quick appends run f:s ahead of
// the clock, checkAndPut raises its put of f:p to f:s's date, and a checkAndDelete of f:p at
// "now" must still land above that put (on main before this it did not: the delete was dated
// now, below the raised put, and f:p survived its delete whenever the calls shared a millisecond).
TEST_F(WriteTimeTest, APutRaisedToAFastChainsCellIsMaskedByALaterDeleteAtNow) {
  ASSERT_GT(AppendTs("r", "s", "ab"), 0);
  ASSERT_EQ(AppendTs("r", "s", "cd"), kNow + 1);
  bool applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "s", CompareOp::kEqual, std::string("abcd"),
                                   Row("r", {PutOp("f", "p", kLatestTimestamp, "1")}), &applied));
  ASSERT_TRUE(applied);
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "p", CompareOp::kEqual, std::string("1"),
                                   Row("r", {DeleteOp(MutationType::kDeleteColumn, "f", "p")}),
                                   &applied));
  ASSERT_TRUE(applied);
  for (const std::string& cell : Get("r", 5)) EXPECT_EQ(cell.rfind("f:p", 0), std::string::npos) << cell;
}

}  // namespace
}  // namespace hbemu::storage

namespace hbemu::storage {
namespace {

// The test controls' frozen clock (ControlledClock::Freeze): time stands still, yet HBase's
// calls are never in one millisecond, so each server-dated write of a column goes one past the
// previous one, and a put after a delete is not masked by it.
class FrozenWriteTimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(clock_.Freeze(kNow));
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    ASSERT_OK(store_->CreateTable("t", {Family("f", 5)}));
  }
  Status Put(const std::string& qualifier, const std::string& value) {
    return store_->Mutate("t", Row("r", {PutOp("f", qualifier, kLatestTimestamp, value)}));
  }
  Cells Get(int versions = 1) {
    ReadSpec spec;
    spec.max_versions = versions;
    RowResult result;
    EXPECT_OK(store_->Get("t", "r", spec, &result));
    return CellStrings(result.cells);
  }

  ControlledClock clock_;
  std::unique_ptr<Store> store_;
};

TEST_F(FrozenWriteTimeTest, APutAfterADeleteInFrozenTimeIsVisible) {
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(store_->Mutate("t", Row("r", {DeleteOp(MutationType::kDeleteRow, "", "")})));
  EXPECT_EQ(Get(), Cells{});
  ASSERT_OK(Put("a", "2"));
  EXPECT_EQ(Get(), (Cells{"f:a@" + At(kNow + 2) + "=2"}));
}

TEST_F(FrozenWriteTimeTest, RepeatedPutsOfAColumnKeepEveryVersion) {
  for (const char* v : {"1", "2", "3"}) ASSERT_OK(Put("a", v));
  EXPECT_EQ(Get(5), (Cells{"f:a@" + At(kNow + 2) + "=3", "f:a@" + At(kNow + 1) + "=2",
                           "f:a@" + At(kNow) + "=1"}));
  // Other columns start at the frozen time itself.
  ASSERT_OK(Put("b", "x"));
  EXPECT_EQ(Get().back(), "f:b@" + At(kNow) + "=x");
}

TEST_F(FrozenWriteTimeTest, ACounterSetAfterAnIncrementIsTheNewestVersion) {
  std::vector<Cell> cells;
  ASSERT_OK(store_->Increment("t", "r", {{"f", "n", 1}}, &cells));
  ASSERT_OK(Put("n", Long(5)));
  EXPECT_EQ(Get(), (Cells{"f:n@" + At(kNow + 1) + "=" + Shown(5)}));
}

TEST_F(FrozenWriteTimeTest, AdvancingTheClockDatesWritesAtTheNewTime) {
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(Put("a", "2"));
  ASSERT_OK(clock_.Advance(kDayMs));
  ASSERT_OK(Put("a", "3"));
  EXPECT_EQ(Get(), (Cells{"f:a@" + At(kNow + kDayMs) + "=3"}));
}

}  // namespace
}  // namespace hbemu::storage
