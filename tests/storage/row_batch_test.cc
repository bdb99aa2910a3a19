// RowBatch (row_batch.h): the scan path's flat, reusable result buffer. Rows and cells come
// back byte for byte and in order, whatever is truncated, dropped or copied around them.

#include "storage/row_batch.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellStrings;
using namespace std::string_literals;

RowResult SampleRow() {
  RowResult row;
  row.row = "\0r\xff"s;
  row.cells = {Cell{"f", "", 3, "empty qualifier"}, Cell{"f", "a\0b"s, -1, "\0\x01\xff"s},
               Cell{"g", "q", INT64_MAX, std::string(300, 'v')}, Cell{"g", "z", 0, ""}};
  return row;
}

void ExpectSameRow(const RowResult& got, const RowResult& want) {
  EXPECT_EQ(got.row, want.row);
  EXPECT_EQ(CellStrings(got.cells), CellStrings(want.cells));
  EXPECT_EQ(got.partial, want.partial);
}

TEST(RowBatchTest, RowsAndCellsComeBackAsAppended) {
  RowBatch batch;
  EXPECT_TRUE(batch.empty());
  const RowResult sample = SampleRow();
  batch.AppendRowResult(sample);
  batch.BeginRow("");  // a row with no cells and an empty key
  batch.BeginRow("r2");
  batch.Append("f", "q", 7, "v");
  batch.set_partial(2, true);
  ASSERT_EQ(batch.size(), 3u);
  ExpectSameRow(batch.ToRowResult(0), sample);
  EXPECT_EQ(batch.row_key(1), "");
  EXPECT_EQ(batch.cell_count(1), 0u);
  EXPECT_EQ(batch.row_key(2), "r2");
  EXPECT_TRUE(batch.partial(2));
  const RowBatch::CellRef c = batch.cell(2, 0);
  EXPECT_EQ(c.family, "f");
  EXPECT_EQ(c.qualifier, "q");
  EXPECT_EQ(c.timestamp, 7);
  EXPECT_EQ(c.value, "v");
}

TEST(RowBatchTest, TruncatingOrDroppingTheLastRowLeavesEarlierRowsIntact) {
  RowBatch batch;
  const RowResult sample = SampleRow();
  batch.AppendRowResult(sample);
  batch.AppendRowResult(sample);
  batch.TruncateLastRow(1);
  ASSERT_EQ(batch.cell_count(1), 1u);
  EXPECT_EQ(CellStrings(batch.ToRowResult(1).cells), CellStrings({sample.cells[0]}));
  batch.TruncateLastRow(5);  // keeping more than there are changes nothing
  EXPECT_EQ(batch.cell_count(1), 1u);
  batch.TruncateLastRow(0);
  EXPECT_EQ(batch.cell_count(1), 0u);
  batch.DropLastRow();
  ASSERT_EQ(batch.size(), 1u);
  // What is appended after a truncation or drop lands where the removed bytes were.
  batch.BeginRow("next");
  batch.Append("f", "q", 1, "after");
  ExpectSameRow(batch.ToRowResult(0), sample);
  EXPECT_EQ(batch.row_key(1), "next");
  EXPECT_EQ(batch.cell(1, 0).value, "after");
}

TEST(RowBatchTest, PiecesCopyACellRangeWithTheirOwnPartialFlag) {
  RowBatch whole;
  whole.AppendRowResult(SampleRow());
  RowBatch pieces;
  pieces.AppendPiece(whole, 0, 0, 3, /*partial=*/true);
  pieces.AppendPiece(whole, 0, 3, 1, /*partial=*/false);
  ASSERT_EQ(pieces.size(), 2u);
  const RowResult sample = SampleRow();
  RowResult first{sample.row, {sample.cells[0], sample.cells[1], sample.cells[2]}, true};
  RowResult second{sample.row, {sample.cells[3]}, false};
  ExpectSameRow(pieces.ToRowResult(0), first);
  ExpectSameRow(pieces.ToRowResult(1), second);
}

TEST(RowBatchTest, ClearEmptiesButKeepsTheMemory) {
  RowBatch batch;
  for (int i = 0; i < 100; ++i) batch.AppendRowResult(SampleRow());
  const size_t held = batch.capacity_bytes();
  batch.Clear();
  EXPECT_TRUE(batch.empty());
  EXPECT_EQ(batch.capacity_bytes(), held);
  batch.AppendRowResult(SampleRow());
  ExpectSameRow(batch.ToRowResult(0), SampleRow());
}

}  // namespace
}  // namespace hbemu::storage
