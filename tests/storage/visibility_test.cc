// RowVisibility on its own (visibility.h): table-driven marker, version, time-range and TTL
// cases. Each case lists a row's stored cells in any order; the test sorts them into cell-key
// order (as LevelDB would hand them over) and checks what a read sees.

#include "storage/visibility.h"

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/coding.h"
#include "storage/filter_parser.h"
#include "storage/key_format.h"
#include "storage/row_batch.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellStrings;

using namespace std::string_literals;

constexpr int64_t kNow = testutil::kTestNowMs;
constexpr CellType kPut = CellType::kPut;
constexpr CellType kDel = CellType::kDelete;
constexpr CellType kDelCol = CellType::kDeleteColumn;
constexpr CellType kDelFam = CellType::kDeleteFamily;
constexpr CellType kDelFamVer = CellType::kDeleteFamilyVersion;

struct Stored {
  std::string family;
  std::string qualifier;
  int64_t ts;
  CellType type;
  std::string value = "";
  int64_t expires_at = kNoExpiry;
};

struct Case {
  const char* name;
  std::vector<Stored> cells;
  std::vector<std::string> expected;
  int32_t max_versions = 3;
  TimeRange range = TimeRange();
};

TableDescriptor MakeTable(int32_t f_versions = 3, int32_t ttl = kForeverTtl,
                          int32_t min_versions = 0,
                          KeepDeletedCells kdc = KeepDeletedCells::kFalse) {
  TableDescriptor t;
  t.id = 1;
  t.name = TableName{"default", "t"};
  FamilyDescriptor f;
  f.name = "f";
  f.max_versions = f_versions;
  f.ttl_seconds = ttl;
  f.min_versions = min_versions;
  f.keep_deleted_cells = kdc;
  FamilyDescriptor g;
  g.name = "g";
  g.max_versions = 3;
  t.families = {f, g};
  return t;
}

std::string StoredKey(const Stored& c) {
  return CellKey(1, "r", c.family, c.qualifier, c.ts, c.type);
}

std::vector<Stored> SortedByKey(std::vector<Stored> cells) {
  std::sort(cells.begin(), cells.end(),
            [](const Stored& a, const Stored& b) { return StoredKey(a) < StoredKey(b); });
  return cells;
}

std::string StoredValue(const Stored& c) {
  std::string stored;
  if (c.type == CellType::kPut) EncodeCellValue(&stored, c.value, c.expires_at);
  return stored;
}

// Feeds every cell, as a reader that ignores SkipAhead does.
std::vector<std::string> ResolveAll(const TableDescriptor& table, const ReadSpec& spec,
                                    const std::vector<Stored>& sorted, int64_t now) {
  RowVisibility visibility(&table, &spec, now);
  std::vector<Cell> out;
  for (const auto& c : sorted) {
    visibility.Add(c.family, c.qualifier, c.ts, c.type, StoredValue(c), &out);
  }
  return CellStrings(out);
}

// The same into a RowBatch, the scan path's sink, rendered as CellStrings renders Cells.
std::vector<std::string> ResolveIntoBatch(const TableDescriptor& table, const ReadSpec& spec,
                                          const std::vector<Stored>& sorted, int64_t now,
                                          Filter* filter = nullptr) {
  RowVisibility visibility(&table, &spec, now, filter, "r");
  RowBatch batch;
  batch.BeginRow("r");
  for (const auto& c : sorted) {
    visibility.Add(c.family, c.qualifier, c.ts, c.type, StoredValue(c), &batch);
  }
  return CellStrings(batch.ToRowResult(0).cells);
}

// Follows SkipAhead as RowReader does: a seek lands on the first cell at or after
// the target. *fed counts the cells handed to Add.
std::vector<std::string> ResolveSkipping(const TableDescriptor& table, const ReadSpec& spec,
                                         const std::vector<Stored>& sorted, int64_t now,
                                         size_t* fed = nullptr) {
  const std::string prefix = RowKeyPrefix(1, "r");
  RowVisibility visibility(&table, &spec, now);
  std::vector<Cell> out;
  std::string suffix;
  size_t count = 0;
  for (size_t i = 0; i < sorted.size();) {
    const Stored& c = sorted[i];
    visibility.Add(c.family, c.qualifier, c.ts, c.type, StoredValue(c), &out);
    ++count;
    const RowVisibility::Skip skip = visibility.SkipAhead(&suffix);
    if (skip == RowVisibility::Skip::kRowDone) break;
    if (skip == RowVisibility::Skip::kNone) {
      ++i;
      continue;
    }
    const std::string target =
        skip == RowVisibility::Skip::kNextColumn
            ? PrefixSuccessor(prefix + ColumnKeySuffix(c.family, c.qualifier))
            : prefix + suffix;
    EXPECT_GT(target, StoredKey(c)) << "a seek must move forward";
    while (i < sorted.size() && StoredKey(sorted[i]) < target) ++i;
  }
  if (fed != nullptr) *fed = count;
  return CellStrings(out);
}

// What a read sees; skipping as SkipAhead allows must not change it.
std::vector<std::string> Resolve(const TableDescriptor& table, const ReadSpec& spec,
                                 std::vector<Stored> cells, int64_t now = kNow) {
  const std::vector<Stored> sorted = SortedByKey(std::move(cells));
  std::vector<std::string> all = ResolveAll(table, spec, sorted, now);
  EXPECT_EQ(ResolveSkipping(table, spec, sorted, now), all) << "skipping changed the result";
  EXPECT_EQ(ResolveIntoBatch(table, spec, sorted, now), all) << "the sink saw other cells";
  return all;
}

void RunCases(const TableDescriptor& table, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ReadSpec spec;
    spec.max_versions = c.max_versions;
    spec.time_range = c.range;
    EXPECT_EQ(Resolve(table, spec, c.cells), c.expected);
  }
}

TEST(VisibilityTest, MarkersMaskWhatTheyCover) {
  RunCases(MakeTable(), {
      {"DeleteColumnMasksOlderVersionsOnly",
       {{"f", "q", 10, kPut, "a"}, {"f", "q", 20, kPut, "b"}, {"f", "q", 30, kPut, "c"},
        {"f", "q", 20, kDelCol}},
       {"f:q@30=c"}},
      {"VersionDeleteMasksExactTimestampOnly",
       {{"f", "q", 10, kPut, "a"}, {"f", "q", 20, kPut, "b"}, {"f", "q", 30, kPut, "c"},
        {"f", "q", 20, kDel}},
       {"f:q@30=c", "f:q@10=a"}},
      {"TwoVersionDeletes",
       {{"f", "q", 10, kPut, "a"}, {"f", "q", 20, kPut, "b"}, {"f", "q", 30, kPut, "c"},
        {"f", "q", 30, kDel}, {"f", "q", 10, kDel}},
       {"f:q@20=b"}},
      {"VersionDeleteThenOlderDeleteColumn",
       {{"f", "q", 10, kPut, "a"}, {"f", "q", 25, kPut, "b"}, {"f", "q", 30, kPut, "c"},
        {"f", "q", 30, kDel}, {"f", "q", 20, kDelCol}},
       {"f:q@25=b"}},
      {"ColumnMarkersStayInTheirColumn",
       {{"f", "a", 10, kPut, "a"}, {"f", "b", 10, kPut, "b"}, {"f", "c", 10, kPut, "c"},
        {"f", "a", 10, kDelCol}, {"f", "b", 10, kDel}},
       {"f:c@10=c"}},
      {"DeleteFamilyMasksEveryColumnIncludingEmptyQualifier",
       {{"f", "", 10, kPut, "e"}, {"f", "a", 20, kPut, "a"}, {"f", "b", 21, kPut, "b"},
        {"f", "", 20, kDelFam}, {"g", "a", 5, kPut, "g"}},
       {"f:b@21=b", "g:a@5=g"}},
      {"NewestDeleteFamilyWins",
       {{"f", "a", 15, kPut, "a"}, {"f", "", 10, kDelFam}, {"f", "", 20, kDelFam}},
       {}},
      {"DeleteFamilyVersionMasksOneTimestampInEveryColumn",
       {{"f", "", 20, kPut, "e"}, {"f", "a", 20, kPut, "a20"}, {"f", "a", 10, kPut, "a10"},
        {"f", "b", 20, kPut, "b"}, {"f", "", 20, kDelFamVer}, {"g", "x", 20, kPut, "g"}},
       {"f:a@10=a10", "g:x@20=g"}},
      {"FamilyMarkersStayInTheirFamily",
       {{"f", "", 100, kDelFam}, {"g", "a", 5, kPut, "g"}, {"f", "a", 5, kPut, "f"}},
       {"g:a@5=g"}},
      {"MarkerAtEqualTimestampCoversPut",
       {{"f", "q", 7, kPut, "x"}, {"f", "q", 7, kDelCol}, {"f", "r", 7, kPut, "y"},
        {"f", "r", 7, kDel}},
       {}},
      {"NewerPutOutlivesOlderMarker",
       {{"f", "q", 8, kPut, "x"}, {"f", "q", 7, kDelCol}}, {"f:q@8=x"}},
  });
}

TEST(VisibilityTest, VersionsAreCountedAfterDeletesAndTimeRange) {
  const std::vector<Stored> four = {{"f", "q", 10, kPut, "a"}, {"f", "q", 20, kPut, "b"},
                                    {"f", "q", 30, kPut, "c"}, {"f", "q", 40, kPut, "d"}};
  std::vector<Stored> deleted_newest = four;
  deleted_newest.push_back({"f", "q", 40, kDel});
  RunCases(MakeTable(3), {
      {"CappedByFamilyVersions", four, {"f:q@40=d", "f:q@30=c", "f:q@20=b"}, 10},
      {"CappedByRequest", four, {"f:q@40=d"}, 1},
      {"DeletedVersionsDoNotCount", deleted_newest, {"f:q@30=c", "f:q@20=b", "f:q@10=a"}, 3},
      {"RangeBeforeCount", four, {"f:q@30=c"}, 1, TimeRange{0, 35}},
      {"RangeIsHalfOpen", four, {"f:q@30=c", "f:q@20=b"}, 3, TimeRange{20, 40}},
      {"EachColumnCountsSeparately",
       {{"f", "a", 1, kPut, "1"}, {"f", "a", 2, kPut, "2"}, {"f", "b", 1, kPut, "3"}},
       {"f:a@2=2", "f:b@1=3"}, 1},
  });
}

TEST(VisibilityTest, MarkerOutsideTimeRangeAppliesOnlyWithoutKeepDeletedCells) {
  const std::vector<Stored> cells = {{"f", "q", 100, kPut, "a"}, {"f", "q", 200, kDelCol}};
  RunCases(MakeTable(3), {{"NormalStaysMasked", cells, {}, 3, TimeRange{0, 150}}});
  RunCases(MakeTable(3, kForeverTtl, 0, KeepDeletedCells::kTrue), {
      {"KeepDeletedSeesBehind", cells, {"f:q@100=a"}, 3, TimeRange{0, 150}},
      {"KeepDeletedWithoutRangeStaysMasked", cells, {}, 3},
  });
}

TEST(VisibilityTest, FamilyTtlHidesExpiredVersionsBeyondMinVersions) {
  const int64_t h = 3600 * 1000;
  const std::vector<Stored> cells = {{"f", "q", kNow - 10 * h, kPut, "a"},
                                     {"f", "q", kNow - 9 * h, kPut, "b"},
                                     {"f", "q", kNow - 1, kPut, "c"}};
  RunCases(MakeTable(3, 3600, 0), {{"NoMinVersions", cells, {"f:q@" + std::to_string(kNow - 1) + "=c"}}});
  RunCases(MakeTable(3, 3600, 2),
           {{"MinVersionsTwo", cells,
             {"f:q@" + std::to_string(kNow - 1) + "=c", "f:q@" + std::to_string(kNow - 9 * h) + "=b"}}});
  // The other family has no TTL.
  RunCases(MakeTable(3, 3600, 0),
           {{"OtherFamilyUnaffected", {{"g", "q", 1, kPut, "old"}}, {"g:q@1=old"}}});
}

TEST(VisibilityTest, CellTtlExpiresBeforeCounting) {
  RunCases(MakeTable(3, kForeverTtl, 1), {
      {"ExpiredCellSkipped",
       {{"f", "q", 10, kPut, "old"}, {"f", "q", 20, kPut, "gone", kNow - 1}},
       {"f:q@10=old"}, 1},
      {"DeadlineEqualToNowStillVisible",
       {{"f", "q", 20, kPut, "edge", kNow}}, {"f:q@20=edge"}, 1},
  });
}

TEST(VisibilityTest, ColumnSelectionKeepsMarkersFromUnselectedColumns) {
  TableDescriptor table = MakeTable();
  ReadSpec spec;
  spec.max_versions = 3;
  spec.columns.AddColumn("f", "b");
  // The family marker lives under the unselected empty qualifier but still applies to f:b.
  EXPECT_EQ(Resolve(table, spec,
                    {{"f", "", 10, kDelFam}, {"f", "a", 20, kPut, "a"}, {"f", "b", 10, kPut, "old"},
                     {"f", "b", 20, kPut, "new"}, {"g", "b", 20, kPut, "g"}}),
            (std::vector<std::string>{"f:b@20=new"}));
}

TEST(VisibilityTest, CellsOfUnknownFamiliesAndUndecodableValuesAreIgnored) {
  TableDescriptor table = MakeTable();
  ReadSpec spec;
  RowVisibility visibility(&table, &spec, kNow);
  std::vector<Cell> out;
  std::string ok;
  EncodeCellValue(&ok, "v", kNoExpiry);
  visibility.Add("e", "q", 1, kPut, ok, &out);            // family dropped from the schema
  visibility.Add("f", "a", 1, kPut, "\x07junk"s, &out);   // unknown value tag
  visibility.Add("f", "b", 1, kPut, ok, &out);
  EXPECT_EQ(CellStrings(out), (std::vector<std::string>{"f:b@1=v"}));
}

TEST(VisibilitySkipTest, ColumnWithItsVersionsIsSkippedNotWalked) {
  TableDescriptor table = MakeTable(3);
  std::vector<Stored> cells;
  for (int64_t ts = 1; ts <= 10000; ++ts) cells.push_back({"f", "n", ts, kPut, "v"});
  cells.push_back({"f", "z", 1, kPut, "z"});
  const std::vector<Stored> sorted = SortedByKey(cells);
  ReadSpec spec;
  spec.max_versions = 2;
  size_t fed = 0;
  EXPECT_EQ(ResolveSkipping(table, spec, sorted, kNow, &fed),
            (std::vector<std::string>{"f:n@10000=v", "f:n@9999=v", "f:z@1=z"}));
  EXPECT_EQ(fed, 3u);

  // Reading one column of the row stops once it has its version.
  spec.max_versions = 1;
  spec.columns.AddColumn("f", "n");
  EXPECT_EQ(ResolveSkipping(table, spec, sorted, kNow, &fed),
            (std::vector<std::string>{"f:n@10000=v"}));
  EXPECT_EQ(fed, 1u);
}

TEST(VisibilitySkipTest, UnselectedColumnsAndFamiliesAreSkipped) {
  TableDescriptor table = MakeTable(3);
  std::vector<Stored> cells;
  for (int64_t ts = 1; ts <= 100; ++ts) {
    cells.push_back({"f", "a", ts, kPut, "a"});
    cells.push_back({"f", "c", ts, kPut, "c"});
    cells.push_back({"g", "a", ts, kPut, "g"});
  }
  cells.push_back({"f", "b", 7, kPut, "b"});
  ReadSpec spec;
  spec.columns.AddColumn("f", "b");
  size_t fed = 0;
  EXPECT_EQ(ResolveSkipping(table, spec, SortedByKey(cells), kNow, &fed),
            (std::vector<std::string>{"f:b@7=b"}));
  EXPECT_EQ(fed, 2u);  // the first cell of f:a, then f:b
}

TEST(VisibilitySkipTest, EmptyQualifierKeepsFamilyMarkersBehindItsVersions) {
  // f:"" has its one version at ts 50, but the DeleteFamilyVersion at 5 sorts after it in the
  // same column and still masks f:b@5.
  TableDescriptor table = MakeTable(1);
  size_t fed = 0;
  ReadSpec spec;
  EXPECT_EQ(ResolveSkipping(table, spec,
                            SortedByKey({{"f", "", 50, kPut, "e"},
                                         {"f", "", 40, kPut, "old"},
                                         {"f", "", 5, kDelFamVer},
                                         {"f", "b", 5, kPut, "b"}}),
                            kNow, &fed),
            (std::vector<std::string>{"f:@50=e"}));
  EXPECT_EQ(fed, 4u);
}

TEST(VisibilitySkipTest, CounterOnTheEmptyQualifierSkipsTheRestOfItsFamily) {
  // Family markers under "" only matter to columns of the family that are read; reading f:""
  // alone (an increment of "f:"), nothing after its newest version matters.
  TableDescriptor table = MakeTable(3);
  std::vector<Stored> cells;
  for (int64_t ts = 1; ts <= 10000; ++ts) cells.push_back({"f", "", ts, kPut, "v"});
  cells.push_back({"f", "", 5, kDelFamVer});
  cells.push_back({"f", "", 3, kDelFam});
  cells.push_back({"f", "b", 5, kPut, "b"});
  cells.push_back({"g", "", 1, kPut, "g"});
  const std::vector<Stored> sorted = SortedByKey(cells);
  ReadSpec spec;
  spec.columns.AddColumn("f", "");
  size_t fed = 0;
  EXPECT_EQ(ResolveSkipping(table, spec, sorted, kNow, &fed),
            (std::vector<std::string>{"f:@10000=v"}));
  EXPECT_EQ(fed, 1u);
  // With f:b also read, the markers behind f:"" still count.
  spec.columns.AddColumn("f", "b");
  EXPECT_EQ(Resolve(table, spec, cells), (std::vector<std::string>{"f:@10000=v"}));
}

TEST(VisibilitySkipTest, NeverSkipsWithAFilter) {
  // A filter may ask for older versions (HBASE-17125), so every cell must reach it.
  TableDescriptor table = MakeTable(3);
  ReadSpec spec;
  std::shared_ptr<const Filter> parsed;
  ASSERT_OK(ParseFilterString("ValueFilter(=, 'binary:a')", &parsed));
  std::unique_ptr<Filter> filter = parsed->Clone();
  RowVisibility visibility(&table, &spec, kNow, filter.get(), "r");
  std::vector<Cell> out;
  std::string v;
  EncodeCellValue(&v, "b", kNoExpiry);
  visibility.Add("f", "q", 2, kPut, v, &out);
  std::string suffix;
  EXPECT_EQ(visibility.SkipAhead(&suffix), RowVisibility::Skip::kNone);
}

// The scan path hands visible cells to a CellSink (a RowBatch) instead of building Cells: it
// must get exactly the cells, bytes and order of the vector form, filter decisions and a
// filter's rewritten cells (KeyOnlyFilter) included.
TEST(VisibilitySinkTest, SinkGetsWhatTheVectorFormGets) {
  TableDescriptor table = MakeTable(3);
  ReadSpec spec;
  spec.max_versions = 2;
  const std::vector<Stored> sorted = SortedByKey({
      {"f", "", 5, kPut, "empty qualifier"},
      {"f", "a", 9, kPut, "\0\xff binary"s},
      {"f", "a", 8, kPut, "older"},
      {"f", "a", 7, kPut, "beyond the versions"},
      {"f", "b", 6, kDel},
      {"f", "b", 6, kPut, "deleted"},
      {"f", "b", 4, kPut, "visible"},
      {"g", "c", 3, kPut, ""},
  });
  for (const char* text : {"", "KeyOnlyFilter()", "ValueFilter(!=, 'binary:older')"}) {
    SCOPED_TRACE(text);
    std::shared_ptr<const Filter> parsed;
    std::unique_ptr<Filter> for_vector, for_batch;
    if (*text != '\0') {
      ASSERT_OK(ParseFilterString(text, &parsed));
      for_vector = parsed->Clone();
      for_batch = parsed->Clone();
    }
    RowVisibility visibility(&table, &spec, kNow, for_vector.get(), "r");
    std::vector<Cell> cells;
    for (const auto& c : sorted) {
      visibility.Add(c.family, c.qualifier, c.ts, c.type, StoredValue(c), &cells);
    }
    EXPECT_FALSE(cells.empty());
    EXPECT_EQ(ResolveIntoBatch(table, spec, sorted, kNow, for_batch.get()), CellStrings(cells));
  }
}

// Random rows, tables and reads: following SkipAhead sees exactly what feeding every cell sees.
TEST(VisibilitySkipTest, SkippingNeverChangesWhatARandomReadSees) {
  std::mt19937_64 rng = testutil::MakeRng(6);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const std::vector<std::string> families = {"e", "f", "g"};  // "e" is not in the schema
  const std::vector<std::string> qualifiers = {"", "\0"s, "\0\0"s, "a", "a\0"s, "b", "\xff"s};
  const CellType types[] = {kPut, kPut, kPut, kDel, kDelCol, kDelFam, kDelFamVer};
  for (int iteration = 0; iteration < 4000; ++iteration) {
    const KeepDeletedCells kdc = static_cast<KeepDeletedCells>(pick(3));
    const int32_t f_versions = 1 + pick(4);
    TableDescriptor table =
        MakeTable(f_versions, pick(3) == 0 ? 3600 : kForeverTtl, pick(f_versions + 1), kdc);
    std::vector<Stored> cells;
    const int n = 1 + pick(40);
    for (int i = 0; i < n; ++i) {
      const CellType type = types[pick(7)];
      const bool family_marker = type == kDelFam || type == kDelFamVer;
      Stored c{families[pick(3)], family_marker ? "" : qualifiers[pick(7)], 1 + pick(12), type};
      if (pick(4) == 0) c.ts = kNow - 3600 * 1000 - 1 - pick(3);  // past the family TTL
      if (type == kPut) {
        c.value = "v" + std::to_string(i);
        if (pick(6) == 0) c.expires_at = kNow - 1 + pick(3);
      }
      cells.push_back(c);
    }
    ReadSpec spec;
    spec.max_versions = 1 + pick(4);
    if (pick(3) == 0) spec.time_range = TimeRange{pick(8), 4 + pick(12)};
    for (int k = pick(4); k > 0; --k) {
      const std::string family = families[1 + pick(2)];
      if (pick(3) == 0) {
        spec.columns.AddFamily(family);
      } else {
        spec.columns.AddColumn(family, qualifiers[pick(7)]);
      }
    }
    const std::vector<Stored> sorted = SortedByKey(cells);
    SCOPED_TRACE("iteration " + std::to_string(iteration));
    ASSERT_EQ(ResolveSkipping(table, spec, sorted, kNow), ResolveAll(table, spec, sorted, kNow));
  }
}

// A scan reuses one RowVisibility from row to row (Reset). Each row must then be seen exactly
// as a new instance sees it, markers, versions, selections, TTLs and filters included: nothing
// of a row may leak into the next, whichever families the rows have.
TEST(VisibilityResetTest, ResetForTheNextRowSeesWhatANewInstanceSees) {
  std::mt19937_64 rng = testutil::MakeRng(12);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const std::vector<std::string> families = {"e", "f", "g"};  // "e" is not in the schema
  const std::vector<std::string> qualifiers = {"", "\0"s, "a", "b", "\xff"s};
  const CellType types[] = {kPut, kPut, kPut, kDel, kDelCol, kDelFam, kDelFamVer};
  const char* filters[] = {"", "", "ValueFilter(!=, 'binary:v3')", "ColumnPaginationFilter(1, 1)",
                           "KeyOnlyFilter()"};
  for (int iteration = 0; iteration < 1000; ++iteration) {
    SCOPED_TRACE("iteration " + std::to_string(iteration));
    const int32_t f_versions = 1 + pick(3);
    TableDescriptor table = MakeTable(f_versions, pick(3) == 0 ? 3600 : kForeverTtl,
                                      pick(f_versions + 1), static_cast<KeepDeletedCells>(pick(3)));
    ReadSpec spec;
    spec.max_versions = 1 + pick(3);
    if (pick(3) == 0) spec.time_range = TimeRange{pick(6), 4 + pick(10)};
    for (int k = pick(3); k > 0; --k) {
      const std::string family = families[1 + pick(2)];
      if (pick(2) == 0) {
        spec.columns.AddFamily(family);
      } else {
        spec.columns.AddColumn(family, qualifiers[pick(5)]);
      }
    }
    std::shared_ptr<const Filter> parsed;
    const char* text = filters[pick(5)];
    if (*text != '\0') {
      ASSERT_OK(ParseFilterString(text, &parsed));
    }
    std::unique_ptr<Filter> reused_filter = parsed ? parsed->Clone() : nullptr;
    RowVisibility reused(&table, &spec, kNow);
    for (int row = 0; row < 4; ++row) {
      std::vector<Stored> cells;
      for (int i = 1 + pick(12); i > 0; --i) {
        const CellType type = types[pick(7)];
        const bool family_marker = type == kDelFam || type == kDelFamVer;
        Stored c{families[pick(3)], family_marker ? "" : qualifiers[pick(5)], 1 + pick(10), type};
        if (pick(4) == 0) c.ts = kNow - 3600 * 1000 - 1 - pick(3);  // past the family TTL
        if (type == kPut) c.value = "v" + std::to_string(pick(6));
        cells.push_back(c);
      }
      const std::vector<Stored> sorted = SortedByKey(cells);
      const std::string key = "row" + std::to_string(row);
      std::unique_ptr<Filter> fresh_filter = parsed ? parsed->Clone() : nullptr;
      RowVisibility fresh(&table, &spec, kNow, fresh_filter.get(), key);
      reused.Reset(reused_filter.get(), key);
      std::vector<Cell> want, got;
      for (const Stored& c : sorted) {
        fresh.Add(c.family, c.qualifier, c.ts, c.type, StoredValue(c), &want);
        reused.Add(c.family, c.qualifier, c.ts, c.type, StoredValue(c), &got);
      }
      ASSERT_EQ(CellStrings(got), CellStrings(want)) << "row " << row;
      if (reused_filter != nullptr) reused_filter->Reset();  // as ReadRow does between rows
    }
  }
}

}  // namespace
}  // namespace hbemu::storage
