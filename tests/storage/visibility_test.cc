// RowVisibility on its own (visibility.h): table-driven marker, version, time-range and TTL
// cases. Each case lists a row's stored cells in any order; the test sorts them into cell-key
// order (as LevelDB would hand them over) and checks what a read sees.

#include "storage/visibility.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/key_format.h"
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

std::vector<std::string> Resolve(const TableDescriptor& table, const ReadSpec& spec,
                                 std::vector<Stored> cells, int64_t now = kNow) {
  auto key = [](const Stored& c) { return CellKey(1, "r", c.family, c.qualifier, c.ts, c.type); };
  std::sort(cells.begin(), cells.end(),
            [&](const Stored& a, const Stored& b) { return key(a) < key(b); });
  RowVisibility visibility(&table, &spec, now);
  std::vector<Cell> out;
  for (const auto& c : cells) {
    std::string stored;
    if (c.type == CellType::kPut) EncodeCellValue(&stored, c.value, c.expires_at);
    visibility.Add(c.family, c.qualifier, c.ts, c.type, stored, &out);
  }
  return CellStrings(out);
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

}  // namespace
}  // namespace hbemu::storage
