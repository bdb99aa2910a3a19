#include "server/rest/scan_stream.h"

#include <gtest/gtest.h>

#include "server/rest/model_protobuf.h"

namespace hbemu::server::rest {
namespace {

std::vector<RowModel> Rows(int n) {
  std::vector<RowModel> rows;
  for (int i = 0; i < n; ++i) {
    RowModel row;
    row.key = "r" + std::to_string(i);
    row.cells.push_back({"f:a", 5, "v"});
    rows.push_back(row);
  }
  return rows;
}

// Splits a stream into its chunks' row counts, checking each length prefix on the way.
std::vector<size_t> ChunkSizes(const std::string& stream) {
  std::vector<size_t> sizes;
  size_t at = 0;
  while (at < stream.size()) {
    EXPECT_GE(stream.size() - at, 2u);
    const size_t length = (static_cast<uint8_t>(stream[at]) << 8) |
                          static_cast<uint8_t>(stream[at + 1]);
    EXPECT_LE(at + 2 + length, stream.size());
    CellSetModel chunk;
    EXPECT_TRUE(DecodeCellSetProtobuf(stream.substr(at + 2, length), &chunk).ok());
    sizes.push_back(chunk.rows.size());
    at += 2 + length;
  }
  return sizes;
}

TEST(ScanStreamTest, RowsAreWrittenInChunksOfTheFetchSizeEachPrefixedByItsLength) {
  EXPECT_EQ(ChunkSizes(EncodeCellSetStream(Rows(23), INT32_MAX)),
            (std::vector<size_t>{10, 10, 3}));
  EXPECT_EQ(ChunkSizes(EncodeCellSetStream(Rows(20), 20)), (std::vector<size_t>{10, 10}));
}

TEST(ScanStreamTest, OneChunkHoldsEveryRowWhenTheLimitIsBelowTheFetchSize) {
  EXPECT_EQ(ChunkSizes(EncodeCellSetStream(Rows(3), 3)), (std::vector<size_t>{3}));
  const std::string one = EncodeCellSetStream(Rows(1), INT32_MAX);
  CellSetModel model;
  model.rows = Rows(1);
  EXPECT_EQ(one.substr(2), EncodeCellSetProtobuf(model));
  EXPECT_EQ(static_cast<size_t>(one[1]), one.size() - 2);
}

TEST(ScanStreamTest, EmptyScanIsAnEmptyChunkUnderASmallLimitAndNothingOtherwise) {
  EXPECT_EQ(EncodeCellSetStream({}, 5), std::string("\0\0", 2));
  EXPECT_EQ(EncodeCellSetStream({}, INT32_MAX), "");
}

}  // namespace
}  // namespace hbemu::server::rest
