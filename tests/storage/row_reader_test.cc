// RowReader (row_reader.h) over a real LevelDB: each rule it took over from the three row loops
// it replaced (Store's point read, the scanner's ReadRow, the flush's CollectRow), the seeks
// past what cannot matter (counted on the iterator), where it leaves the iterator, the hidden
// tail of batched scans, the filter protocol and the flush's view.

#include "storage/row_reader.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/iterator.h>

#include "storage/filter_parser.h"
#include "storage/key_format.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using namespace std::string_literals;
using testutil::CellStrings;

constexpr int64_t kNow = testutil::kTestNowMs;
constexpr int64_t kHour = 3600 * 1000;
constexpr uint64_t kTableId = 1;
constexpr int64_t kRowBytes = 256 << 20;  // the result_bytes default
constexpr CellType kPut = CellType::kPut;
constexpr CellType kDel = CellType::kDelete;
constexpr CellType kDelCol = CellType::kDeleteColumn;
constexpr CellType kDelFam = CellType::kDeleteFamily;
constexpr CellType kDelFamVer = CellType::kDeleteFamilyVersion;

// Counts the moves the reader makes, so a test can tell a seek from a walk.
class CountingIterator final : public leveldb::Iterator {
 public:
  explicit CountingIterator(leveldb::Iterator* base) : base_(base) {}
  bool Valid() const override { return base_->Valid(); }
  void SeekToFirst() override { base_->SeekToFirst(); }
  void SeekToLast() override { base_->SeekToLast(); }
  void Seek(const leveldb::Slice& target) override {
    ++moves;
    base_->Seek(target);
  }
  void Next() override {
    ++moves;
    base_->Next();
  }
  void Prev() override { base_->Prev(); }
  leveldb::Slice key() const override { return base_->key(); }
  leveldb::Slice value() const override { return base_->value(); }
  leveldb::Status status() const override { return base_->status(); }

  int moves = 0;

 private:
  std::unique_ptr<leveldb::Iterator> base_;
};

TableDescriptor MakeTable() {
  TableDescriptor t;
  t.id = kTableId;
  t.name = TableName{"default", "t"};
  t.families = {testutil::Family("f", 3), testutil::Family("g", 3)};
  return t;
}

class RowReaderTest : public ::testing::Test {
 protected:
  void SetUp() override { Reopen(); }

  // An empty database.
  void Reopen() {
    db_.reset();
    stored_.clear();
    env_.reset(leveldb::NewMemEnv(leveldb::Env::Default()));
    leveldb::Options options;
    options.env = env_.get();
    options.create_if_missing = true;
    leveldb::DB* db = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(options, "/row_reader_test", &db).ok());
    db_.reset(db);
  }

  void Write(const std::string& row, const std::string& family, const std::string& qualifier,
             int64_t ts, CellType type, const std::string& value = "",
             int64_t expires_at = kNoExpiry) {
    std::string stored;
    if (type == kPut) EncodeCellValue(&stored, value, expires_at);
    const std::string key = CellKey(kTableId, row, family, qualifier, ts, type);
    ASSERT_TRUE(db_->Put(leveldb::WriteOptions(), key, stored).ok());
    stored_[key] = stored;
  }

  std::unique_ptr<CountingIterator> NewIterator() {
    return std::make_unique<CountingIterator>(db_->NewIterator(leveldb::ReadOptions()));
  }

  // A Get of `row` through a new reader: the cells as CellStrings.
  std::vector<std::string> Get(const std::string& row, const ReadSpec& spec,
                               int64_t now = kNow) {
    auto it = NewIterator();
    const std::string prefix = RowKeyPrefix(kTableId, row);
    it->Seek(prefix);
    RowReader reader(&table_, &spec, now, kRowBytes);
    RowResult result;
    EXPECT_OK(reader.Read(it.get(), prefix, RowReader::RowOptions(), &result));
    EXPECT_EQ(result.row, row);
    return CellStrings(result.cells);
  }

  // The key the iterator stands at, "" past the end.
  static std::string At(const leveldb::Iterator& it) {
    return it.Valid() ? it.key().ToString() : "";
  }

  TableDescriptor table_ = MakeTable();
  std::unique_ptr<leveldb::Env> env_;
  std::unique_ptr<leveldb::DB> db_;
  std::map<std::string, std::string> stored_;  // what db_ holds, in key order
};

using S = std::vector<std::string>;

TEST_F(RowReaderTest, VersionsAreCappedByTheRequestAndTheFamily) {
  for (int64_t ts = 1; ts <= 5; ++ts) Write("r", "f", "q", ts, kPut, "v" + std::to_string(ts));
  ReadSpec spec;
  spec.max_versions = 10;
  EXPECT_EQ(Get("r", spec), (S{"f:q@5=v5", "f:q@4=v4", "f:q@3=v3"}));  // family VERSIONS 3
  spec.max_versions = 2;
  EXPECT_EQ(Get("r", spec), (S{"f:q@5=v5", "f:q@4=v4"}));
  spec.max_versions = 1;
  EXPECT_EQ(Get("r", spec), (S{"f:q@5=v5"}));
}

TEST_F(RowReaderTest, DeletesOfEachKindMaskWhatTheyCover) {
  for (int64_t ts = 1; ts <= 4; ++ts) {
    for (const char* q : {"a", "b"}) Write("r", "f", q, ts, kPut, q + std::to_string(ts));
    Write("r", "g", "c", ts, kPut, "c" + std::to_string(ts));
  }
  Write("r", "f", "a", 4, kDel);          // one version of f:a
  Write("r", "f", "b", 2, kDelCol);       // f:b up to 2
  Write("r", "f", "", 3, kDelFamVer);     // every column of f at exactly 3
  Write("r", "g", "", 2, kDelFam);        // every column of g up to 2
  ReadSpec spec;
  spec.max_versions = 3;
  // Deleted versions do not count against VERSIONS: f:a still shows 2 and 1.
  EXPECT_EQ(Get("r", spec), (S{"f:a@2=a2", "f:a@1=a1", "f:b@4=b4", "g:c@4=c4", "g:c@3=c3"}));
}

TEST_F(RowReaderTest, FamilyTtlHidesExpiredVersionsBeyondMinVersionsAndCellTtlAlways) {
  table_.families[0].ttl_seconds = 3600;
  table_.families[0].min_versions = 1;
  Write("r", "f", "old", kNow - 3 * kHour, kPut, "beyond MIN_VERSIONS");
  Write("r", "f", "old", kNow - 2 * kHour, kPut, "kept by MIN_VERSIONS");
  Write("r", "f", "cell", kNow - 1, kPut, "expired", kNow - 1);  // MIN_VERSIONS does not help
  Write("r", "f", "cell", kNow - 2, kPut, "deadline now", kNow);
  Write("r", "g", "q", 1, kPut, "no TTL");
  ReadSpec spec;
  spec.max_versions = 3;
  EXPECT_EQ(Get("r", spec), (S{"f:cell@" + std::to_string(kNow - 2) + "=deadline now",
                               "f:old@" + std::to_string(kNow - 2 * kHour) + "=kept by MIN_VERSIONS",
                               "g:q@1=no TTL"}));
}

TEST_F(RowReaderTest, TimeRangesApplyBeforeVersionsAndAFamilyRangeReplacesTheRead) {
  for (int64_t ts : {10, 20, 30}) {
    Write("r", "f", "q", ts, kPut, "f" + std::to_string(ts));
    Write("r", "g", "q", ts, kPut, "g" + std::to_string(ts));
  }
  ReadSpec spec;
  spec.time_range = TimeRange{15, 30};  // half open: 30 is out
  EXPECT_EQ(Get("r", spec), (S{"f:q@20=f20", "g:q@20=g20"}));
  spec.family_time_ranges["g"] = TimeRange{0, 15};
  spec.family_time_ranges["unknown"] = TimeRange{0, 1};
  EXPECT_EQ(Get("r", spec), (S{"f:q@20=f20", "g:q@10=g10"}));
}

TEST_F(RowReaderTest, ColumnSelectionReturnsSelectedColumnsAndFamilyMarkersStillApply) {
  Write("r", "f", "", 5, kDelFam);  // under f's empty qualifier, which is not selected
  for (const char* q : {"a", "b", "c"}) {
    Write("r", "f", q, 5, kPut, "old");
    Write("r", "f", q, 6, kPut, "new");
    Write("r", "g", q, 6, kPut, "g");
  }
  ReadSpec spec;
  spec.max_versions = 3;
  spec.columns.AddColumn("f", "b");
  spec.columns.AddFamily("g");
  EXPECT_EQ(Get("r", spec), (S{"f:b@6=new", "g:a@6=g", "g:b@6=g", "g:c@6=g"}));
}

TEST_F(RowReaderTest, RowKeysWithZeroBytesComeBackWhole) {
  Write("a\0b"s, "f", "q", 1, kPut, "v");
  Write("a"s, "f", "q", 1, kPut, "other row");
  EXPECT_EQ(Get("a\0b"s, ReadSpec()), (S{"f:q@1=v"}));
  EXPECT_EQ(Get("absent", ReadSpec()), S{});
}

// The scan path used to step through every stored version; now a column with its versions
// costs a seek, and the iterator still ends on the next row's first key.
TEST_F(RowReaderTest, ScanSeeksPastUnwantedVersionsAndEndsOnTheNextRow) {
  for (int64_t ts = 1; ts <= 10000; ++ts) Write("a", "f", "counter", ts, kPut, "v");
  Write("a", "f", "z", 1, kPut, "z");
  Write("b", "f", "q", 1, kPut, "b");
  ReadSpec spec;
  RowReader reader(&table_, &spec, kNow, kRowBytes);
  auto it = NewIterator();
  it->Seek(RowKeyPrefix(kTableId, "a"));
  RowBatch batch;
  RowReader::RowOptions options;
  options.end_after_row = true;
  ASSERT_OK(reader.Read(it.get(), RowKeyPrefix(kTableId, "a"), options, &batch));
  EXPECT_LE(it->moves, 2 * 4 + 2);  // a few Nexts and a Seek per skip, not 10,000 Nexts
  EXPECT_EQ(At(*it), CellKey(kTableId, "b", "f", "q", 1, kPut));
  ASSERT_OK(reader.Read(it.get(), RowKeyPrefix(kTableId, "b"), options, &batch));
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(CellStrings(batch.ToRowResult(0).cells), (S{"f:counter@10000=v", "f:z@1=z"}));
  EXPECT_EQ(CellStrings(batch.ToRowResult(1).cells), (S{"f:q@1=b"}));
  EXPECT_FALSE(it->Valid());

  // With more versions asked for, only those are read.
  spec.max_versions = 3;
  EXPECT_EQ(Get("a", spec), (S{"f:counter@10000=v", "f:counter@9999=v", "f:counter@9998=v",
                               "f:z@1=z"}));
}

// A Get stops where nothing more of the row matters; a forward scan moves on to the next row.
TEST_F(RowReaderTest, ARowDoneEarlyEndsInPlaceForAGetAndOnTheNextRowForAScan) {
  Write("a", "f", "a", 1, kPut, "wanted");
  for (int64_t ts = 1; ts <= 1000; ++ts) {
    Write("a", "f", "b", ts, kPut, "unselected");
    Write("a", "g", "c", ts, kPut, "unselected");
  }
  Write("b", "f", "a", 1, kPut, "next");
  ReadSpec spec;
  spec.columns.AddColumn("f", "a");
  const std::string prefix = RowKeyPrefix(kTableId, "a");
  for (const bool end_after_row : {false, true}) {
    SCOPED_TRACE(end_after_row ? "scan" : "get");
    RowReader reader(&table_, &spec, kNow, kRowBytes);
    auto it = NewIterator();
    it->Seek(prefix);
    it->moves = 0;
    RowReader::RowOptions options;
    options.end_after_row = end_after_row;
    RowResult result;
    ASSERT_OK(reader.Read(it.get(), prefix, options, &result));
    EXPECT_EQ(CellStrings(result.cells), (S{"f:a@1=wanted"}));
    if (end_after_row) {
      EXPECT_EQ(At(*it), CellKey(kTableId, "b", "f", "a", 1, kPut));
      EXPECT_LE(it->moves, 5);
    } else {
      EXPECT_EQ(it->moves, 0);
    }
  }
}

// With a filter every cell reaches it (it may want older versions, HBASE-17125); the row-level
// protocol drops rows and ends the scan.
TEST_F(RowReaderTest, FilterProtocolDropsRowsAndEndsTheScan) {
  for (int64_t ts = 1; ts <= 3; ++ts) {
    Write("a", "f", "q", ts, kPut, "a" + std::to_string(ts));
    Write("b", "f", "q", ts, kPut, "b" + std::to_string(ts));
    Write("c", "f", "q", ts, kPut, "c" + std::to_string(ts));
  }
  ReadSpec spec;
  auto scan = [&](const char* text) {
    std::shared_ptr<const Filter> parsed;
    EXPECT_OK(ParseFilterString(text, &parsed));
    std::unique_ptr<Filter> filter = parsed->Clone();
    RowReader reader(&table_, &spec, kNow, kRowBytes);
    auto it = NewIterator();
    it->Seek(TableCellRange(kTableId).start);
    bool scan_done = false;
    RowReader::RowOptions options;
    options.filter = filter.get();
    options.scan_done = &scan_done;
    options.end_after_row = true;
    S rows;
    while (it->Valid() && !scan_done) {
      const std::string prefix(it->key().data(), RowKeyPrefixLength(At(*it)));
      RowBatch batch;
      EXPECT_OK(reader.Read(it.get(), prefix, options, &batch));
      const RowResult row = batch.ToRowResult(0);
      for (const std::string& cell : CellStrings(row.cells)) rows.push_back(row.row + "/" + cell);
    }
    return rows;
  };
  // Versions up to the family's VERSIONS reach the filter even though the read asks for one.
  EXPECT_EQ(scan("ValueFilter(=, 'binary:b2')"), (S{"b/f:q@2=b2"}));
  EXPECT_EQ(scan("PrefixFilter('b')"), (S{"b/f:q@3=b3"}));  // filterRowKey drops a and c
  EXPECT_EQ(scan("SingleColumnValueFilter('f', 'q', =, 'binary:c3')"), (S{"c/f:q@3=c3"}));
  EXPECT_EQ(scan("PageFilter(2)"), (S{"a/f:q@3=a3", "b/f:q@3=b3"}));  // ends the scan
  EXPECT_EQ(scan("InclusiveStopFilter('a')"), (S{"a/f:q@3=a3"}));
}

// A batch piece that fills the batch is partial when stored cells of the read's families that
// the read does not return follow its last cell: seeking past them must still notice them.
TEST_F(RowReaderTest, HiddenTailSeesCellsASeekPassed) {
  Write("r", "f", "a", 1, kPut, "a");
  Write("r", "f", "b", 2, kPut, "b");
  ReadSpec spec;
  auto hidden_tail = [&](const ReadSpec& read) {
    RowReader reader(&table_, &read, kNow, kRowBytes);
    auto it = NewIterator();
    const std::string prefix = RowKeyPrefix(kTableId, "r");
    it->Seek(prefix);
    bool hidden = false;
    RowReader::RowOptions options;
    options.hidden_tail = &hidden;
    RowBatch batch;
    EXPECT_OK(reader.Read(it.get(), prefix, options, &batch));
    return hidden;
  };
  EXPECT_FALSE(hidden_tail(spec));
  Write("r", "f", "b", 1, kPut, "older version");
  EXPECT_TRUE(hidden_tail(spec));
  ReadSpec only_a;
  only_a.columns.AddColumn("f", "a");
  // f:a has its one version, and no named column follows: HBase's ExplicitColumnTracker seeks
  // to the next row, so f:b is never peeked at.
  EXPECT_FALSE(hidden_tail(only_a));
  only_a.max_versions = 2;  // f:a could have another version: the next cell, f:b, is peeked at
  EXPECT_TRUE(hidden_tail(only_a));
  ReadSpec a_and_c;
  a_and_c.columns.AddColumn("f", "a");
  a_and_c.columns.AddColumn("f", "c");
  EXPECT_FALSE(hidden_tail(a_and_c));  // the seek to f:c passes f:b
  ReadSpec only_g;
  only_g.columns.AddFamily("g");
  Write("r", "g", "c", 1, kPut, "g");
  EXPECT_FALSE(hidden_tail(only_g));  // f is not opened by the read
  Write("r", "g", "c", 0, kPut, "older g");
  EXPECT_TRUE(hidden_tail(only_g));
}

// Random rows and reads: the reader, seeking as RowVisibility allows, returns what feeding every
// cell to a new RowVisibility per row returns, reports the same hidden tail, and ends each row
// on the next row's first key.
TEST_F(RowReaderTest, SeekingScanReadsWhatAWalkOfEveryCellReads) {
  std::mt19937_64 rng = testutil::MakeRng(20);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const std::vector<std::string> rows = {"a", "a\0"s, "b", "c"};
  const std::vector<std::string> families = {"e", "f", "g"};  // "e" is not in the schema
  const std::vector<std::string> qualifiers = {"", "\0"s, "a", "b", "\xff"s};
  const CellType types[] = {kPut, kPut, kPut, kPut, kDel, kDelCol, kDelFam, kDelFamVer};
  for (int iteration = 0; iteration < 300; ++iteration) {
    SCOPED_TRACE("iteration " + std::to_string(iteration));
    Reopen();
    table_ = MakeTable();
    table_.families[0].max_versions = 1 + pick(3);
    table_.families[0].min_versions = pick(2);
    if (pick(3) == 0) table_.families[0].ttl_seconds = 3600;
    table_.families[0].keep_deleted_cells = static_cast<KeepDeletedCells>(pick(3));
    for (int i = 20 + pick(60); i > 0; --i) {
      const CellType type = types[pick(8)];
      const bool family_marker = type == kDelFam || type == kDelFamVer;
      int64_t ts = 1 + pick(8);
      if (pick(5) == 0) ts = kNow - 2 * kHour - pick(3);
      Write(rows[pick(4)], families[pick(3)], family_marker ? "" : qualifiers[pick(5)], ts, type,
            "v" + std::to_string(i), pick(8) == 0 ? kNow - 1 : kNoExpiry);
    }
    ReadSpec spec;
    spec.max_versions = 1 + pick(3);
    if (pick(3) == 0) spec.time_range = TimeRange{pick(4), 3 + pick(6)};
    for (int k = pick(3); k > 0; --k) {
      if (pick(2) == 0) {
        spec.columns.AddFamily(families[1 + pick(2)]);
      } else {
        spec.columns.AddColumn(families[1 + pick(2)], qualifiers[pick(5)]);
      }
    }

    RowReader reader(&table_, &spec, kNow, kRowBytes);
    auto it = NewIterator();
    it->Seek(TableCellRange(kTableId).start);
    ParsedCellKey parsed;
    auto expected_from = stored_.begin();
    while (it->Valid()) {
      const std::string prefix = At(*it).substr(0, RowKeyPrefixLength(At(*it)));
      bool hidden = false;
      RowReader::RowOptions options;
      options.hidden_tail = &hidden;
      options.end_after_row = true;
      RowBatch batch;
      ASSERT_OK(reader.Read(it.get(), prefix, options, &batch));

      // The walk: every stored cell of the row, a new RowVisibility.
      RowVisibility walk(&table_, &spec, kNow);
      std::vector<Cell> want;
      bool want_hidden = false;
      // After a returned cell that used up its named column's versions, the family's cells
      // before the next named column (all, past the last one) are never peeked at.
      bool floor_active = false;
      std::string floor_family;
      std::optional<std::string> floor;
      for (; expected_from != stored_.end() && expected_from->first.rfind(prefix, 0) == 0;
           ++expected_from) {
        ASSERT_TRUE(ParseCellKeySuffix(
            std::string_view(expected_from->first).substr(prefix.size()), &parsed));
        const size_t before = want.size();
        walk.Add(parsed.family, parsed.qualifier, parsed.timestamp, parsed.type,
                 expected_from->second, &want);
        if (want.size() != before) {
          want_hidden = false;
          const std::set<std::string>* named = walk.selected_qualifiers();
          floor_active = named != nullptr && walk.column_versions_full();
          if (floor_active) {
            floor_family = parsed.family;
            auto next = named->upper_bound(parsed.qualifier);
            floor = next == named->end() ? std::nullopt : std::optional<std::string>(*next);
          }
        } else if (floor_active && parsed.family == floor_family) {
          if (floor.has_value() && parsed.qualifier >= *floor) want_hidden = true;
        } else if (spec.columns.all() || spec.columns.families().count(parsed.family) > 0) {
          want_hidden = true;
        }
      }
      ASSERT_EQ(CellStrings(batch.ToRowResult(0).cells), CellStrings(want));
      ASSERT_EQ(hidden, want_hidden) << testutil::Escape(prefix);
      ASSERT_EQ(At(*it), expected_from == stored_.end() ? "" : expected_from->first);
    }
  }
}

TEST_F(RowReaderTest, FlushDropsThePutsItDoesNotKeepAndNothingElse) {
  table_.families[0].max_versions = 2;
  table_.families[1].ttl_seconds = 3600;
  for (int64_t ts = 1; ts <= 3; ++ts) Write("r", "f", "versions", ts, kPut, "v");
  Write("r", "f", "deleted", 5, kPut, "masked");
  Write("r", "f", "deleted", 5, kDel);
  Write("r", "f", "cell_ttl", 1, kPut, "expired", kNow - 1);
  Write("r", "g", "ttl", kNow - 2 * kHour, kPut, "expired");
  Write("r", "g", "ttl", kNow - 1, kPut, "fresh");
  Write("r", "e", "unknown", 1, kPut, "a dropped family's own sweep deletes it");
  Write("s", "f", "next", 1, kPut, "next row");
  auto flush = [&] {
    RowReader reader(&table_, kNow, RowReader::ForFlush());
    auto it = NewIterator();
    const std::string prefix = RowKeyPrefix(kTableId, "r");
    it->Seek(prefix);
    std::vector<std::string> dropped;
    EXPECT_OK(reader.ReadForFlush(it.get(), prefix, &dropped));
    EXPECT_EQ(At(*it), CellKey(kTableId, "s", "f", "next", 1, kPut));
    return dropped;
  };
  EXPECT_EQ(flush(), (S{CellKey(kTableId, "r", "f", "cell_ttl", 1, kPut),
                        CellKey(kTableId, "r", "f", "deleted", 5, kPut),
                        CellKey(kTableId, "r", "f", "versions", 1, kPut),
                        CellKey(kTableId, "r", "g", "ttl", kNow - 2 * kHour, kPut)}));
  // KEEP_DELETED_CELLS keeps what markers mask, and the masked put still counts as a version.
  table_.families[0].keep_deleted_cells = KeepDeletedCells::kTrue;
  Write("r", "f", "versions", 3, kDel);
  EXPECT_EQ(flush(), (S{CellKey(kTableId, "r", "f", "cell_ttl", 1, kPut),
                        CellKey(kTableId, "r", "f", "versions", 1, kPut),
                        CellKey(kTableId, "r", "g", "ttl", kNow - 2 * kHour, kPut)}));
}

}  // namespace
}  // namespace hbemu::storage
