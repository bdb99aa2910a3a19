// Read options beyond rows, columns, versions and time range (docs/hbase-semantics.md#time-ranges,
// #batch-caching-and-limit): the per-family cell limit and offset of a Get (Thrift2 TGet.storeLimit
// / storeOffset), per- family time ranges (TScan.colFamTimeRangeMap), the scan row limit
// (TScan.limit) and the `partial` mark of batch pieces. Every expectation was measured on HBase
// 2.6.1 through its Thrift2 gateway with the same data.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/filter_parser.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

using Keys = std::vector<std::string>;

// "f:q@ts" for each cell: the coordinates are what these tests are about.
Keys KeysOf(const std::vector<Cell>& cells) {
  Keys keys;
  for (const Cell& c : cells) {
    keys.push_back(c.family + ":" + c.qualifier + "@" + std::to_string(c.timestamp));
  }
  return keys;
}

class ReadOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    ASSERT_OK(store_->CreateTable("t", {Family("f", 5), Family("g", 5)}));
  }

  // Row r: f:a, f:b, f:c at ts 2 and 1 (six cells), g:a, g:b, g:c at ts 1 (three cells).
  void PutStoreRow() {
    std::vector<ColumnMutation> m;
    for (const char* q : {"a", "b", "c"}) {
      for (int64_t ts : {1, 2}) m.push_back(PutOp("f", q, ts, std::string("v") + q));
      m.push_back(PutOp("g", q, 1, std::string("g") + q));
    }
    ASSERT_OK(store_->Mutate("t", Row("r", std::move(m))));
  }

  Keys Get(const ReadSpec& spec) {
    RowResult result;
    EXPECT_OK(store_->Get("t", "r", spec, &result));
    return KeysOf(result.cells);
  }

  static ReadSpec StoreLimit(int32_t limit, int32_t offset, int32_t versions = 5) {
    ReadSpec spec;
    spec.max_versions = versions;
    spec.store_limit = limit;
    spec.store_offset = offset;
    return spec;
  }

  static ReadSpec WithFilter(ReadSpec spec, const std::string& filter) {
    EXPECT_OK(ParseFilterString(filter, &spec.filter));
    return spec;
  }

  std::vector<RowResult> ScanAll(const ScanSpec& spec, size_t page = 100) {
    std::unique_ptr<Scanner> scanner;
    EXPECT_OK(store_->OpenScanner("t", spec, &scanner));
    std::vector<RowResult> all;
    if (scanner == nullptr) return all;
    for (int guard = 0; guard < 1000; ++guard) {
      std::vector<RowResult> batch;
      EXPECT_OK(scanner->Next(page, &batch));
      if (batch.empty()) break;
      for (auto& r : batch) all.push_back(std::move(r));
    }
    return all;
  }

  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

// ---------------------------------------------------------------- storeLimit / storeOffset

struct StoreLimitCase {
  int32_t limit;
  int32_t offset;
  Keys expected;
};

TEST_F(ReadOptionsTest, StoreLimitAndOffsetCountCellsPerFamilyAsHBaseDoes) {
  PutStoreRow();
  const std::vector<StoreLimitCase> cases = {
      // A limit of 0 returns one cell, exactly like a limit of 1.
      {0, 0, {"f:a@2", "g:a@1"}},
      {0, 2, {"f:b@2", "g:c@1"}},
      {0, 6, {}},
      {1, 0, {"f:a@2", "g:a@1"}},
      {1, 1, {"f:a@1", "g:b@1"}},
      {1, 3, {"f:b@1"}},
      {1, 5, {"f:c@1"}},
      {2, 0, {"f:a@2", "f:a@1", "g:a@1", "g:b@1"}},
      {2, 1, {"f:a@1", "f:b@2", "g:b@1", "g:c@1"}},
      {2, 2, {"f:b@2", "f:b@1", "g:c@1"}},
      {2, 4, {"f:c@2", "f:c@1"}},
      {2, 6, {}},
      // No limit, only an offset.
      {-1, 1, {"f:a@1", "f:b@2", "f:b@1", "f:c@2", "f:c@1", "g:b@1", "g:c@1"}},
      // HBase's client drops a negative offset.
      {2, -1, {"f:a@2", "f:a@1", "g:a@1", "g:b@1"}},
  };
  for (const StoreLimitCase& c : cases) {
    EXPECT_EQ(Get(StoreLimit(c.limit, c.offset)), c.expected)
        << "storeLimit " << c.limit << " storeOffset " << c.offset;
  }
  EXPECT_EQ(Get(StoreLimit(-1, 0)).size(), 9u);
}

TEST_F(ReadOptionsTest, StoreLimitCountsReturnedVersionsNotColumns) {
  PutStoreRow();
  EXPECT_EQ(Get(StoreLimit(2, 0, /*versions=*/1)), (Keys{"f:a@2", "f:b@2", "g:a@1", "g:b@1"}));
}

TEST_F(ReadOptionsTest, StoreLimitCountsCellsThePerCellFilterAccepts) {
  PutStoreRow();
  EXPECT_EQ(Get(WithFilter(StoreLimit(2, 0), "QualifierFilter(>=, 'binary:b')")),
            (Keys{"f:b@2", "f:b@1", "g:b@1", "g:c@1"}));
}

TEST_F(ReadOptionsTest, FilterDoesNotSeeTheCellsOfAFamilyPastItsStoreLimit) {
  PutStoreRow();
  // The family f ends after f:a, so ColumnCountGetFilter has counted one cell when g:a comes.
  EXPECT_EQ(Get(WithFilter(StoreLimit(1, 0, 1), "ColumnCountGetFilter(2)")),
            (Keys{"f:a@2", "g:a@1"}));
  EXPECT_EQ(Get(WithFilter(StoreLimit(-1, 1, 1), "ColumnCountGetFilter(2)")), (Keys{"f:b@2"}));
}

TEST_F(ReadOptionsTest, StoreOffsetHidesCellsButTheRowFilterStillSawThem) {
  PutStoreRow();
  const std::string matches = "SingleColumnValueFilter('f', 'a', =, 'binary:va')";
  EXPECT_EQ(Get(WithFilter(StoreLimit(-1, 1, 1), matches)),
            (Keys{"f:b@2", "f:c@2", "g:b@1", "g:c@1"}));
  const std::string differs = "SingleColumnValueFilter('f', 'a', !=, 'binary:va')";
  EXPECT_EQ(Get(WithFilter(StoreLimit(-1, 1, 1), differs)), Keys{});
}

TEST_F(ReadOptionsTest, StoreLimitWithColumnsAndExactTimestamp) {
  PutStoreRow();
  ReadSpec spec = StoreLimit(1, 0, 1);
  spec.columns.AddColumn("f", "b");
  spec.columns.AddFamily("g");
  EXPECT_EQ(Get(spec), (Keys{"f:b@2", "g:a@1"}));
  spec = StoreLimit(1, 0, 1);
  spec.time_range = {1, 2};
  EXPECT_EQ(Get(spec), (Keys{"f:a@1", "g:a@1"}));
}

// ---------------------------------------------------------------- family time ranges

class FamilyTimeRangeTest : public ReadOptionsTest {
 protected:
  void SetUp() override {
    ReadOptionsTest::SetUp();
    for (const char* row : {"r1", "r2"}) {
      std::vector<ColumnMutation> m;
      for (int64_t ts : {10, 20, 30}) {
        m.push_back(PutOp("f", "a", ts, "f" + std::to_string(ts)));
        m.push_back(PutOp("g", "a", ts, "g" + std::to_string(ts)));
      }
      ASSERT_OK(store_->Mutate("t", Row(row, std::move(m))));
    }
    ASSERT_OK(store_->Mutate("t", Row("r3", {PutOp("g", "a", 30, "g30")})));
  }

  std::vector<std::string> ScanKeys(const ScanSpec& spec) {
    std::vector<std::string> out;
    for (const RowResult& r : ScanAll(spec)) {
      for (const std::string& k : KeysOf(r.cells)) out.push_back(r.row + "/" + k);
    }
    return out;
  }
};

TEST_F(FamilyTimeRangeTest, AFamilyRangeReplacesTheScanRangeForThatFamilyOnly) {
  ScanSpec spec;
  spec.read.family_time_ranges["f"] = {15, 25};
  EXPECT_EQ(ScanKeys(spec), (std::vector<std::string>{"r1/f:a@20", "r1/g:a@30", "r2/f:a@20",
                                                      "r2/g:a@30", "r3/g:a@30"}));
  spec.read.time_range = {0, 15};
  EXPECT_EQ(ScanKeys(spec),
            (std::vector<std::string>{"r1/f:a@20", "r1/g:a@10", "r2/f:a@20", "r2/g:a@10"}));
  spec.read.max_versions = 5;
  spec.read.time_range = {25, 100};
  spec.read.family_time_ranges = {{"g", {0, 25}}};
  EXPECT_EQ(ScanKeys(spec), (std::vector<std::string>{"r1/f:a@30", "r1/g:a@20", "r1/g:a@10",
                                                      "r2/f:a@30", "r2/g:a@20", "r2/g:a@10"}));
}

TEST_F(FamilyTimeRangeTest, AnUnknownFamilyIsIgnoredAndAnEmptyRangeHidesTheFamily) {
  ScanSpec spec;
  spec.read.family_time_ranges["zz"] = {0, 15};
  EXPECT_EQ(ScanKeys(spec).size(), 5u);
  spec.read.family_time_ranges = {{"f", {15, 15}}};
  EXPECT_EQ(ScanKeys(spec),
            (std::vector<std::string>{"r1/g:a@30", "r2/g:a@30", "r3/g:a@30"}));
}

TEST_F(FamilyTimeRangeTest, WithAFilterOlderVersionsInsideTheFamilyRangeReachIt) {
  ScanSpec spec;
  spec.read.family_time_ranges["f"] = {0, 15};
  ASSERT_OK(ParseFilterString("ValueFilter(=, 'substring:1')", &spec.read.filter));
  EXPECT_EQ(ScanKeys(spec),
            (std::vector<std::string>{"r1/f:a@10", "r1/g:a@10", "r2/f:a@10", "r2/g:a@10"}));
}

TEST_F(FamilyTimeRangeTest, DeleteMarkersOutsideTheFamilyRangeStillMask) {
  ASSERT_OK(store_->Mutate("t", Row("r2", {testutil::DeleteOp(MutationType::kDeleteColumn,
                                                              "f", "a", 25)})));
  ScanSpec spec;
  spec.start_row = "r2";
  spec.stop_row = "r3";
  spec.read.max_versions = 5;
  spec.read.family_time_ranges["f"] = {0, 20};
  EXPECT_EQ(ScanKeys(spec),
            (std::vector<std::string>{"r2/g:a@30", "r2/g:a@20", "r2/g:a@10"}));
}

TEST_F(FamilyTimeRangeTest, InvalidFamilyRangesAreRejected) {
  ScanSpec spec;
  spec.read.family_time_ranges["f"] = {-1, 15};
  std::unique_ptr<Scanner> scanner;
  EXPECT_CODE(kInvalidArgument, store_->OpenScanner("t", spec, &scanner));
  spec.read.family_time_ranges["f"] = {20, 15};
  EXPECT_CODE(kIOError, store_->OpenScanner("t", spec, &scanner));
}

// ---------------------------------------------------------------- limit and partial

class ScanLimitTest : public ReadOptionsTest {
 protected:
  void SetUp() override {
    ReadOptionsTest::SetUp();
    PutWide("a", 5);
    PutWide("b", 4);
    PutWide("c", 1);
    ASSERT_OK(store_->Mutate("t", Row("d", {PutOp("f", "0", 1, "v"), PutOp("g", "0", 1, "v")})));
  }

  void PutWide(const std::string& row, int cells) {
    std::vector<ColumnMutation> m;
    for (int i = 0; i < cells; ++i) m.push_back(PutOp("f", std::to_string(i), 1, "v"));
    ASSERT_OK(store_->Mutate("t", Row(row, std::move(m))));
  }

  // "row:cells" per result, with "+" for a partial one.
  std::vector<std::string> Shape(const std::vector<RowResult>& results) {
    std::vector<std::string> out;
    for (const RowResult& r : results) {
      out.push_back(r.row + ":" + std::to_string(r.cells.size()) + (r.partial ? "+" : ""));
    }
    return out;
  }
};

TEST_F(ScanLimitTest, BatchPiecesAreMarkedPartialExceptTheLastOfEachRow) {
  ScanSpec spec;
  spec.batch = 2;
  // b has exactly two full pieces: its second is the last, so not partial.
  EXPECT_EQ(Shape(ScanAll(spec)),
            (std::vector<std::string>{"a:2+", "a:2+", "a:1", "b:2+", "b:2", "c:1", "d:2"}));
  spec.batch = 3;
  EXPECT_EQ(Shape(ScanAll(spec, 1)),
            (std::vector<std::string>{"a:3+", "a:2", "b:3+", "b:1", "c:1", "d:2"}));
  spec.batch = 0;
  EXPECT_EQ(Shape(ScanAll(spec)), (std::vector<std::string>{"a:5", "b:4", "c:1", "d:2"}));
}

TEST_F(ScanLimitTest, APieceThatFillsTheBatchIsPartialWhenHiddenCellsOfItsRowFollow) {
  // HBase's store scanner stops right after the batch's last cell and reports "more cells in
  // this row" when the next stored cell is in the row, even one the read would never return;
  // its client drops the mark when the scan ends with that row.
  ASSERT_OK(store_->CreateTable("h", {Family("f", 1)}));
  std::vector<ColumnMutation> a;
  for (int i = 0; i < 4; ++i) a.push_back(PutOp("f", std::to_string(i), 1, "v"));
  ASSERT_OK(store_->Mutate("h", Row("a", std::move(a))));
  ASSERT_OK(store_->Mutate("h", Row("a", {PutOp("f", "3", 2, "new")})));  // f:3@1 is surplus
  std::vector<ColumnMutation> b;
  for (int i = 0; i < 5; ++i) b.push_back(PutOp("f", std::to_string(i), 1, "v"));
  ASSERT_OK(store_->Mutate("h", Row("b", std::move(b))));
  ASSERT_OK(store_->Mutate(
      "h", Row("b", {testutil::DeleteOp(MutationType::kDeleteColumn, "f", "4", 5)})));
  ASSERT_OK(store_->Mutate("h", Row("c", {PutOp("f", "0", 1, "v")})));
  ScanSpec spec;
  spec.batch = 2;
  std::unique_ptr<Scanner> scanner;
  ASSERT_OK(store_->OpenScanner("h", spec, &scanner));
  std::vector<RowResult> results;
  ASSERT_OK(scanner->Next(100, &results));
  EXPECT_EQ(Shape(results),
            (std::vector<std::string>{"a:2+", "a:2+", "b:2+", "b:2+", "c:1"}));
  spec.reversed = true;
  ASSERT_OK(store_->OpenScanner("h", spec, &scanner));
  results.clear();
  ASSERT_OK(scanner->Next(100, &results));
  EXPECT_EQ(Shape(results),
            (std::vector<std::string>{"c:1", "b:2+", "b:2+", "a:2+", "a:2"}));
  // Row by row, the row read ahead to tell the scan goes on is still returned in its turn.
  spec.reversed = false;
  ASSERT_OK(store_->OpenScanner("h", spec, &scanner));
  results.clear();
  for (int i = 0; i < 6; ++i) ASSERT_OK(scanner->Next(1, &results));
  EXPECT_EQ(Shape(results),
            (std::vector<std::string>{"a:2+", "a:2+", "b:2+", "b:2+", "c:1"}));
  spec.stop_row = "c";  // b ends the scan now
  ASSERT_OK(store_->OpenScanner("h", spec, &scanner));
  results.clear();
  ASSERT_OK(scanner->Next(100, &results));
  EXPECT_EQ(Shape(results), (std::vector<std::string>{"a:2+", "a:2+", "b:2+", "b:2"}));
}

TEST_F(ScanLimitTest, LimitCountsRowsAndEveryPieceOfTheLastRowComesOut) {
  ScanSpec spec;
  spec.limit = 2;
  EXPECT_EQ(Shape(ScanAll(spec)), (std::vector<std::string>{"a:5", "b:4"}));
  spec.batch = 2;
  EXPECT_EQ(Shape(ScanAll(spec, 1)),
            (std::vector<std::string>{"a:2+", "a:2+", "a:1", "b:2+", "b:2"}));
  spec.limit = 1;
  EXPECT_EQ(Shape(ScanAll(spec)), (std::vector<std::string>{"a:2+", "a:2+", "a:1"}));
}

TEST_F(ScanLimitTest, LimitAppliesAcrossNextCallsReversedAndAfterFilters) {
  ScanSpec spec;
  spec.limit = 3;
  std::unique_ptr<Scanner> scanner;
  ASSERT_OK(store_->OpenScanner("t", spec, &scanner));
  std::vector<RowResult> page;
  ASSERT_OK(scanner->Next(2, &page));
  EXPECT_EQ(Shape(page), (std::vector<std::string>{"a:5", "b:4"}));
  page.clear();
  ASSERT_OK(scanner->Next(2, &page));
  EXPECT_EQ(Shape(page), (std::vector<std::string>{"c:1"}));
  page.clear();
  ASSERT_OK(scanner->Next(2, &page));
  EXPECT_TRUE(page.empty());

  ScanSpec reversed;
  reversed.reversed = true;
  reversed.limit = 2;
  EXPECT_EQ(Shape(ScanAll(reversed)), (std::vector<std::string>{"d:2", "c:1"}));

  // Rows the filter or the column selection drop do not count.
  ScanSpec filtered;
  filtered.limit = 2;
  filtered.read.columns.AddFamily("g");
  ASSERT_OK(ParseFilterString("QualifierFilter(=, 'binary:0')", &filtered.read.filter));
  EXPECT_EQ(Shape(ScanAll(filtered)), (std::vector<std::string>{"d:1"}));
}

TEST_F(ScanLimitTest, ANonPositiveLimitMeansNone) {
  for (int32_t limit : {0, -1}) {
    ScanSpec spec;
    spec.limit = limit;
    EXPECT_EQ(ScanAll(spec).size(), 4u) << "limit " << limit;
  }
}

}  // namespace
}  // namespace hbemu::storage
