// The filter language's limits (FilterLimits: filter_string_bytes, filter_depth,
// filter_count) as ParseFilterString enforces them, and the deepest trees the default depth
// allows run on a small thread stack (the filters recurse once per level).

#include <pthread.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "storage/filter_parser.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

// Passes every cell of the tables below, also under SKIP (which hides the row key from it).
const char* kLeaf = "QualifierFilter(=, 'binary:q')";

std::string Repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

// "(L AND (L AND ( ... L)))": `levels` nested lists of two, each inside its own parentheses.
std::string NestedLists(size_t levels, const char* op = "AND") {
  std::string s;
  for (size_t i = 0; i < levels; ++i) s += std::string(kLeaf) + " " + op + " (";
  s += kLeaf;
  return s + std::string(levels, ')');
}

// Nested lists alternating OR and AND.
std::string AlternatingLists(size_t levels) {
  std::string s;
  for (size_t i = 0; i < levels; ++i) s += std::string(kLeaf) + (i % 2 ? " OR (" : " AND (");
  s += kLeaf;
  return s + std::string(levels, ')');
}

// "L OP L OP ... L": one list of `n` filters.
std::string FlatList(size_t n, const char* op) {
  std::string s = kLeaf;
  for (size_t i = 1; i < n; ++i) s += std::string(" ") + op + " " + kLeaf;
  return s;
}

FilterLimits SmallLimits() {
  FilterLimits limits;
  limits.filter_string_bytes = 4096;
  limits.filter_depth = 8;
  limits.filter_count = 20;
  return limits;
}

Status Parse(const std::string& text, const FilterLimits& limits) {
  std::shared_ptr<const Filter> f;
  return ParseFilterString(text, limits, &f);
}

void ExpectLimitError(const Status& s, const std::string& limit) {
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_EQ(s.message().rfind("Incorrect Filter String", 0), 0u) << s.message();
  EXPECT_NE(s.message().find("--limit " + limit + "=N"), std::string::npos) << s.message();
}

TEST(FilterLimitsTest, DefaultsAreTheLimitsModules) {
  const FilterLimits defaults;
  EXPECT_EQ(defaults.filter_depth, 512);
  EXPECT_EQ(defaults.filter_string_bytes, 4 << 20);
  EXPECT_EQ(defaults.filter_count, 200000);
  // ParseFilterString without limits reads the limits in force.
  std::shared_ptr<const Filter> f;
  EXPECT_OK(ParseFilterString(NestedLists(512), &f));
  ExpectLimitError(ParseFilterString(NestedLists(513), &f), "filter_depth");
}

TEST(FilterLimitsTest, StringAtTheByteLimitParsesAndOneByteMoreIsRefused) {
  FilterLimits limits;
  const std::string text = std::string(kLeaf) + "   ";  // padding is legal
  limits.filter_string_bytes = static_cast<int64_t>(text.size());
  EXPECT_OK(Parse(text, limits));
  ExpectLimitError(Parse(text + " ", limits), "filter_string_bytes");
}

TEST(FilterLimitsTest, ByteLimitIsCheckedBeforeAnythingIsRead) {
  FilterLimits limits;
  limits.filter_string_bytes = 100;
  // Garbage past the limit reports the limit, not a syntax error.
  const Status s = Parse(std::string(101, ')'), limits);
  ExpectLimitError(s, "filter_string_bytes");
  EXPECT_NE(s.message().find("101 bytes"), std::string::npos) << s.message();
}

TEST(FilterLimitsTest, NestedListsAtTheDepthLimitParseAndOneMoreLevelIsRefused) {
  const FilterLimits limits = SmallLimits();
  for (const char* op : {"AND", "OR"}) {
    EXPECT_OK(Parse(NestedLists(8, op), limits)) << op;
    ExpectLimitError(Parse(NestedLists(9, op), limits), "filter_depth");
  }
  EXPECT_OK(Parse(AlternatingLists(8), limits));
  ExpectLimitError(Parse(AlternatingLists(9), limits), "filter_depth");
}

TEST(FilterLimitsTest, SkipAndWhileChainsAtTheDepthLimitParseAndOneMoreIsRefused) {
  const FilterLimits limits = SmallLimits();
  for (const std::string word : {"SKIP ", "WHILE ", "SKIP WHILE "}) {
    const size_t per = word == "SKIP WHILE " ? 2 : 1;
    EXPECT_OK(Parse(Repeat(word, 8 / per) + kLeaf, limits)) << word;
    ExpectLimitError(Parse(Repeat(word, 8 / per) + (per == 2 ? "SKIP " : word) + kLeaf, limits),
                     "filter_depth");
  }
}

TEST(FilterLimitsTest, OpenParenthesesCountAsLevelsWhileTheTextIsRead) {
  const FilterLimits limits = SmallLimits();
  EXPECT_OK(Parse(std::string(8, '(') + kLeaf + std::string(8, ')'), limits));
  // Refused at the ninth '(' already, whatever follows.
  ExpectLimitError(Parse(std::string(9, '(') + "no filter at all", limits), "filter_depth");
  // The parenthesis right after SKIP/WHILE is the operand's, not a level of its own.
  EXPECT_OK(Parse(Repeat("SKIP (", 4) + NestedLists(4) + std::string(4, ')'), limits));
  ExpectLimitError(Parse(Repeat("WHILE (", 4) + NestedLists(5) + std::string(4, ')'), limits),
                   "filter_depth");
}

TEST(FilterLimitsTest, PrecedenceLevelsCountInTheBuiltTree) {
  FilterLimits limits;
  limits.filter_depth = 1;
  // No parentheses, yet OR(AND(a, b), c) is two levels deep.
  const std::string two_levels = std::string(kLeaf) + " AND " + kLeaf + " OR " + kLeaf;
  EXPECT_OK(Parse(FlatList(5, "AND"), limits));
  ExpectLimitError(Parse(two_levels, limits), "filter_depth");
  limits.filter_depth = 2;
  EXPECT_OK(Parse(two_levels, limits));
}

TEST(FilterLimitsTest, AMillionSkipsAreRefusedAsSoonAsTheDepthIsPassed) {
  FilterLimits limits;
  limits.filter_string_bytes = 64 << 20;  // let the depth limit be the one that answers
  const Status s = Parse(Repeat("SKIP ", 1000000) + kLeaf, limits);
  ExpectLimitError(s, "filter_depth");
  ExpectLimitError(Parse(Repeat("WHILE ", 1000000) + kLeaf, limits), "filter_depth");
  ExpectLimitError(Parse(NestedLists(200000), limits), "filter_depth");
}

TEST(FilterLimitsTest, FilterCountCountsLeavesAndLists) {
  const FilterLimits limits = SmallLimits();  // 20 filters
  EXPECT_OK(Parse(FlatList(19, "AND"), limits));  // 19 leaves + 1 list
  ExpectLimitError(Parse(FlatList(20, "AND"), limits), "filter_count");
  ExpectLimitError(Parse(FlatList(21, "OR"), limits), "filter_count");
  // SKIP and WHILE are filters too: 18 leaves + a list + a SKIP is one too many.
  EXPECT_OK(Parse("SKIP (" + FlatList(18, "AND") + ")", limits));
  ExpectLimitError(Parse("SKIP (" + FlatList(19, "AND") + ")", limits), "filter_count");
}

TEST(FilterLimitsTest, AWideFlatListWithinTheDefaultsParsesIntoOneList) {
  std::shared_ptr<const Filter> f;
  ASSERT_OK(ParseFilterString(FlatList(100000, "AND"), &f));
  const auto* list = dynamic_cast<const FilterList*>(f.get());
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->filters().size(), 100000u);
  ASSERT_OK(ParseFilterString(FlatList(100000, "OR"), &f));
  list = dynamic_cast<const FilterList*>(f.get());
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->op(), FilterList::Op::kOr);
  EXPECT_EQ(list->filters().size(), 100000u);
}

TEST(FilterLimitsTest, ErrorsQuoteOnlyTheStartOfALongExpression) {
  std::shared_ptr<const Filter> f;
  const std::string huge(1 << 20, 'x');
  for (const std::string& text : {"PageFilter('" + huge + "')", huge + "Filter('a')"}) {
    const Status s = ParseFilterString(text, &f);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
    EXPECT_LT(s.message().size(), 1024u);
    EXPECT_NE(s.message().find("bytes)"), std::string::npos) << s.message();
  }
}

TEST(FilterLimitsTest, ListOperandsKeepTheirOrder) {
  std::shared_ptr<const Filter> f;
  ASSERT_OK(ParseFilterString("PrefixFilter('a') AND PrefixFilter('b') AND PrefixFilter('c') OR "
                              "PrefixFilter('d') OR PrefixFilter('e')",
                              &f));
  EXPECT_EQ(f->ToString(),
            "OR(AND(PrefixFilter('a'), PrefixFilter('b'), PrefixFilter('c')), PrefixFilter('d'), "
            "PrefixFilter('e'))");
}

// ------------------------------------------------------------ the deepest trees on a small stack

// Runs `body` on a thread whose stack is `bytes` long (the process's other threads have 8 MiB).
void RunOnStack(size_t bytes, const std::function<void()>& body) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, bytes), 0);
  pthread_t thread;
  auto* task = new std::function<void()>(body);
  ASSERT_EQ(pthread_create(
                &thread, &attr,
                [](void* arg) -> void* {
                  std::unique_ptr<std::function<void()>> f(static_cast<std::function<void()>*>(arg));
                  (*f)();
                  return nullptr;
                },
                task),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

// Every shape `depth` levels deep: parse, clone, reverse, restart, ToString, scans forward and
// reversed over a pre-split table (seek hints through nested lists too), a get, and
// destruction, all on a 256 KiB stack. Nothing recurses per level, so the depth does not matter
// to the stack; the ASan build (scripts/test.sh), whose frames are several times larger, runs
// this too.
void RunEveryShapeOnASmallStack(int64_t depth, const FilterLimits& limits) {
  std::string mixed;  // SKIP, WHILE and both list kinds taking turns, one level each
  for (int64_t i = 0; i < depth; ++i) {
    switch (i % 4) {
      case 0: mixed += "SKIP ("; break;
      case 1: mixed += std::string(kLeaf) + " AND ("; break;
      case 2: mixed += "WHILE ("; break;
      case 3: mixed += std::string(kLeaf) + " OR ("; break;
    }
  }
  const size_t levels = static_cast<size_t>(depth);
  mixed += kLeaf + std::string(levels, ')');
  // Over table "t" (one column f:q), every shape passes every row whole.
  const std::vector<std::string> shapes = {
      NestedLists(levels, "AND"), NestedLists(levels, "OR"), AlternatingLists(levels),
      Repeat("SKIP ", levels) + kLeaf, Repeat("WHILE ", levels) + kLeaf, mixed};
  // Over table "h" (columns f:a and f:q), seek hints come up through every level to skip f:a.
  std::string hints;
  for (size_t i = 0; i < levels; ++i) hints += i % 2 ? "ColumnPrefixFilter('q') OR (" : "ColumnPrefixFilter('q') AND (";
  hints += "ColumnPrefixFilter('q')" + std::string(levels, ')');

  bool finished = false;
  RunOnStack(256 << 10, [&] {
    ManualClock clock{testutil::kTestNowMs};
    std::unique_ptr<Store> store;
    ASSERT_OK(testutil::OpenInMemoryStore(&clock, &store));
    TableDescriptor table;
    table.families = {testutil::Family("f")};
    table.split_keys = {"r3", "r6"};
    ASSERT_OK(store->CreateTable("t", table));
    ASSERT_OK(store->CreateTable("h", table));
    for (const char* r : {"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"}) {
      ASSERT_OK(store->Mutate("t", testutil::Row(r, {testutil::PutOp("f", "q", 1, r)})));
      ASSERT_OK(store->Mutate("h", testutil::Row(r, {testutil::PutOp("f", "a", 1, r),
                                                     testutil::PutOp("f", "q", 1, r)})));
    }
    std::vector<std::pair<std::string, const std::string*>> runs;
    for (const std::string& text : shapes) runs.emplace_back("t", &text);
    runs.emplace_back("h", &hints);
    for (const auto& [table_name, text] : runs) {
      std::shared_ptr<const Filter> parsed;
      ASSERT_OK(ParseFilterString(*text, limits, &parsed)) << text->substr(0, 60);
      std::unique_ptr<Filter> copy = parsed->Clone();
      copy->SetReversed(true);
      copy->Restart();
      copy->Reset();
      EXPECT_FALSE(copy->ToString().empty());
      copy.reset();
      for (bool reversed : {false, true}) {
        ScanSpec scan;
        scan.reversed = reversed;
        scan.read.filter = parsed;
        std::unique_ptr<Scanner> scanner;
        ASSERT_OK(store->OpenScanner(table_name, scan, &scanner));
        std::vector<RowResult> rows;
        ASSERT_OK(scanner->Next(100, &rows));
        ASSERT_EQ(rows.size(), 8u) << text->substr(0, 60) << (reversed ? " reversed" : "");
        for (const RowResult& row : rows) {
          ASSERT_EQ(row.cells.size(), 1u);
          EXPECT_EQ(row.cells[0].qualifier, "q");
        }
      }
      ReadSpec get;
      get.filter = parsed;
      RowResult row;
      ASSERT_OK(store->Get(table_name, "r4", get, &row));
      EXPECT_EQ(row.cells.size(), 1u);
    }
    finished = true;
  });
  EXPECT_TRUE(finished);
}

TEST(FilterDepthTest, DeepestTreesTheDefaultAllowsRunOnA256KiBStack) {
  const FilterLimits defaults;
  RunEveryShapeOnASmallStack(defaults.filter_depth, defaults);
}

TEST(FilterDepthTest, TreesFortyTimesDeeperRunOnA256KiBStackUnderARaisedLimit) {
  FilterLimits raised;
  raised.filter_depth = 20480;
  RunEveryShapeOnASmallStack(raised.filter_depth, raised);
}

}  // namespace
}  // namespace hbemu::storage
