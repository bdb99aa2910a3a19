// Filter state across rows, regions and copies: Restart gives back a fresh copy's state, lists
// and WHILE ask each sub-filter's FilterAllRemaining once per call whatever the depth, Clone
// keeps the reversed flag, and a scanner clones its filter once however many regions it crosses.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/filter_parser.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

// Every decision a filter makes over a fixed set of rows, in the read path's order.
std::string Drive(Filter* f) {
  std::string trace;
  for (const char* row : {"a", "b", "b1", "c", "d"}) {
    if (f->FilterAllRemaining()) {
      trace += "|done";
      break;
    }
    if (f->FilterRowKey(row)) {
      trace += "|" + std::string(row) + ":key-dropped";
      f->Reset();
      continue;
    }
    std::vector<Cell> cells;
    trace += "|" + std::string(row) + ":";
    for (const char* family : {"f", "g"}) {
      for (const char* q : {"a", "b", "q"}) {
        for (int64_t ts : {20, 10}) {
          const std::string value = std::string(row) + q + std::to_string(ts);
          const FilterCode code = f->FilterCell(CellView{row, family, q, ts, value});
          trace += std::to_string(static_cast<int>(code));
          if (code == FilterCode::kInclude || code == FilterCode::kIncludeAndNextCol ||
              code == FilterCode::kIncludeAndSeekNextRow) {
            Cell c{family, q, ts, value};
            f->TransformCell(&c);
            cells.push_back(std::move(c));
          }
        }
      }
    }
    if (f->HasFilterRow()) f->FilterRowCells(&cells);
    if (!cells.empty() && f->FilterRow()) cells.clear();
    trace += "=" + std::to_string(cells.size());
    f->Reset();
  }
  return trace;
}

TEST(FilterStateTest, RestartGivesBackAFreshCopysState) {
  const char* kFilters[] = {
      "PageFilter(2)",
      "ColumnCountGetFilter(1)",
      "PrefixFilter('b')",
      "InclusiveStopFilter('b1')",
      "WHILE RowFilter(<, 'binary:c')",
      "SKIP ValueFilter(!=, 'binary:b1q20')",
      "FirstKeyOnlyFilter()",
      "ColumnPaginationFilter(1, 1)",
      "SingleColumnValueFilter('f', 'a', =, 'binary:ba20', true, true)",
      "SingleColumnValueExcludeFilter('f', 'a', =, 'binary:ba20')",
      "DependentColumnFilter('f', 'a', true)",
      "ColumnValueFilter('g', 'b', =, 'binary:cb10')",
      "MultipleColumnPrefixFilter('b', 'q')",
      "KeyOnlyFilter(true) AND TimestampsFilter(10)",
      "ColumnPrefixFilter('q') OR ColumnRangeFilter('a', true, 'a', true)",
      "FamilyFilter(=, 'binary:g') AND QualifierFilter(!=, 'binary:b')",
      "PrefixFilter('b') OR PageFilter(1)",
      "SKIP (ValueFilter(=, 'substring:a') OR (WHILE PageFilter(3)))",
      "(ColumnCountGetFilter(2) AND PageFilter(3)) OR InclusiveStopFilter('b')",
  };
  for (const char* text : kFilters) {
    std::shared_ptr<const Filter> parsed;
    ASSERT_OK(ParseFilterString(text, &parsed));
    std::unique_ptr<Filter> used = parsed->Clone();
    const std::string first = Drive(used.get());
    used->Restart();
    EXPECT_EQ(Drive(used.get()), first) << text;
    std::unique_ptr<Filter> fresh = parsed->Clone();
    EXPECT_EQ(Drive(fresh.get()), first) << text;
  }
  // The comparison means something: without Restart a spent PageFilter passes nothing more.
  std::shared_ptr<const Filter> page;
  ASSERT_OK(ParseFilterString("PageFilter(2)", &page));
  std::unique_ptr<Filter> spent = page->Clone();
  const std::string first = Drive(spent.get());
  EXPECT_NE(Drive(spent.get()), first);
}

TEST(FilterStateTest, RestartKeepsTheReversedFlag) {
  std::shared_ptr<const Filter> parsed;
  ASSERT_OK(ParseFilterString("KeyOnlyFilter() AND (PrefixFilter('b') OR PrefixFilter('b'))",
                              &parsed));
  std::unique_ptr<Filter> f = parsed->Clone();
  f->SetReversed(true);
  f->Restart();
  // Reversed, "c" comes before the prefix: dropped without ending the scan (forward it would).
  EXPECT_TRUE(f->FilterRowKey("c"));
  f->Reset();
  EXPECT_FALSE(f->FilterAllRemaining());
  EXPECT_TRUE(f->FilterRowKey("a"));
  EXPECT_TRUE(f->FilterAllRemaining());
}

TEST(FilterStateTest, CloneKeepsTheReversedFlagAtEveryLevel) {
  // Over rows a..d, PrefixFilter('b') ends forward at "c" and reversed at "a".
  std::shared_ptr<const Filter> parsed;
  ASSERT_OK(ParseFilterString(
      "KeyOnlyFilter() AND (PrefixFilter('b') OR (PrefixFilter('b') AND TimestampsFilter(10)))",
      &parsed));
  std::unique_ptr<Filter> reversed = parsed->Clone();
  reversed->SetReversed(true);
  std::unique_ptr<Filter> copy = reversed->Clone();
  std::unique_ptr<Filter> forward = parsed->Clone();
  const std::string reversed_trace = Drive(reversed.get());
  EXPECT_NE(reversed_trace, Drive(forward.get()));
  EXPECT_EQ(Drive(copy.get()), reversed_trace);
}

// A leaf that counts the calls made on it; every copy shares the counters.
struct Counters {
  int all_remaining = 0, clones = 0, restarts = 0;
};

class CountingFilter : public Filter {
 public:
  explicit CountingFilter(Counters* counters) : counters_(counters) {}
  std::unique_ptr<Filter> Clone() const override {
    ++counters_->clones;
    return std::make_unique<CountingFilter>(counters_);
  }
  void Restart() override { ++counters_->restarts; }
  bool FilterAllRemaining() const override {
    ++counters_->all_remaining;
    return false;
  }
  FilterCode FilterCell(const CellView&) override { return FilterCode::kInclude; }
  std::string ToString() const override { return "Counting()"; }

 private:
  Counters* const counters_;
};

// Lists of two, `depth` levels: (leaf, (leaf, (... leaf))). `op(i)` picks each level's kind.
std::unique_ptr<Filter> NestedCounting(int depth, Counters* counters, bool alternate) {
  std::unique_ptr<Filter> f = std::make_unique<CountingFilter>(counters);
  for (int i = 0; i < depth; ++i) {
    std::vector<std::unique_ptr<Filter>> children;
    children.push_back(std::make_unique<CountingFilter>(counters));
    children.push_back(std::move(f));
    const FilterList::Op op = alternate && i % 2 ? FilterList::Op::kOr : FilterList::Op::kAnd;
    f = std::make_unique<FilterList>(op, std::move(children));
  }
  return f;
}

TEST(FilterStateTest, NestedListsAskEachSubFilterOncePerCallWhateverTheDepth) {
  for (bool alternate : {false, true}) {
    Counters counters;
    const int depth = 300;
    const int leaves = depth + 1;
    std::unique_ptr<Filter> f = NestedCounting(depth, &counters, alternate);
    const CellView cell{"r", "f", "q", 1, "v"};
    auto calls_in = [&](const std::function<void()>& call) {
      counters.all_remaining = 0;
      call();
      return counters.all_remaining;
    };
    // Each leaf is asked by its own list once, after the call on it, plus once by itself in
    // Filter's default FilterRowKey (HBase asks every level again: depth x depth / 2 calls).
    EXPECT_LE(calls_in([&] { EXPECT_FALSE(f->FilterAllRemaining()); }), 0);
    EXPECT_LE(calls_in([&] { EXPECT_FALSE(f->FilterRowKey("r")); }), 2 * leaves);
    EXPECT_LE(calls_in([&] { EXPECT_EQ(f->FilterCell(cell), FilterCode::kInclude); }), leaves);
    EXPECT_LE(calls_in([&] { EXPECT_FALSE(f->FilterRow()); }), leaves);
    EXPECT_LE(calls_in([&] { f->Reset(); }), leaves);
  }
}

TEST(FilterStateTest, WhileChainsAskTheirInnerFilterOncePerCall) {
  Counters counters;
  std::unique_ptr<Filter> f = std::make_unique<CountingFilter>(&counters);
  for (int i = 0; i < 400; ++i) f = std::make_unique<WhileMatchFilter>(std::move(f));
  counters.all_remaining = 0;
  EXPECT_FALSE(f->FilterAllRemaining());
  EXPECT_FALSE(f->FilterRowKey("r"));
  EXPECT_EQ(f->FilterCell(CellView{"r", "f", "q", 1, "v"}), FilterCode::kInclude);
  EXPECT_FALSE(f->FilterRow());
  f->Reset();
  // Once after each of the four calls reaching it, once more inside its own FilterRowKey.
  EXPECT_LE(counters.all_remaining, 5);
}

TEST(FilterStateTest, ACachedAnswerFollowsTheSubFilterThroughRowsAndRestarts) {
  // PageFilter(1) inside nested lists: done after one row, fresh again after Restart.
  std::shared_ptr<const Filter> parsed;
  ASSERT_OK(ParseFilterString(
      "KeyOnlyFilter() AND (FirstKeyOnlyFilter() OR (KeyOnlyFilter() AND PageFilter(1)))",
      &parsed));
  std::unique_ptr<Filter> f = parsed->Clone();
  EXPECT_FALSE(f->FilterAllRemaining());
  EXPECT_FALSE(f->FilterRowKey("a"));
  f->FilterCell(CellView{"a", "f", "q", 1, "v"});
  EXPECT_FALSE(f->FilterRow());
  f->Reset();
  // The OR goes on while FirstKeyOnlyFilter does; the outer AND follows the OR.
  EXPECT_FALSE(f->FilterAllRemaining());
  std::shared_ptr<const Filter> page_only;
  ASSERT_OK(ParseFilterString("KeyOnlyFilter() AND (KeyOnlyFilter() AND PageFilter(1))", &page_only));
  f = page_only->Clone();
  EXPECT_FALSE(f->FilterRowKey("a"));
  f->FilterCell(CellView{"a", "f", "q", 1, "v"});
  EXPECT_FALSE(f->FilterRow());
  f->Reset();
  EXPECT_TRUE(f->FilterAllRemaining());
  f->Restart();
  EXPECT_FALSE(f->FilterAllRemaining());
}

TEST(FilterStateTest, AScannerClonesItsFilterOnceAndRestartsItPerRegion) {
  ManualClock clock{testutil::kTestNowMs};
  std::unique_ptr<Store> store;
  ASSERT_OK(testutil::OpenInMemoryStore(&clock, &store));
  TableDescriptor table;
  table.families = {testutil::Family("f")};
  std::vector<std::string> rows;
  for (int i = 0; i < 40; ++i) {
    char key[8];
    std::snprintf(key, sizeof(key), "r%02d", i);
    rows.push_back(key);
    if (i > 0 && i % 2 == 0) table.split_keys.push_back(key);  // 20 regions
  }
  ASSERT_OK(store->CreateTable("t", table));
  for (const std::string& r : rows) {
    ASSERT_OK(store->Mutate("t", testutil::Row(r, {testutil::PutOp("f", "q", 1, "v")})));
  }
  for (bool reversed : {false, true}) {
    Counters counters;
    ScanSpec scan;
    scan.reversed = reversed;
    scan.read.filter = std::make_shared<CountingFilter>(&counters);
    std::unique_ptr<Scanner> scanner;
    ASSERT_OK(store->OpenScanner("t", scan, &scanner));
    std::vector<RowResult> out;
    ASSERT_OK(scanner->Next(100, &out));
    EXPECT_EQ(out.size(), 40u);
    EXPECT_EQ(counters.clones, 1);
    EXPECT_EQ(counters.restarts, 19);
  }
}

}  // namespace
}  // namespace hbemu::storage
