// Scanners over the Store facade (docs/hbase-semantics.md#scans; golden cases G10, G11, G32-G37,
// G41): row bounds forward and reversed, prefixes, unsigned row order, batching, paging, snapshot
// reads, and a randomised forward/reverse agreement check over rows rich in 0x00/0xFF.

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/filter_parser.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellStrings;
using testutil::DeleteOp;
using testutil::Escape;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

using namespace std::string_literals;
using Rows = std::vector<std::string>;

ScanSpec Forward(std::string start = "", std::string stop = "") {
  ScanSpec spec;
  spec.start_row = std::move(start);
  spec.stop_row = std::move(stop);
  return spec;
}

ScanSpec Reverse(std::string start = "", std::string stop = "") {
  ScanSpec spec = Forward(std::move(start), std::move(stop));
  spec.reversed = true;
  return spec;
}

ScanSpec WithPrefix(std::string prefix) {
  ScanSpec spec;
  spec.start_row = prefix;  // as Thrift1 scannerOpenWithPrefix does
  spec.row_prefix = std::move(prefix);
  return spec;
}

class ScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    ASSERT_OK(store_->CreateTable("t", {Family("f", 3), Family("g")}));
  }

  void PutRows(const std::vector<std::string>& rows, const std::string& table = "t") {
    for (const auto& r : rows) ASSERT_OK(store_->Mutate(table, Row(r, {PutOp("f", "q", 1, r)})));
  }

  // Reads the scan to exhaustion, `page` results per Next call.
  std::vector<RowResult> ScanAll(const ScanSpec& spec, size_t page = 100,
                                 const std::string& table = "t") {
    std::unique_ptr<Scanner> scanner;
    const Status s = store_->OpenScanner(table, spec, &scanner);
    EXPECT_OK(s);
    if (!s.ok()) return {};
    std::vector<RowResult> all;
    for (int guard = 0; guard < 100000; ++guard) {
      std::vector<RowResult> batch;
      EXPECT_OK(scanner->Next(page, &batch));
      EXPECT_LE(batch.size(), page);
      if (batch.empty()) break;
      for (auto& r : batch) all.push_back(std::move(r));
    }
    return all;
  }

  // Row keys of a scan, escaped for readable failures.
  Rows ScanRows(const ScanSpec& spec, size_t page = 100, const std::string& table = "t") {
    Rows rows;
    for (const auto& r : ScanAll(spec, page, table)) {
      EXPECT_FALSE(r.cells.empty()) << "empty result for row " << Escape(r.row);
      rows.push_back(Escape(r.row));
    }
    return rows;
  }

  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

class BoundsScanTest : public ScanTest {
 protected:
  void SetUp() override {
    ScanTest::SetUp();
    PutRows({"d", "a", "ba", "b", "c", "b1"});  // written out of order on purpose
  }
};

TEST_F(BoundsScanTest, ForwardScanIsStartInclusiveStopExclusive) {
  // G32
  EXPECT_EQ(ScanRows(Forward("b", "c")), (Rows{"b", "b1", "ba"}));
}

TEST_F(BoundsScanTest, ForwardScanFromAbsentStartRowBeginsAtNextRow) {
  // G33
  EXPECT_EQ(ScanRows(Forward("bb", "")), (Rows{"c", "d"}));
}

TEST_F(BoundsScanTest, UnboundedScanReturnsEveryRow) {
  // G34
  EXPECT_EQ(ScanRows(Forward()), (Rows{"a", "b", "b1", "ba", "c", "d"}));
}

TEST_F(BoundsScanTest, ReversedScanRunsFromStartDownToExclusiveStop) {
  // G35
  EXPECT_EQ(ScanRows(Reverse("c", "b")), (Rows{"c", "ba", "b1"}));
  EXPECT_EQ(ScanRows(Reverse()), (Rows{"d", "c", "ba", "b1", "b", "a"}));
  EXPECT_EQ(ScanRows(Reverse("b1", "")), (Rows{"b1", "b", "a"}));
  EXPECT_EQ(ScanRows(Reverse("", "b1")), (Rows{"d", "c", "ba"}));
  EXPECT_EQ(ScanRows(Reverse("bb", "")), (Rows{"ba", "b1", "b", "a"}));  // absent start row
}

TEST_F(BoundsScanTest, PrefixScanReturnsOnlyRowsWithPrefix) {
  // G36
  EXPECT_EQ(ScanRows(WithPrefix("b")), (Rows{"b", "b1", "ba"}));
  EXPECT_EQ(ScanRows(WithPrefix("b1")), (Rows{"b1"}));
  EXPECT_EQ(ScanRows(WithPrefix("z")), Rows{});
  EXPECT_EQ(ScanRows(WithPrefix("")), (Rows{"a", "b", "b1", "ba", "c", "d"}));
}

TEST_F(BoundsScanTest, PrefixAndStartRowCombine) {
  ScanSpec spec = WithPrefix("b");
  spec.start_row = "b1";
  EXPECT_EQ(ScanRows(spec), (Rows{"b1", "ba"}));
}

TEST_F(BoundsScanTest, InvertedBoundsReturnNothing) {
  // docs/hbase-semantics.md#row-bounds: a forward scan whose stop sorts before its start returns no
  // rows.
  EXPECT_EQ(ScanRows(Forward("c", "b")), Rows{});
  EXPECT_EQ(ScanRows(Reverse("b", "c")), Rows{});
}

// HBase 2 keeps the old rule that a start equal to its stop is a get of that row (checked
// against 2.6.1, Thrift1 and Thrift2, both directions).
TEST_F(BoundsScanTest, StartEqualToStopReadsThatRow) {
  EXPECT_EQ(ScanRows(Forward("b", "b")), Rows{"b"});
  EXPECT_EQ(ScanRows(Reverse("b", "b")), Rows{"b"});
  EXPECT_EQ(ScanRows(Forward("bb", "bb")), Rows{});
}

TEST_F(ScanTest, RowsSortAsUnsignedBytes) {
  // G10
  PutRows({"\xff"s, "\x80"s, "a"s, "\x7f"s, "\x01"s});
  EXPECT_EQ(ScanRows(Forward()), (Rows{"\\x01", "a", "\\x7f", "\\x80", "\\xff"}));
  EXPECT_EQ(ScanRows(Reverse()), (Rows{"\\xff", "\\x80", "\\x7f", "a", "\\x01"}));
}

TEST_F(ScanTest, ShorterRowSortsBeforeItsExtensions) {
  // G11
  PutRows({"b"s, "a"s, "ab"s, "a\x00"s});
  EXPECT_EQ(ScanRows(Forward()), (Rows{"a", "a\\x00", "ab", "b"}));
  EXPECT_EQ(ScanRows(Reverse()), (Rows{"b", "ab", "a\\x00", "a"}));
}

TEST_F(ScanTest, RowsWithoutVisibleCellsAreSkipped) {
  PutRows({"a", "b", "d", "e"});
  ASSERT_OK(store_->Mutate("t", Row("a", {DeleteOp(MutationType::kDeleteRow, "", "")})));
  ASSERT_OK(store_->Mutate("t", Row("c", {PutOp("g", "x", 1, "only g")})));
  ASSERT_OK(store_->Mutate("t", Row("e", {DeleteOp(MutationType::kDeleteColumn, "f", "q", 1)})));
  EXPECT_EQ(ScanRows(Forward()), (Rows{"b", "c", "d"}));
  EXPECT_EQ(ScanRows(Reverse()), (Rows{"d", "c", "b"}));
  ScanSpec only_f = Forward();
  only_f.read.columns.AddFamily("f");
  EXPECT_EQ(ScanRows(only_f), (Rows{"b", "d"}));
  only_f.reversed = true;
  EXPECT_EQ(ScanRows(only_f), (Rows{"d", "b"}));
}

TEST_F(ScanTest, ColumnSelectionSkipsRowsWithoutSelectedColumn) {
  // G41
  ASSERT_OK(store_->Mutate("t", Row("r1", {PutOp("f", "a", 1, "1")})));
  ASSERT_OK(store_->Mutate("t", Row("r2", {PutOp("f", "b", 1, "2")})));
  ScanSpec spec;
  spec.read.columns.AddColumn("f", "a");
  EXPECT_EQ(ScanRows(spec), (Rows{"r1"}));
}

TEST_F(ScanTest, ScanReturnsCellsInOrderWithRequestedVersions) {
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("g", "x", 1, "g1"), PutOp("f", "b", 1, "b1"),
                                          PutOp("f", "a", 1, "a1"), PutOp("f", "a", 2, "a2"),
                                          PutOp("f", "a", 3, "a3")})));
  ScanSpec spec;
  spec.read.max_versions = 2;
  auto rows = ScanAll(spec);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(CellStrings(rows[0].cells),
            (std::vector<std::string>{"f:a@3=a3", "f:a@2=a2", "f:b@1=b1", "g:x@1=g1"}));
  spec.read.time_range.max = 3;
  rows = ScanAll(spec);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(CellStrings(rows[0].cells),
            (std::vector<std::string>{"f:a@2=a2", "f:a@1=a1", "f:b@1=b1", "g:x@1=g1"}));
}

TEST_F(ScanTest, BatchSplitsWideRowIntoPiecesWithSameRowKey) {
  // G37
  std::vector<ColumnMutation> puts;
  for (int i = 1; i <= 5; ++i) puts.push_back(PutOp("f", "c" + std::to_string(i), 1, "v"));
  ASSERT_OK(store_->Mutate("t", Row("r", puts)));
  PutRows({"s"});
  for (bool reversed : {false, true}) {
    SCOPED_TRACE(reversed ? "reversed" : "forward");
    ScanSpec spec;
    spec.reversed = reversed;
    spec.batch = 2;
    for (size_t page : {1u, 2u, 100u}) {
      SCOPED_TRACE("page " + std::to_string(page));
      const auto results = ScanAll(spec, page);
      ASSERT_EQ(results.size(), 4u);
      const size_t r0 = reversed ? 1 : 0;  // index of the first piece of row r
      const size_t s_index = reversed ? 0 : 3;
      EXPECT_EQ(results[s_index].row, "s");
      std::vector<std::vector<std::string>> pieces;
      for (size_t i = r0; i < r0 + 3; ++i) {
        EXPECT_EQ(results[i].row, "r");
        std::vector<std::string> qs;
        for (const auto& c : results[i].cells) qs.push_back(c.qualifier);
        pieces.push_back(qs);
      }
      EXPECT_EQ(pieces, (std::vector<std::vector<std::string>>{{"c1", "c2"}, {"c3", "c4"}, {"c5"}}));
    }
  }
}

TEST_F(ScanTest, BatchEqualToRowWidthReturnsWholeRow) {
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "a", 1, "1"), PutOp("f", "b", 1, "2")})));
  ScanSpec spec;
  spec.batch = 2;
  const auto results = ScanAll(spec);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].cells.size(), 2u);
}

TEST_F(ScanTest, NextPagesUntilExhaustedAndStaysExhausted) {
  Rows expected;
  for (int i = 0; i < 10; ++i) {
    const std::string r = "row" + std::to_string(i);
    PutRows({r});
    expected.push_back(r);
  }
  std::unique_ptr<Scanner> scanner;
  ASSERT_OK(store_->OpenScanner("t", ScanSpec(), &scanner));
  Rows got;
  std::vector<size_t> sizes;
  for (int i = 0; i < 6; ++i) {
    std::vector<RowResult> batch;
    ASSERT_OK(scanner->Next(3, &batch));
    sizes.push_back(batch.size());
    for (const auto& r : batch) got.push_back(r.row);
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{3, 3, 3, 1, 0, 0}));
  EXPECT_EQ(got, expected);
  std::vector<RowResult> none;
  ASSERT_OK(scanner->Next(0, &none));
  EXPECT_TRUE(none.empty());
}

TEST_F(ScanTest, NextAppendsToExistingResults) {
  PutRows({"a", "b"});
  std::unique_ptr<Scanner> scanner;
  ASSERT_OK(store_->OpenScanner("t", ScanSpec(), &scanner));
  std::vector<RowResult> out(1);
  out[0].row = "sentinel";
  ASSERT_OK(scanner->Next(10, &out));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].row, "sentinel");
  EXPECT_EQ(out[1].row, "a");
}

// The server writes scans from RowBatches (Next into a batch); the RowResult form is the same
// scan converted. Both must agree row for row, batch-split pieces and partial flags included,
// and a batch is appended to, not replaced.
TEST_F(ScanTest, NextIntoABatchMatchesNextIntoResults) {
  for (int i = 0; i < 6; ++i) {
    const std::string r = "row"s + static_cast<char>('0' + i) + "\0"s;
    std::vector<ColumnMutation> ops;
    for (int q = 0; q <= i; ++q) ops.push_back(PutOp("f", "q" + std::to_string(q), 1, r));
    if (i % 2 == 0) ops.push_back(PutOp("g", "", 1, std::string(i * 50, 'x')));
    ASSERT_OK(store_->Mutate("t", Row(r, ops)));
  }
  std::vector<ScanSpec> specs(4);
  specs[1].batch = 2;
  specs[2] = Reverse();
  specs[2].batch = 3;
  ASSERT_OK(ParseFilterString("QualifierFilter(!=, 'binary:q1')", &specs[3].read.filter));
  for (size_t k = 0; k < specs.size(); ++k) {
    SCOPED_TRACE("spec " + std::to_string(k));
    std::unique_ptr<Scanner> a, b;
    ASSERT_OK(store_->OpenScanner("t", specs[k], &a));
    ASSERT_OK(store_->OpenScanner("t", specs[k], &b));
    RowBatch batch;
    batch.BeginRow("sentinel");
    size_t pieces = 0;
    for (size_t page : {1, 2, 3, 100, 100}) {
      std::vector<RowResult> results;
      ASSERT_OK(a->Next(page, &results));
      const size_t before = batch.size();
      ASSERT_OK(b->Next(page, &batch));
      ASSERT_EQ(batch.size() - before, results.size());
      for (size_t i = 0; i < results.size(); ++i) {
        const RowResult got = batch.ToRowResult(before + i);
        EXPECT_EQ(got.row, results[i].row);
        EXPECT_EQ(CellStrings(got.cells), CellStrings(results[i].cells));
        EXPECT_EQ(got.partial, results[i].partial);
      }
      pieces += results.size();
    }
    EXPECT_GE(pieces, 6u);
    EXPECT_EQ(batch.row_key(0), "sentinel");
  }
}

TEST_F(ScanTest, ScannerReadsFromItsSnapshot) {
  PutRows({"a", "b", "c"});
  for (bool reversed : {false, true}) {
    SCOPED_TRACE(reversed ? "reversed" : "forward");
    std::unique_ptr<Scanner> scanner;
    ScanSpec spec;
    spec.reversed = reversed;
    ASSERT_OK(store_->OpenScanner("t", spec, &scanner));
    std::vector<RowResult> first;
    ASSERT_OK(scanner->Next(1, &first));
    ASSERT_EQ(first.size(), 1u);
    // Changes after the scanner opened are invisible to it.
    ASSERT_OK(store_->Mutate("t", Row("b", {PutOp("f", "q", 2, "changed")})));
    ASSERT_OK(store_->Mutate("t", Row("bb", {PutOp("f", "q", 1, "new")})));
    ASSERT_OK(store_->Mutate("t", Row("0", {PutOp("f", "q", 1, "new")})));
    ASSERT_OK(store_->Mutate("t", Row("z", {PutOp("f", "q", 1, "new")})));
    ASSERT_OK(store_->Mutate("t", Row(reversed ? "a" : "c",
                                      {DeleteOp(MutationType::kDeleteRow, "", "")})));
    std::vector<RowResult> rest;
    ASSERT_OK(scanner->Next(10, &rest));
    ASSERT_EQ(rest.size(), 2u);
    EXPECT_EQ(rest[0].row, "b");
    EXPECT_EQ(rest[0].cells[0].value, "b");
    EXPECT_EQ(rest[1].row, reversed ? "a" : "c");
    // Restore the original rows for the next round.
    scanner.reset();
    ASSERT_OK(store_->DisableTable("t"));
    ASSERT_OK(store_->DeleteTable("t"));
    ASSERT_OK(store_->CreateTable("t", {Family("f", 3), Family("g")}));
    PutRows({"a", "b", "c"});
  }
}

TEST_F(ScanTest, OpenScannerValidatesSpec) {
  std::unique_ptr<Scanner> scanner;
  ScanSpec unknown;
  unknown.read.columns.AddFamily("x");
  EXPECT_CODE(kNoSuchColumnFamily, store_->OpenScanner("t", unknown, &scanner));
  ScanSpec negative_batch;
  negative_batch.batch = -1;
  EXPECT_CODE(kInvalidArgument, store_->OpenScanner("t", negative_batch, &scanner));
}

TEST_F(ScanTest, PrefixWithTrailingFFBytes) {
  PutRows({"a\xfe"s, "a\xfe\xff"s, "a\xff"s, "a\xff\x00"s, "a\xff\xff"s, "a\xff\xff\x01"s, "b"s,
           "\xff"s, "\xff\xff"s, "\xff\xff\x00"s, "\xff\xff\xff"s});
  EXPECT_EQ(ScanRows(WithPrefix("a\xff"s)),
            (Rows{"a\\xff", "a\\xff\\x00", "a\\xff\\xff", "a\\xff\\xff\\x01"}));
  EXPECT_EQ(ScanRows(WithPrefix("a\xfe"s)), (Rows{"a\\xfe", "a\\xfe\\xff"}));
  EXPECT_EQ(ScanRows(WithPrefix("\xff\xff"s)), (Rows{"\\xff\\xff", "\\xff\\xff\\x00",
                                                     "\\xff\\xff\\xff"}));
  EXPECT_EQ(ScanRows(WithPrefix("\xff"s)),
            (Rows{"\\xff", "\\xff\\xff", "\\xff\\xff\\x00", "\\xff\\xff\\xff"}));
}

TEST_F(ScanTest, ScansNeverLeakIntoTheNextTable) {
  // The next table's id is this one's plus one, so its cells start where an all-0xFF prefix's
  // bound ends.
  ASSERT_OK(store_->CreateTable("t2", {Family("f")}));
  PutRows({"\xff"s, "\xff\xff"s}, "t2");
  PutRows({"a"s, "\xff"s});
  EXPECT_EQ(ScanRows(Forward()), (Rows{"a", "\\xff"}));
  EXPECT_EQ(ScanRows(Reverse()), (Rows{"\\xff", "a"}));
  EXPECT_EQ(ScanRows(WithPrefix("\xff"s)), (Rows{"\\xff"}));
  EXPECT_EQ(ScanRows(WithPrefix("\xff\xff"s)), Rows{});
  EXPECT_EQ(ScanRows(Forward(), 100, "t2"), (Rows{"\\xff", "\\xff\\xff"}));
  EXPECT_EQ(ScanRows(Reverse(), 100, "t2"), (Rows{"\\xff\\xff", "\\xff"}));
}

TEST_F(ScanTest, EmptyTableScansEmptyBothWays) {
  EXPECT_EQ(ScanRows(Forward()), Rows{});
  EXPECT_EQ(ScanRows(Reverse()), Rows{});
}

// Randomised: rows rich in 0x00/0xFF, some wide, some deleted. Forward scans must return the
// live rows in unsigned order, reversed scans the same rows backwards, for random bounds and
// page sizes.
TEST_F(ScanTest, ReverseScanEqualsForwardScanReversed) {
  auto rng = testutil::MakeRng(20);
  std::set<std::string> all_rows;
  while (all_rows.size() < 300) all_rows.insert(testutil::RandomBytes(&rng, 1, 6));
  std::set<std::string> live;  // std::string orders bytes as unsigned char
  for (const auto& r : all_rows) {
    std::vector<ColumnMutation> puts = {PutOp("f", "q", 1, r)};
    if (rng() % 4 == 0) {  // a wider row with several columns and families
      puts.push_back(PutOp("f", "\x00"s, 1, "z"));
      puts.push_back(PutOp("g", "\xff"s, 1, "z"));
    }
    ASSERT_OK(store_->Mutate("t", Row(r, puts)));
    if (rng() % 5 == 0) {
      ASSERT_OK(store_->Mutate("t", Row(r, {DeleteOp(MutationType::kDeleteRow, "", "", 1)})));
    } else {
      live.insert(r);
    }
  }
  auto rows_of = [](const std::vector<RowResult>& results) {
    std::vector<std::string> rows;
    for (const auto& r : results) rows.push_back(r.row);
    return rows;
  };
  const std::vector<std::string> sorted(live.begin(), live.end());
  const std::vector<std::string> backwards(sorted.rbegin(), sorted.rend());
  ASSERT_EQ(rows_of(ScanAll(Forward(), 7)), sorted);
  ASSERT_EQ(rows_of(ScanAll(Reverse(), 5)), backwards);

  for (int i = 0; i < 60; ++i) {
    std::string lo = testutil::RandomBytes(&rng, 0, 3), hi = testutil::RandomBytes(&rng, 0, 3);
    if (!hi.empty() && lo > hi) std::swap(lo, hi);
    const size_t page = 1 + rng() % 20;
    SCOPED_TRACE("lo=" + Escape(lo) + " hi=" + Escape(hi) + " page=" + std::to_string(page));
    std::vector<std::string> fwd, rev;
    const bool get_scan = !lo.empty() && lo == hi;  // a start equal to its stop reads that row
    for (const auto& r : sorted) {
      if (get_scan ? r == lo : r >= lo && (hi.empty() || r < hi)) fwd.push_back(r);
    }
    // Reversed bounds: start is the larger key (inclusive), stop the smaller (exclusive).
    for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) {
      if (get_scan ? *it == lo : (hi.empty() || *it <= hi) && *it > lo) rev.push_back(*it);
    }
    ASSERT_EQ(rows_of(ScanAll(Forward(lo, hi), page)), fwd);
    ASSERT_EQ(rows_of(ScanAll(Reverse(hi, lo), page)), rev);
    // Prefix scans agree with a filter over the sorted rows.
    std::vector<std::string> with_prefix;
    for (const auto& r : sorted) {
      if (r.compare(0, lo.size(), lo) == 0) with_prefix.push_back(r);
    }
    ASSERT_EQ(rows_of(ScanAll(WithPrefix(lo), page)), with_prefix);
  }
}

}  // namespace
}  // namespace hbemu::storage

namespace hbemu::storage {
namespace {

// HBase scans region by region with a fresh filter per region: a PageFilter(n) starts again at
// 0 in each region, and one that finishes ends only its region's part (measured on HBase 2.6.1).
std::vector<std::string> PagedRows(const std::vector<std::string>& split_keys, bool reversed) {
  ManualClock clock{testutil::kTestNowMs};
  std::unique_ptr<Store> store;
  EXPECT_OK(testutil::OpenInMemoryStore(&clock, &store));
  TableDescriptor spec;
  spec.families = {testutil::Family("f")};
  spec.split_keys = split_keys;
  EXPECT_OK(store->CreateTable("t", spec));
  for (const char* r : {"1", "2", "3", "4", "5"}) {
    EXPECT_OK(store->Mutate("t", testutil::Row(r, {testutil::PutOp("f", "q", 1, "v")})));
  }
  ScanSpec scan;
  scan.reversed = reversed;
  EXPECT_OK(ParseFilterString("PageFilter(2)", &scan.read.filter));
  std::unique_ptr<Scanner> scanner;
  EXPECT_OK(store->OpenScanner("t", scan, &scanner));
  std::vector<RowResult> rows;
  EXPECT_OK(scanner->Next(100, &rows));
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.row);
  return out;
}

TEST(RegionScanTest, PageFilterCountsAfreshInEachRegionItEnters) {
  using Rows = std::vector<std::string>;
  EXPECT_EQ(PagedRows({}, false), (Rows{"1", "2"}));
  EXPECT_EQ(PagedRows({"3"}, false), (Rows{"1", "2", "3", "4"}));  // two from each region
  EXPECT_EQ(PagedRows({"2"}, false), (Rows{"1", "2", "3"}));   // region 1 ran out at 1 row
  EXPECT_EQ(PagedRows({"2", "3", "4"}, false), (Rows{"1", "2", "3", "4", "5"}));
  EXPECT_EQ(PagedRows({"5"}, true), (Rows{"5", "4", "3"}));    // reversed: from the last region
  EXPECT_EQ(PagedRows({"3"}, true), (Rows{"5", "4", "2", "1"}));
}

}  // namespace
}  // namespace hbemu::storage
