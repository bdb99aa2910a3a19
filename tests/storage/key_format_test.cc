// Freezes the on-disk key format (key_format.h): round trips, the order
// property against HBase's cell order, prefix contiguity, and golden bytes. A failure in the
// golden tests means the format changed: bump kFormatVersion instead of editing the test.

#include "storage/key_format.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "storage/coding.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::Escape;
using testutil::RandomBytes;

using namespace std::string_literals;

using testutil::Sign;
using testutil::UnsignedCompare;

struct CellCoord {
  uint64_t table_id = 0;
  std::string row, family, qualifier;
  int64_t timestamp = 0;
  CellType type = CellType::kPut;

  std::string Key() const { return CellKey(table_id, row, family, qualifier, timestamp, type); }
  std::string DebugString() const {
    return std::to_string(table_id) + "/" + Escape(row) + "/" + Escape(family) + ":" +
           Escape(qualifier) + "@" + std::to_string(timestamp) + "/" +
           std::to_string(static_cast<int>(type));
  }
};

// HBase's CellComparator order (docs/hbase-semantics.md#cells-and-their-order), with our table id
// in front: row, family, qualifier ascending as unsigned bytes; timestamp descending; type code
// descending.
int HBaseCompare(const CellCoord& a, const CellCoord& b) {
  if (a.table_id != b.table_id) return a.table_id < b.table_id ? -1 : 1;
  if (int c = UnsignedCompare(a.row, b.row)) return c;
  if (int c = UnsignedCompare(a.family, b.family)) return c;
  if (int c = UnsignedCompare(a.qualifier, b.qualifier)) return c;
  if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp ? -1 : 1;
  const int ta = HBaseTypeCode(a.type), tb = HBaseTypeCode(b.type);
  if (ta != tb) return ta > tb ? -1 : 1;
  return 0;
}

int64_t RandomTimestamp(std::mt19937_64* rng) {
  switch ((*rng)() % 4) {
    case 0: return static_cast<int64_t>((*rng)() % 4);  // many ties
    case 1: return 0;
    case 2: return INT64_MAX - 1;  // the largest storable timestamp
    default: return static_cast<int64_t>((*rng)() % static_cast<uint64_t>(INT64_MAX));
  }
}

CellType RandomType(std::mt19937_64* rng) { return static_cast<CellType>(1 + (*rng)() % 5); }

CellCoord RandomCell(std::mt19937_64* rng, const std::vector<std::string>& rows) {
  CellCoord c;
  c.table_id = ((*rng)() % 4 == 0) ? (*rng)() : 1 + (*rng)() % 2;
  c.row = rows[(*rng)() % rows.size()];
  c.family = RandomBytes(rng, 0, 3);
  c.qualifier = RandomBytes(rng, 0, 3);
  c.timestamp = RandomTimestamp(rng);
  c.type = RandomType(rng);
  return c;
}

// Rows that are prefixes of one another, of different lengths, full of 0x00 and 0xFF.
std::vector<std::string> RowPool(std::mt19937_64* rng) {
  std::vector<std::string> rows = {"a"s, "a\x00"s, "a\x00\x00"s, "a\x01"s, "ab"s, "a\xff"s,
                                   "\x00"s, "\xff"s, "\xff\xff"s, "b"s};
  for (int i = 0; i < 40; ++i) rows.push_back(RandomBytes(rng, 1, 5));
  for (int i = 0; i < 20; ++i) rows.push_back(rows[(*rng)() % rows.size()] + RandomBytes(rng, 1, 2));
  return rows;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

// ---- Round trips

TEST(KeyFormatTest, CellKeyRoundTripsRandomTuples) {
  auto rng = testutil::MakeRng(10);
  const auto rows = RowPool(&rng);
  ParsedCellKey parsed;
  for (int i = 0; i < 5000; ++i) {
    const CellCoord c = RandomCell(&rng, rows);
    const std::string key = c.Key();
    ASSERT_TRUE(ParseCellKey(key, &parsed)) << c.DebugString();
    EXPECT_EQ(parsed.table_id, c.table_id);
    EXPECT_EQ(parsed.row, c.row);
    EXPECT_EQ(parsed.family, c.family);
    EXPECT_EQ(parsed.qualifier, c.qualifier);
    EXPECT_EQ(parsed.timestamp, c.timestamp);
    EXPECT_EQ(parsed.type, c.type);

    // The row part can be split off and the suffix parsed on its own (the scanner does this).
    const std::string prefix = RowKeyPrefix(c.table_id, c.row);
    ASSERT_TRUE(StartsWith(key, prefix)) << c.DebugString();
    ASSERT_EQ(RowKeyPrefixLength(key), prefix.size()) << c.DebugString();
    ParsedCellKey suffix;
    suffix.row = "untouched";
    ASSERT_TRUE(ParseCellKeySuffix(std::string_view(key).substr(prefix.size()), &suffix));
    EXPECT_EQ(suffix.row, "untouched");
    EXPECT_EQ(suffix.family, c.family);
    EXPECT_EQ(suffix.qualifier, c.qualifier);
    EXPECT_EQ(suffix.timestamp, c.timestamp);
    EXPECT_EQ(suffix.type, c.type);
  }
}

TEST(KeyFormatTest, AppendedKeysAndKeySuffixesAgreeWithCellKey) {
  auto rng = testutil::MakeRng(11);
  const auto rows = RowPool(&rng);
  std::string buffer = "kept";
  for (int i = 0; i < 2000; ++i) {
    const CellCoord c = RandomCell(&rng, rows);
    const std::string key = c.Key();
    buffer.resize(4);
    AppendCellKey(&buffer, c.table_id, c.row, c.family, c.qualifier, c.timestamp, c.type);
    ASSERT_EQ(buffer, "kept" + key) << c.DebugString();
    // Every key of the column (and family) starts with the row prefix and the column suffix.
    const std::string prefix = RowKeyPrefix(c.table_id, c.row);
    EXPECT_TRUE(StartsWith(key, prefix + FamilyKeySuffix(c.family))) << c.DebugString();
    EXPECT_TRUE(StartsWith(key, prefix + ColumnKeySuffix(c.family, c.qualifier)))
        << c.DebugString();
    // ...and no key of a later column does: the suffix's successor bounds the column.
    const std::string other_qualifier = c.qualifier + '\0';
    EXPECT_LT(key, prefix + PrefixSuccessor(ColumnKeySuffix(c.family, c.qualifier)));
    EXPECT_GT(CellKey(c.table_id, c.row, c.family, other_qualifier, INT64_MAX, CellType::kDeleteFamily),
              prefix + PrefixSuccessor(ColumnKeySuffix(c.family, c.qualifier)));
  }
}

TEST(KeyFormatTest, ParseRejectsMalformedKeys) {
  const std::string good = CellKey(1, "r", "f", "q", 5, CellType::kPut);
  ParsedCellKey parsed;
  ASSERT_TRUE(ParseCellKey(good, &parsed));
  EXPECT_FALSE(ParseCellKey("", &parsed));
  EXPECT_FALSE(ParseCellKey("r"s, &parsed));
  EXPECT_FALSE(ParseCellKey("x" + good.substr(1), &parsed));            // wrong keyspace tag
  EXPECT_FALSE(ParseCellKey(good.substr(0, good.size() - 1), &parsed));  // no type byte
  EXPECT_FALSE(ParseCellKey(good + "x", &parsed));                       // trailing garbage
  for (char bad_type : {'\x00', '\x06', '\xff'}) {
    std::string k = good;
    k.back() = bad_type;
    EXPECT_FALSE(ParseCellKey(k, &parsed)) << static_cast<int>(bad_type);
  }
  // An inverted timestamp below 2^63 would decode to a negative (>= 2^63) timestamp.
  std::string k = RowKeyPrefix(1, "r");
  PutEscapedTerminated(&k, "f");
  PutEscapedTerminated(&k, "q");
  PutFixed64BE(&k, 0x7fffffffffffffffULL);
  k.push_back('\x05');
  EXPECT_FALSE(ParseCellKey(k, &parsed));
  EXPECT_EQ(RowKeyPrefixLength("r"s), 0u);
  EXPECT_EQ(RowKeyPrefixLength("r\x00\x00\x00\x00\x00\x00\x00\x01no-terminator"s), 0u);
}

// ---- Order

TEST(KeyFormatTest, CellKeyOrderEqualsHBaseCellOrder) {
  auto rng = testutil::MakeRng(11);
  const auto rows = RowPool(&rng);
  std::vector<CellCoord> cells;
  for (int i = 0; i < 600; ++i) cells.push_back(RandomCell(&rng, rows));
  // Near-duplicates: same coordinates with a different timestamp or type.
  for (int i = 0; i < 200; ++i) {
    CellCoord c = cells[rng() % cells.size()];
    if (rng() % 2) c.type = RandomType(&rng); else c.timestamp = RandomTimestamp(&rng);
    cells.push_back(c);
  }
  std::vector<std::string> keys;
  for (const auto& c : cells) keys.push_back(c.Key());
  for (size_t i = 0; i < cells.size(); ++i) {
    for (size_t j = 0; j < cells.size(); ++j) {
      ASSERT_EQ(Sign(HBaseCompare(cells[i], cells[j])), Sign(UnsignedCompare(keys[i], keys[j])))
          << cells[i].DebugString() << " vs " << cells[j].DebugString();
    }
  }
}

TEST(KeyFormatTest, NewerTimestampSortsFirst) {
  const std::vector<int64_t> descending = {INT64_MAX - 1, 1LL << 40, 256, 255, 1, 0};
  for (size_t i = 1; i < descending.size(); ++i) {
    EXPECT_LT(CellKey(1, "r", "f", "q", descending[i - 1], CellType::kPut),
              CellKey(1, "r", "f", "q", descending[i], CellType::kPut))
        << descending[i - 1] << " should sort before " << descending[i];
  }
}

TEST(KeyFormatTest, MarkersSortBeforePutAtEqualTimestamp) {
  // HBase type codes descending: DeleteFamily(14) > DeleteColumn(12) > DeleteFamilyVersion(10)
  // > Delete(8) > Put(4).
  const std::vector<CellType> order = {CellType::kDeleteFamily, CellType::kDeleteColumn,
                                       CellType::kDeleteFamilyVersion, CellType::kDelete,
                                       CellType::kPut};
  for (size_t i = 1; i < order.size(); ++i) {
    EXPECT_LT(CellKey(1, "r", "f", "", 100, order[i - 1]), CellKey(1, "r", "f", "", 100, order[i]));
    EXPECT_GT(HBaseTypeCode(order[i - 1]), HBaseTypeCode(order[i]));
  }
  // ...but a newer put still sorts before an older marker.
  EXPECT_LT(CellKey(1, "r", "f", "", 101, CellType::kPut),
            CellKey(1, "r", "f", "", 100, CellType::kDeleteFamily));
}

TEST(KeyFormatTest, EmptyQualifierSortsFirstInFamily) {
  // Family-level markers live under the empty qualifier, so they precede every column.
  EXPECT_LT(CellKey(1, "r", "f", "", 0, CellType::kPut),
            CellKey(1, "r", "f", "\x00"s, INT64_MAX - 1, CellType::kDeleteFamily));
  // A qualifier followed by timestamp bytes never compares against a longer qualifier's bytes.
  EXPECT_LT(CellKey(1, "r", "f", "a", 0, CellType::kPut),
            CellKey(1, "r", "f", "a\x00"s, INT64_MAX - 1, CellType::kDeleteFamily));
  EXPECT_LT(CellKey(1, "r", "f", "a", 0, CellType::kPut),
            CellKey(1, "r", "f\x00"s, "", INT64_MAX - 1, CellType::kDeleteFamily));
}

TEST(KeyFormatTest, RowsNeverInterleave) {
  auto rng = testutil::MakeRng(12);
  const auto rows = RowPool(&rng);
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) {
    CellCoord c = RandomCell(&rng, rows);
    c.table_id = 5;
    keys.push_back(c.Key());
    // Every key of a row lies in [RowKeyPrefix, PrefixSuccessor(RowKeyPrefix)).
    const std::string lo = RowKeyPrefix(5, c.row), hi = PrefixSuccessor(lo);
    ASSERT_GE(keys.back(), lo) << c.DebugString();
    ASSERT_LT(keys.back(), hi) << c.DebugString();
  }
  std::sort(keys.begin(), keys.end());
  std::vector<std::string> seen_rows;
  ParsedCellKey parsed;
  for (const auto& k : keys) {
    ASSERT_TRUE(ParseCellKey(k, &parsed));
    if (seen_rows.empty() || seen_rows.back() != parsed.row) {
      ASSERT_TRUE(std::find(seen_rows.begin(), seen_rows.end(), parsed.row) == seen_rows.end())
          << "row " << Escape(parsed.row) << " appears in two separate runs";
      if (!seen_rows.empty()) {
        ASSERT_LT(UnsignedCompare(seen_rows.back(), parsed.row), 0)
            << Escape(seen_rows.back()) << " before " << Escape(parsed.row);
      }
      seen_rows.push_back(parsed.row);
    }
  }
}

TEST(KeyFormatTest, RowPrefixRangeIsExactlyTheRowsWithThatPrefix) {
  auto rng = testutil::MakeRng(13);
  const auto rows = RowPool(&rng);
  std::vector<std::string> prefixes = {""s, "a"s, "a\x00"s, "a\xff"s, "\xff"s, "\xff\xff"s,
                                       "\x00"s};
  for (int i = 0; i < 30; ++i) prefixes.push_back(RandomBytes(&rng, 1, 3));
  for (const auto& p : prefixes) {
    const std::string lo = RowPrefixKeyPrefix(7, p);
    const std::string hi = PrefixSuccessor(lo);
    ASSERT_FALSE(hi.empty());
    for (int i = 0; i < 300; ++i) {
      CellCoord c = RandomCell(&rng, rows);
      if (i % 3 == 0) c.row = p + RandomBytes(&rng, p.empty() ? 1 : 0, 2);
      if (i % 4 != 3) c.table_id = 6 + (i % 4);  // table 7 and its neighbours
      const std::string key = c.Key();
      const bool in_range = key >= lo && key < hi;
      const bool expected = c.table_id == 7 && StartsWith(c.row, p);
      ASSERT_EQ(in_range, expected) << "prefix " << Escape(p) << " cell " << c.DebugString();
    }
  }
}

TEST(KeyFormatTest, TableRangesAreDisjointAndCoverEveryCell) {
  for (uint64_t id : {1ULL, 0xffULL, 0x1ffULL, 0xfffffffffffffffeULL}) {
    const KeyRange r = TableCellRange(id);
    EXPECT_LT(r.start, r.limit);
    const std::string lowest = CellKey(id, "\x00"s, "", "", INT64_MAX - 1, CellType::kDeleteFamily);
    const std::string highest = CellKey(id, "\xff\xff\xff"s, "\xff", "\xff", 0, CellType::kPut);
    EXPECT_GE(lowest, r.start);
    EXPECT_LT(highest, r.limit);
    EXPECT_EQ(TableCellRange(id + 1).start, r.limit);
  }
}

// ---- Golden bytes. These are on disk: never edit them to make a change pass.

TEST(KeyFormatTest, GoldenCellKeyForPlainPut) {
  EXPECT_EQ(CellKey(1, "r", "f", "q", 1, CellType::kPut),
            "r"                                     // cell keyspace tag
            "\x00\x00\x00\x00\x00\x00\x00\x01"      // table id 1, big-endian
            "r\x00\x01"                             // enc(row)
            "f\x00\x01"                             // enc(family)
            "q\x00\x01"                             // enc(qualifier)
            "\xff\xff\xff\xff\xff\xff\xff\xfe"      // UINT64_MAX - 1
            "\x05"s);                               // Put
}

TEST(KeyFormatTest, GoldenCellKeyForFamilyMarkerWithZeroByteInRow) {
  EXPECT_EQ(CellKey(0x0102, "a\x00"s, "cf", "", 0, CellType::kDeleteFamily),
            "r"
            "\x00\x00\x00\x00\x00\x00\x01\x02"
            "a\x00\xff\x00\x01"  // 'a', escaped 0x00, terminator
            "cf\x00\x01"
            "\x00\x01"           // empty qualifier: terminator only
            "\xff\xff\xff\xff\xff\xff\xff\xff"  // timestamp 0
            "\x01"s);            // DeleteFamily
}

TEST(KeyFormatTest, GoldenCellKeyForVersionDelete) {
  EXPECT_EQ(CellKey(7, "\xff"s, "f", "\x00"s, 0x0102030405060708LL, CellType::kDelete),
            "r"
            "\x00\x00\x00\x00\x00\x00\x00\x07"
            "\xff\x00\x01"
            "f\x00\x01"
            "\x00\xff\x00\x01"
            "\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7"
            "\x04"s);
}

TEST(KeyFormatTest, GoldenCatalogKeys) {
  EXPECT_EQ(kFormatVersion, 1u);
  EXPECT_EQ(SystemKey("format_version"), "sformat_version");
  EXPECT_EQ(SystemKey("next_table_id"), "snext_table_id");
  EXPECT_EQ(NamespaceKey("default"), "ndefault\x00\x01"s);
  EXPECT_EQ(NamespaceKeyPrefix(), "n");
  EXPECT_EQ(TableNameKey("ns", "t"), "tns\x00\x01t\x00\x01"s);
  EXPECT_EQ(TableNamePrefix("ns"), "tns\x00\x01"s);
  EXPECT_EQ(TableInfoKey(7), "i\x00\x00\x00\x00\x00\x00\x00\x07"s);
  EXPECT_EQ(TableInfoPrefix(), "i");
  EXPECT_EQ(DroppedTableKey(7), "g\x00\x00\x00\x00\x00\x00\x00\x07"s);
  EXPECT_EQ(DroppedTablePrefix(), "g");
  EXPECT_EQ(TableCellRange(0xff).start, "r\x00\x00\x00\x00\x00\x00\x00\xff"s);
  EXPECT_EQ(TableCellRange(0xff).limit, "r\x00\x00\x00\x00\x00\x00\x01\x00"s);
  EXPECT_EQ(RowKeyPrefix(1, "a"), "r\x00\x00\x00\x00\x00\x00\x00\x01" "a\x00\x01"s);
  EXPECT_EQ(RowPrefixKeyPrefix(1, "a\x00"s), "r\x00\x00\x00\x00\x00\x00\x00\x01" "a\x00\xff"s);
}

// The catalog reads its keys back through these inverses instead of slicing bytes itself.
TEST(KeyFormatTest, CatalogKeysParseBackAndRejectOtherKeys) {
  std::string ns;
  ASSERT_TRUE(ParseNamespaceKey(NamespaceKey("a\x00b"s), &ns));
  EXPECT_EQ(ns, "a\x00b"s);
  EXPECT_FALSE(ParseNamespaceKey(TableNameKey("a", "t"), &ns));      // another keyspace
  EXPECT_FALSE(ParseNamespaceKey(NamespaceKey("a") + "x", &ns));     // trailing bytes
  EXPECT_FALSE(ParseNamespaceKey("", &ns));
  uint64_t id = 0;
  ASSERT_TRUE(ParseDroppedTableKey(DroppedTableKey(0x0102030405060708), &id));
  EXPECT_EQ(id, 0x0102030405060708u);
  EXPECT_FALSE(ParseDroppedTableKey(DroppedTableKey(7) + "x", &id));
  EXPECT_FALSE(ParseDroppedTableKey(DroppedTableKey(7).substr(0, 8), &id));
  EXPECT_FALSE(ParseDroppedTableKey(TableInfoKey(7), &id));
  std::string family;
  ASSERT_TRUE(ParseDroppedFamilyKey(DroppedFamilyKey(9, "f\x00"s), &id, &family));
  EXPECT_EQ(id, 9u);
  EXPECT_EQ(family, "f\x00"s);
  EXPECT_FALSE(ParseDroppedFamilyKey(DroppedTableKey(9), &id, &family));
}

TEST(KeyFormatTest, RowKeyPrefixDecodesToItsRow) {
  std::string scratch;
  std::string_view row;
  for (const std::string& key : {"row"s, ""s, "a\x00b"s, "\x00"s, "\xff\x00\x01"s}) {
    const std::string prefix = RowKeyPrefix(3, key);
    ASSERT_TRUE(DecodeRowKeyPrefix(prefix, &scratch, &row)) << Escape(key);
    EXPECT_EQ(row, key) << Escape(key);
  }
  // Keys without a zero byte are not copied: the view points into the prefix.
  const std::string plain = RowKeyPrefix(3, "plain");
  ASSERT_TRUE(DecodeRowKeyPrefix(plain, &scratch, &row));
  EXPECT_EQ(row.data(), plain.data() + plain.size() - 2 - row.size());
  EXPECT_FALSE(DecodeRowKeyPrefix("r"s, &scratch, &row));
  EXPECT_FALSE(DecodeRowKeyPrefix(TableCellRange(3).start + "no-terminator", &scratch, &row));
  EXPECT_FALSE(DecodeRowKeyPrefix(RowKeyPrefix(3, "a") + "b", &scratch, &row));
  EXPECT_FALSE(DecodeRowKeyPrefix(TableInfoKey(3) + "a\x00\x01"s, &scratch, &row));
}

TEST(KeyFormatTest, GoldenCellTypeValues) {
  EXPECT_EQ(static_cast<int>(CellType::kDeleteFamily), 1);
  EXPECT_EQ(static_cast<int>(CellType::kDeleteColumn), 2);
  EXPECT_EQ(static_cast<int>(CellType::kDeleteFamilyVersion), 3);
  EXPECT_EQ(static_cast<int>(CellType::kDelete), 4);
  EXPECT_EQ(static_cast<int>(CellType::kPut), 5);
  EXPECT_EQ(HBaseTypeCode(CellType::kDeleteFamily), 14);
  EXPECT_EQ(HBaseTypeCode(CellType::kDeleteColumn), 12);
  EXPECT_EQ(HBaseTypeCode(CellType::kDeleteFamilyVersion), 10);
  EXPECT_EQ(HBaseTypeCode(CellType::kDelete), 8);
  EXPECT_EQ(HBaseTypeCode(CellType::kPut), 4);
  EXPECT_FALSE(IsValidCellType(0));
  EXPECT_FALSE(IsValidCellType(6));
  for (uint8_t t = 1; t <= 5; ++t) EXPECT_TRUE(IsValidCellType(t));
}

TEST(KeyFormatTest, NamespaceTablePrefixDoesNotMatchLongerNamespace) {
  const std::string p = TableNamePrefix("ns");
  EXPECT_FALSE(StartsWith(TableNameKey("ns2", "t"), p));
  EXPECT_FALSE(StartsWith(TableNameKey("ns\x00"s, "t"), p));
  EXPECT_TRUE(StartsWith(TableNameKey("ns", "t"), p));
}

// ---- Cell values

TEST(KeyFormatTest, CellValueWithoutExpiryIsTagZeroThenBytes) {
  std::string stored;
  EncodeCellValue(&stored, "v\x00\xff"s, kNoExpiry);
  EXPECT_EQ(stored, "\x00v\x00\xff"s);
  std::string_view value;
  int64_t expires = 0;
  ASSERT_TRUE(DecodeCellValue(stored, &value, &expires));
  EXPECT_EQ(value, "v\x00\xff"s);
  EXPECT_EQ(expires, kNoExpiry);
}

TEST(KeyFormatTest, CellValueWithExpiryCarriesBigEndianDeadline) {
  std::string stored;
  EncodeCellValue(&stored, "v", 0x0102);
  EXPECT_EQ(stored, "\x01\x00\x00\x00\x00\x00\x00\x01\x02v"s);
  std::string_view value;
  int64_t expires = 0;
  ASSERT_TRUE(DecodeCellValue(stored, &value, &expires));
  EXPECT_EQ(value, "v");
  EXPECT_EQ(expires, 0x0102);

  stored.clear();
  EncodeCellValue(&stored, "", 0);  // an empty value with an expiry at the epoch
  ASSERT_TRUE(DecodeCellValue(stored, &value, &expires));
  EXPECT_EQ(value, "");
  EXPECT_EQ(expires, 0);
}

TEST(KeyFormatTest, EmptyStoredValueIsAMarkerValue) {
  std::string_view value = "x";
  int64_t expires = 0;
  ASSERT_TRUE(DecodeCellValue("", &value, &expires));
  EXPECT_EQ(value, "");
  EXPECT_EQ(expires, kNoExpiry);
}

TEST(KeyFormatTest, CellValueDecodeRejectsUnknownTagAndTruncation) {
  std::string_view value;
  int64_t expires;
  EXPECT_FALSE(DecodeCellValue("\x02v"s, &value, &expires));
  EXPECT_FALSE(DecodeCellValue("\x01\x00\x00\x00"s, &value, &expires));
  EXPECT_FALSE(DecodeCellValue("\x01"s, &value, &expires));
}

}  // namespace
}  // namespace hbemu::storage
