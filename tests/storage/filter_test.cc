// Filter semantics through the Store (docs/hbase-semantics.md#the-read-pipeline,
// #batch-caching-and-limit, #the-filter-language; golden cases G44-G74): every registered filter,
// compound filters, filters reaching older versions, row-level decisions, scan termination,
// reversed scans and batch incompatibility.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/filter_parser.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellString;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;
using Strings = std::vector<std::string>;

class FilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    ASSERT_OK(store_->CreateTable("t", {Family("f", 3), Family("g", 1)}));
  }

  void Put(const std::string& row, const std::string& column, int64_t ts,
           const std::string& value) {
    const size_t colon = column.find(':');
    ASSERT_OK(store_->Mutate(
        "t", Row(row, {PutOp(column.substr(0, colon), column.substr(colon + 1), ts, value)})));
  }

  // Rows a, b, b1, c, each with f:q = its key (the default data of G44-G74).
  void PutDefaultRows() {
    for (const char* r : {"a", "b", "b1", "c"}) Put(r, "f:q", 1, r);
  }

  static std::shared_ptr<const Filter> Parse(const std::string& text) {
    std::shared_ptr<const Filter> f;
    const Status s = ParseFilterString(text, &f);
    EXPECT_TRUE(s.ok()) << text << ": " << s.ToString();
    return f;
  }

  Status ScanResults(const std::string& filter, ScanSpec spec, std::vector<RowResult>* out) {
    if (!filter.empty()) spec.read.filter = Parse(filter);
    std::unique_ptr<Scanner> scanner;
    HBEMU_RETURN_IF_ERROR(store_->OpenScanner("t", spec, &scanner));
    return scanner->Next(1000, out);
  }

  // "row/f:q@ts=value" for every returned cell.
  Strings ScanCells(const std::string& filter, ScanSpec spec = {}) {
    std::vector<RowResult> rows;
    EXPECT_OK(ScanResults(filter, spec, &rows));
    Strings out;
    for (const auto& r : rows) {
      for (const auto& c : r.cells) out.push_back(r.row + "/" + CellString(c));
    }
    return out;
  }

  Strings ScanRows(const std::string& filter, ScanSpec spec = {}) {
    std::vector<RowResult> rows;
    EXPECT_OK(ScanResults(filter, spec, &rows));
    Strings out;
    for (const auto& r : rows) out.push_back(r.row);
    return out;
  }

  Strings GetCells(const std::string& row, const std::string& filter, int32_t max_versions = 1) {
    ReadSpec spec;
    spec.max_versions = max_versions;
    spec.filter = Parse(filter);
    RowResult result;
    EXPECT_OK(store_->Get("t", row, spec, &result));
    return testutil::CellStrings(result.cells);
  }

  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

TEST_F(FilterTest, G44_PrefixFilterKeepsRowsStartingWithThePrefix) {
  PutDefaultRows();
  EXPECT_EQ(ScanRows("PrefixFilter('b')"), (Strings{"b", "b1"}));
  EXPECT_EQ(ScanRows("PrefixFilter('')"), (Strings{"a", "b", "b1", "c"}));
}

TEST_F(FilterTest, PrefixFilterWorksOnReversedScans) {
  PutDefaultRows();
  ScanSpec spec;
  spec.reversed = true;
  EXPECT_EQ(ScanRows("PrefixFilter('b')", spec), (Strings{"b1", "b"}));
}

TEST_F(FilterTest, G45_FilterReachesAnOlderVersionWhenTheNewestIsRejected) {
  Put("r", "f:q", 1, "a");
  Put("r", "f:q", 2, "b");
  EXPECT_EQ(GetCells("r", "ValueFilter(=, 'binary:a')"), (Strings{"f:q@1=a"}));
  EXPECT_EQ(ScanCells("ValueFilter(=, 'binary:a')"), (Strings{"r/f:q@1=a"}));
}

TEST_F(FilterTest, FilterReachesOnlyUpToTheFamilyVersions) {
  // g keeps VERSIONS=1: the older version is beyond it even though it is still stored.
  Put("r", "g:q", 1, "a");
  Put("r", "g:q", 2, "b");
  EXPECT_TRUE(GetCells("r", "ValueFilter(=, 'binary:a')").empty());
}

TEST_F(FilterTest, AcceptedVersionsAreCappedAtTheRequestedMaxVersions) {
  for (int ts = 1; ts <= 3; ++ts) Put("r", "f:q", ts, "v");
  EXPECT_EQ(GetCells("r", "ValueFilter(=, 'binary:v')", 2), (Strings{"f:q@3=v", "f:q@2=v"}));
}

TEST_F(FilterTest, G46_ValueFilterLessKeepsValuesSortingBefore) {
  Put("1", "f:q", 1, "a");
  Put("2", "f:q", 1, "m");
  Put("3", "f:q", 1, "z");
  EXPECT_EQ(ScanRows("ValueFilter(<, 'binary:m')"), (Strings{"1"}));
  EXPECT_EQ(ScanRows("ValueFilter(<=, 'binary:m')"), (Strings{"1", "2"}));
  EXPECT_EQ(ScanRows("ValueFilter(>, 'binary:m')"), (Strings{"3"}));
  EXPECT_EQ(ScanRows("ValueFilter(>=, 'binary:m')"), (Strings{"2", "3"}));
  EXPECT_EQ(ScanRows("ValueFilter(!=, 'binary:m')"), (Strings{"1", "3"}));
}

TEST_F(FilterTest, G47_SubstringIsCaseInsensitiveContains) {
  Put("1", "f:q", 1, "xxABCxx");
  Put("2", "f:q", 1, "ab c");
  EXPECT_EQ(ScanRows("ValueFilter(=, 'substring:abc')"), (Strings{"1"}));
  EXPECT_EQ(ScanRows("ValueFilter(!=, 'substring:abc')"), (Strings{"2"}));
}

TEST_F(FilterTest, G48_RegexIsAnUnanchoredSearch) {
  for (const char* r : {"ab", "b", "c"}) Put(r, "f:q", 1, "v");
  EXPECT_EQ(ScanRows("RowFilter(=, 'regexstring:b')"), (Strings{"ab", "b"}));
  EXPECT_EQ(ScanRows("RowFilter(=, 'regexstring:^b$')"), (Strings{"b"}));
  EXPECT_EQ(ScanRows("RowFilter(!=, 'regexstring:b')"), (Strings{"c"}));
}

// RegexStringComparator's JavaRegexEngine decodes the cell as UTF-8 (ill-formed bytes become
// U+FFFD) and compiles with DOTALL: '.' is one code point, newlines included.
TEST_F(FilterTest, RegexMatchesUtf8CodePointsAndDotMatchesNewlines) {
  Put("1", "f:q", 1, "a\nb");
  Put("2", "f:q", 1, std::string("a\xff" "b"));       // ill-formed: one U+FFFD
  Put("3", "f:q", 1, std::string("a\xc3\xa9" "b"));  // "aéb"
  EXPECT_EQ(ScanRows("ValueFilter(=, 'regexstring:a.b')"), (Strings{"1", "2", "3"}));
  EXPECT_EQ(ScanRows("ValueFilter(=, 'regexstring:^a.b$')"), (Strings{"1", "2", "3"}));
  EXPECT_TRUE(ScanRows("ValueFilter(=, 'regexstring:^a..b$')").empty());
  EXPECT_EQ(ScanRows("ValueFilter(=, 'regexstring:\xc3\xa9')"), (Strings{"3"}));
  EXPECT_EQ(ScanRows("ValueFilter(=, 'regexstring:\xef\xbf\xbd')"), (Strings{"2"}));
}

TEST_F(FilterTest, G49_BinaryPrefixComparesTheCellsFirstBytes) {
  for (const char* q : {"a", "ab", "abc", "b"}) Put("r", std::string("f:") + q, 1, "v");
  EXPECT_EQ(ScanCells("QualifierFilter(=, 'binaryprefix:ab')"),
            (Strings{"r/f:ab@1=v", "r/f:abc@1=v"}));
  EXPECT_EQ(ScanCells("QualifierFilter(<, 'binaryprefix:ab')"), (Strings{"r/f:a@1=v"}));
}

// HBase 2.6 compares the empty qualifier like any other (checked against 2.6.1).
TEST_F(FilterTest, G50_EmptyQualifierIsComparedByQualifierFilter) {
  Put("r", "f:", 1, "e");
  Put("r", "f:ab", 1, "1");
  Put("r", "f:b", 1, "2");
  EXPECT_EQ(ScanCells("QualifierFilter(=, 'binary:zzz')"), Strings{});
  EXPECT_EQ(ScanCells("QualifierFilter(=, 'binaryprefix:a')"), (Strings{"r/f:ab@1=1"}));
  EXPECT_EQ(ScanCells("QualifierFilter(!=, 'binary:b')"), (Strings{"r/f:@1=e", "r/f:ab@1=1"}));
  EXPECT_EQ(ScanCells("QualifierFilter(>, 'binary:')"), (Strings{"r/f:ab@1=1", "r/f:b@1=2"}));
}

class ScvfTest : public FilterTest {
 protected:
  void SetUp() override {
    FilterTest::SetUp();
    Put("r1", "f:a", 1, "1");
    Put("r1", "f:b", 1, "x");
    Put("r2", "f:b", 1, "y");
    Put("r3", "f:a", 1, "2");
    Put("r3", "f:b", 1, "z");
  }
};

TEST_F(ScvfTest, G51_RowsWithoutTheColumnPassByDefault) {
  EXPECT_EQ(ScanCells("SingleColumnValueFilter('f','a',=,'binary:1')"),
            (Strings{"r1/f:a@1=1", "r1/f:b@1=x", "r2/f:b@1=y"}));
}

TEST_F(ScvfTest, G52_FilterIfMissingDropsRowsWithoutTheColumn) {
  EXPECT_EQ(ScanCells("SingleColumnValueFilter('f','a',=,'binary:1',true,true)"),
            (Strings{"r1/f:a@1=1", "r1/f:b@1=x"}));
}

TEST_F(ScvfTest, G53_ExcludeVariantRemovesTheTestedColumn) {
  EXPECT_EQ(ScanCells("SingleColumnValueExcludeFilter('f','a',=,'binary:1')"),
            (Strings{"r1/f:b@1=x", "r2/f:b@1=y"}));
}

TEST_F(ScvfTest, ColumnOutsideTheSelectionCountsAsMissing) {
  ScanSpec spec;
  spec.read.columns.AddColumn("f", "b");
  EXPECT_EQ(ScanRows("SingleColumnValueFilter('f','a',=,'binary:1')", spec),
            (Strings{"r1", "r2", "r3"}));
  EXPECT_TRUE(ScanRows("SingleColumnValueFilter('f','a',=,'binary:1',true,true)", spec).empty());
}

TEST_F(ScvfTest, AndPageFilterCountsOnlyRowsThatPassTheFiltersBeforeIt) {
  EXPECT_EQ(ScanRows("SingleColumnValueFilter('f','a',=,'binary:2',true,true) AND PageFilter(1)"),
            (Strings{"r3"}));
  EXPECT_TRUE(
      ScanRows("PageFilter(1) AND SingleColumnValueFilter('f','a',=,'binary:2',true,true)").empty())
      << "PageFilter first counts r1 as its one row";
}

TEST_F(FilterTest, G54_LatestVersionOnlyDecidesOnTheNewestVersion) {
  Put("r1", "f:a", 1, "1");
  Put("r1", "f:a", 2, "2");
  EXPECT_TRUE(ScanCells("SingleColumnValueFilter('f','a',=,'binary:1',true,true)").empty());
  EXPECT_EQ(ScanCells("SingleColumnValueFilter('f','a',=,'binary:1',true,false)"),
            (Strings{"r1/f:a@2=2"}));
}

TEST_F(FilterTest, G55_ColumnRangeFilterBoundsAndInclusivity) {
  for (const char* q : {"a", "b", "c", "d", "e"}) Put("r", std::string("f:") + q, 1, "v");
  EXPECT_EQ(ScanCells("ColumnRangeFilter('b', true, 'd', false)"),
            (Strings{"r/f:b@1=v", "r/f:c@1=v"}));
  EXPECT_EQ(ScanCells("ColumnRangeFilter('', true, 'c', true)"),
            (Strings{"r/f:a@1=v", "r/f:b@1=v", "r/f:c@1=v"}));
  EXPECT_EQ(ScanCells("ColumnRangeFilter('b', false, '', true)"),
            (Strings{"r/f:c@1=v", "r/f:d@1=v", "r/f:e@1=v"}));
}

TEST_F(FilterTest, G56_ColumnPaginationFilterSkipsOffsetAndReturnsLimitColumns) {
  for (const char* q : {"a", "b", "c", "d"}) Put("r", std::string("f:") + q, 1, "v");
  EXPECT_EQ(ScanCells("ColumnPaginationFilter(2, 1)"), (Strings{"r/f:b@1=v", "r/f:c@1=v"}));
}

TEST_F(FilterTest, ColumnPaginationCountsAcrossFamilies) {
  Put("r", "f:a", 1, "v");
  Put("r", "f:b", 1, "v");
  Put("r", "g:c", 1, "v");
  EXPECT_EQ(ScanCells("ColumnPaginationFilter(2, 1)"), (Strings{"r/f:b@1=v", "r/g:c@1=v"}));
}

TEST_F(FilterTest, G57_ColumnPrefixFilters) {
  for (const char* q : {"a1", "b1", "c1"}) Put("r", std::string("f:") + q, 1, "v");
  EXPECT_EQ(ScanCells("MultipleColumnPrefixFilter('a','c')"),
            (Strings{"r/f:a1@1=v", "r/f:c1@1=v"}));
  EXPECT_EQ(ScanCells("ColumnPrefixFilter('b')"), (Strings{"r/f:b1@1=v"}));
  EXPECT_EQ(ScanCells("MultipleColumnPrefixFilter()").size(), 3u);
}

TEST_F(FilterTest, G58_KeyOnlyFilterReplacesValues) {
  Put("r", "f:q", 7, "hello");
  EXPECT_EQ(ScanCells("KeyOnlyFilter()"), (Strings{"r/f:q@7="}));
  EXPECT_EQ(ScanCells("KeyOnlyFilter(true)"), (Strings{"r/f:q@7=\\x00\\x00\\x00\\x05"}));
}

TEST_F(FilterTest, G59_FirstKeyOnlyFilterReturnsTheFirstCellOfTheRow) {
  Put("r", "f:b", 1, "v");
  Put("r", "f:a", 1, "v");
  Put("r", "g:c", 1, "v");
  EXPECT_EQ(ScanCells("FirstKeyOnlyFilter()"), (Strings{"r/f:a@1=v"}));
}

TEST_F(FilterTest, G60_PageFilterStopsAfterPageSizeRows) {
  for (const char* r : {"1", "2", "3", "4", "5"}) Put(r, "f:q", 1, "v");
  EXPECT_EQ(ScanRows("PageFilter(2)"), (Strings{"1", "2"}));
  EXPECT_TRUE(ScanRows("PageFilter(0)").empty());
}

TEST_F(FilterTest, PageFilterCountsOnlyNonEmptyRows) {
  Put("1", "f:q", 1, "x");
  Put("2", "f:q", 1, "v");
  Put("3", "f:q", 1, "v");
  EXPECT_EQ(ScanRows("ValueFilter(=, 'binary:v') AND PageFilter(1)"), (Strings{"2"}));
}

TEST_F(FilterTest, G61_InclusiveStopFilterIncludesTheStopRow) {
  for (const char* r : {"a", "b", "c", "d", "e"}) Put(r, "f:q", 1, "v");
  EXPECT_EQ(ScanRows("InclusiveStopFilter('c')"), (Strings{"a", "b", "c"}));
  ScanSpec spec;
  spec.reversed = true;
  EXPECT_EQ(ScanRows("InclusiveStopFilter('c')", spec), (Strings{"e", "d", "c"}));
}

TEST_F(FilterTest, G62_TimestampsFilterReachesOlderVersions) {
  for (int ts : {10, 20, 30}) Put("r", "f:q", ts, "v" + std::to_string(ts));
  EXPECT_EQ(GetCells("r", "TimestampsFilter(10, 30)", 3), (Strings{"f:q@30=v30", "f:q@10=v10"}));
  EXPECT_EQ(GetCells("r", "TimestampsFilter(10)", 1), (Strings{"f:q@10=v10"}));
  EXPECT_TRUE(GetCells("r", "TimestampsFilter()", 3).empty());
}

TEST_F(FilterTest, TimestampsFilterDoesNotOverrideTheTimeRange) {
  for (int ts : {10, 20, 30}) Put("r", "f:q", ts, "v");
  ReadSpec spec;
  spec.max_versions = 3;
  spec.time_range = {15, 100};
  spec.filter = Parse("TimestampsFilter(10, 20)");
  RowResult result;
  ASSERT_OK(store_->Get("t", "r", spec, &result));
  EXPECT_EQ(testutil::CellStrings(result.cells), (Strings{"f:q@20=v"}));
}

TEST_F(FilterTest, G63_DependentColumnFilterKeepsCellsAtTheDependentTimestamps) {
  Put("r", "f:d", 10, "d");
  Put("r", "f:x", 10, "x");
  Put("r", "f:y", 20, "y");
  EXPECT_EQ(ScanCells("DependentColumnFilter('f','d')"), (Strings{"r/f:d@10=d", "r/f:x@10=x"}));
  EXPECT_EQ(ScanCells("DependentColumnFilter('f','d',true)"), (Strings{"r/f:x@10=x"}));
  EXPECT_TRUE(ScanCells("DependentColumnFilter('f','d',false,=,'binary:nope')").empty());
  EXPECT_EQ(ScanCells("DependentColumnFilter('f','d',false,=,'binary:d')").size(), 2u);
  Put("s", "f:x", 10, "x");
  EXPECT_EQ(ScanRows("DependentColumnFilter('f','d')"), (Strings{"r"}))
      << "a row without the dependent column returns nothing";
}

TEST_F(FilterTest, G64_SkipDropsRowsWithAnyRejectedCell) {
  Put("r1", "f:a", 1, "1");
  Put("r1", "f:b", 1, "1");
  Put("r2", "f:a", 1, "1");
  Put("r2", "f:b", 1, "2");
  EXPECT_EQ(ScanRows("SKIP ValueFilter(=, 'binary:1')"), (Strings{"r1"}));
}

TEST_F(FilterTest, SkipSeesOlderVersionsToo) {
  Put("r1", "f:a", 2, "1");
  Put("r1", "f:a", 1, "old");
  Put("r2", "f:a", 1, "1");
  EXPECT_EQ(ScanRows("SKIP ValueFilter(=, 'binary:1')"), (Strings{"r2"}))
      << "the older version of r1 reaches the filter (VERSIONS=3) and fails it";
}

TEST_F(FilterTest, G65_WhileEndsTheScanAtTheFirstRejection) {
  for (const char* r : {"a", "a2", "b", "c", "d"}) Put(r, "f:q", 1, "v");
  EXPECT_EQ(ScanRows("WHILE RowFilter(<, 'binary:c')"), (Strings{"a", "a2", "b"}));
}

TEST_F(FilterTest, WhileKeepsTheCellsAcceptedBeforeTheRejectionInThatRow) {
  Put("r1", "f:a", 1, "1");
  Put("r2", "f:a", 1, "1");
  Put("r2", "f:b", 1, "2");
  Put("r2", "f:c", 1, "1");
  Put("r3", "f:a", 1, "1");
  EXPECT_EQ(ScanCells("WHILE ValueFilter(=, 'binary:1')"), (Strings{"r1/f:a@1=1", "r2/f:a@1=1"}));
}

TEST_F(FilterTest, G66_AndBindsTighterThanOrInResults) {
  Put("a1", "f:q", 1, "1");
  Put("a2", "f:q", 1, "2");
  Put("c1", "f:q", 1, "9");
  Put("d1", "f:q", 1, "1");
  EXPECT_EQ(ScanRows("PrefixFilter('a') AND ValueFilter(=,'binary:1') OR PrefixFilter('c')"),
            (Strings{"a1", "c1"}));
}

TEST_F(FilterTest, G67_ColumnValueFilterReturnsOnlyTheTestedColumn) {
  Put("r1", "f:a", 1, "1");
  Put("r1", "f:b", 1, "1");
  Put("r2", "f:a", 1, "2");
  Put("r2", "f:b", 1, "1");
  EXPECT_EQ(ScanCells("ColumnValueFilter('f','a',=,'binary:1')"), (Strings{"r1/f:a@1=1"}));
}

TEST_F(FilterTest, G68_G69_QuotesAndColonsInComparatorValues) {
  Put("1", "f:q", 1, "it's");
  Put("2", "f:q", 1, "a:b");
  EXPECT_EQ(ScanRows("ValueFilter(=, 'binary:it''s')"), (Strings{"1"}));
  EXPECT_EQ(ScanRows("ValueFilter(=, 'binary:a:b')"), (Strings{"2"}));
}

TEST_F(FilterTest, G70_FamilyFilterKeepsOnlyMatchingFamilies) {
  Put("r", "f:a", 1, "v");
  Put("r", "g:b", 1, "v");
  EXPECT_EQ(ScanCells("FamilyFilter(=, 'binary:f')"), (Strings{"r/f:a@1=v"}));
  EXPECT_EQ(ScanCells("FamilyFilter(!=, 'binary:f')"), (Strings{"r/g:b@1=v"}));
}

TEST_F(FilterTest, G71_ColumnCountGetFilterOnGetReturnsTheFirstColumns) {
  for (const char* q : {"a", "b", "c"}) Put("r", std::string("f:") + q, 1, "v");
  EXPECT_EQ(GetCells("r", "ColumnCountGetFilter(2)"), (Strings{"f:a@1=v", "f:b@1=v"}));
}

// G72 [code-read]: the first row over the limit is cut and the whole scan ends there.
TEST_F(FilterTest, G72_ColumnCountGetFilterInAScanEndsAtTheFirstWideRow) {
  Put("r1", "f:a", 1, "v");
  Put("r1", "f:b", 1, "v");
  Put("r2", "f:a", 1, "v");
  Put("r2", "f:b", 1, "v");
  Put("r2", "f:c", 1, "v");
  Put("r3", "f:a", 1, "v");
  EXPECT_EQ(ScanCells("ColumnCountGetFilter(2)"),
            (Strings{"r1/f:a@1=v", "r1/f:b@1=v", "r2/f:a@1=v", "r2/f:b@1=v"}));
}

// G74 [code-read]: without the outer parentheses, AND binds tighter, so only `a` rows pass.
TEST_F(FilterTest, G74_PrecedenceWithoutParenthesesSelectsOnlyTheARows) {
  for (const char* r : {"a1", "b1", "bc", "c1"}) Put(r, "f:q", 1, "v");
  EXPECT_EQ(ScanRows("PrefixFilter('a') OR PrefixFilter('b') AND PrefixFilter('c')"),
            (Strings{"a1"}));
}

TEST_F(FilterTest, OrKeepsACellAnySubFilterKeeps) {
  Put("r", "f:a", 1, "1");
  Put("r", "f:b", 1, "2");
  Put("r", "f:c", 1, "3");
  EXPECT_EQ(ScanCells("QualifierFilter(=, 'binary:a') OR ValueFilter(=, 'binary:3')"),
            (Strings{"r/f:a@1=1", "r/f:c@1=3"}));
}

TEST_F(FilterTest, OrOfColumnPrefixFiltersCombinesTheirHints) {
  for (const char* q : {"a1", "b1", "c1", "d1"}) Put("r", std::string("f:") + q, 1, "v");
  EXPECT_EQ(ScanCells("ColumnPrefixFilter('b') OR ColumnPrefixFilter('d')"),
            (Strings{"r/f:b1@1=v", "r/f:d1@1=v"}));
  EXPECT_EQ(ScanCells("ColumnPrefixFilter('b') AND ColumnRangeFilter('a', true, 'z', true)"),
            (Strings{"r/f:b1@1=v"}));
}

// HBase 2.6 refuses any batch limit with a row-level filter at the first fetch, whether or not
// the batch would split a row (checked against 2.6.1).
TEST_F(FilterTest, RowLevelFilterWithAnyBatchFailsAtTheFirstFetch) {
  for (const char* q : {"a", "b", "c"}) Put("r", std::string("f:") + q, 1, "v");
  ScanSpec spec;
  for (int32_t batch : {1, 2, 3, 100}) {
    spec.batch = batch;
    for (const char* filter : {"PageFilter(5)", "SingleColumnValueFilter('f','a',=,'binary:v')",
                               "DependentColumnFilter('f','a')", "SKIP ValueFilter(=,'binary:v')",
                               "WHILE ValueFilter(=,'binary:v')",
                               "ValueFilter(=,'binary:v') AND PageFilter(5)"}) {
      std::vector<RowResult> rows;
      EXPECT_CODE(kIOError, ScanResults(filter, spec, &rows)) << filter << " batch " << batch;
    }
  }
  spec.batch = 2;
  std::vector<RowResult> rows;
  ASSERT_OK(ScanResults("ValueFilter(=, 'binary:v')", spec, &rows));
  EXPECT_EQ(rows.size(), 2u) << "a cell-level filter splits rows as usual";
}

TEST_F(FilterTest, DeletedAndExpiredCellsNeverReachTheFilter) {
  Put("r", "f:q", 1, "a");
  Put("r", "f:q", 2, "b");
  ASSERT_OK(store_->Mutate("t", Row("r", {testutil::DeleteOp(MutationType::kDeleteVersion, "f",
                                                              "q", 1)})));
  EXPECT_TRUE(GetCells("r", "ValueFilter(=, 'binary:a')").empty());
}

TEST_F(FilterTest, EachScanGetsItsOwnFilterState) {
  for (const char* r : {"1", "2", "3"}) Put(r, "f:q", 1, "v");
  ScanSpec spec;
  spec.read.filter = Parse("PageFilter(1)");
  for (int i = 0; i < 2; ++i) {
    std::unique_ptr<Scanner> scanner;
    ASSERT_OK(store_->OpenScanner("t", spec, &scanner));
    std::vector<RowResult> rows;
    ASSERT_OK(scanner->Next(10, &rows));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].row, "1");
  }
}

TEST_F(FilterTest, GetRunsTheRowLevelProtocolToo) {
  Put("r", "f:a", 1, "1");
  EXPECT_TRUE(GetCells("r", "RowFilter(!=, 'binary:r')").empty());
  EXPECT_TRUE(GetCells("r", "SingleColumnValueFilter('f','a',=,'binary:2')").empty());
  EXPECT_EQ(GetCells("r", "SingleColumnValueFilter('f','a',=,'binary:1')"), (Strings{"f:a@1=1"}));
  EXPECT_TRUE(GetCells("r", "PageFilter(0)").empty());
}

TEST_F(FilterTest, PageFilterOnAReversedScanTakesTheLastRows) {
  for (const char* r : {"1", "2", "3", "4"}) Put(r, "f:q", 1, "v");
  ScanSpec spec;
  spec.reversed = true;
  EXPECT_EQ(ScanRows("PageFilter(2)", spec), (Strings{"4", "3"}));
}

TEST_F(FilterTest, SeekHintSkipsWholeColumnsWithAllTheirVersions) {
  for (int ts = 1; ts <= 3; ++ts) {
    Put("r", "f:a", ts, "a" + std::to_string(ts));
    Put("r", "f:b", ts, "b" + std::to_string(ts));
  }
  EXPECT_EQ(GetCells("r", "ColumnPrefixFilter('b')", 3),
            (Strings{"f:b@3=b3", "f:b@2=b2", "f:b@1=b1"}));
  EXPECT_EQ(GetCells("r", "ColumnRangeFilter('b', true, '', true)", 2),
            (Strings{"f:b@3=b3", "f:b@2=b2"}));
}

TEST_F(FilterTest, ExplicitColumnsAreSelectedBeforeTheFilterSeesCells) {
  Put("r", "f:a", 1, "x");
  Put("r", "f:b", 1, "x");
  ScanSpec spec;
  spec.read.columns.AddColumn("f", "b");
  EXPECT_EQ(ScanCells("FirstKeyOnlyFilter()", spec), (Strings{"r/f:b@1=x"}));
}

// The classic "file index" query: row = user(6) + date(8) + file id(6); one user's date
// window by start/stop row, name and category bounded by four SingleColumnValueFilters, and a
// PageFilter.
TEST_F(FilterTest, FileIndexRangePlusFourSingleColumnValueFiltersPlusPageFilter) {
  auto key = [](int user, int date, int file) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%06d%08d%06d", user, date, file);
    return std::string(buf);
  };
  const char* names[] = {"alpha.txt", "beta.doc", "gamma.txt", "delta.pdf", "omega.txt"};
  const char* categories[] = {"doc", "img", "doc", "video", "doc"};
  for (int user : {7, 8}) {
    for (int day = 1; day <= 10; ++day) {
      for (int file = 0; file < 5; ++file) {
        const std::string row = key(user, 20240100 + day, file);
        Put(row, "f:name", 1, names[file]);
        Put(row, "f:category", 1, categories[file]);
        Put(row, "f:size", 1, std::to_string(1000 * (file + 1)));
      }
    }
  }
  ScanSpec spec;
  spec.start_row = key(7, 20240103, 0);
  spec.stop_row = key(7, 20240108, 0);
  const std::string filter =
      "SingleColumnValueFilter('f', 'name', >=, 'binary:b', true, true) AND "
      "SingleColumnValueFilter('f', 'name', <, 'binary:h', true, true) AND "
      "SingleColumnValueFilter('f', 'category', >=, 'binary:doc', true, true) AND "
      "SingleColumnValueFilter('f', 'category', <=, 'binary:doc', true, true) AND PageFilter(3)";
  // name in [b, h) and category == doc: file 2 (gamma.txt) on each day 3..7; page of 3.
  EXPECT_EQ(ScanRows(filter, spec),
            (Strings{key(7, 20240103, 2), key(7, 20240104, 2), key(7, 20240105, 2)}));
}

}  // namespace
}  // namespace hbemu::storage
