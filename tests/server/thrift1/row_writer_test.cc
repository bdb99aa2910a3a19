// The row writer (row_writer.h) puts scanned rows on the wire without building TRowResult
// structs. It must write exactly the generated code's bytes for ToTRowResult of each row,
// through the wire session's concrete protocol types (its direct path) and through any other
// TProtocol (its virtual path), binary and compact alike.

#include "server/thrift1/row_writer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "server/thrift1/convert.h"

namespace hbemu::server {
namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TBinaryProtocolT;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TCompactProtocolT;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;
using apache::thrift::transport::TMemoryBuffer;
using storage::Cell;
using storage::RowBatch;
using storage::RowResult;

enum class Kind { kBinary, kCompact, kBinaryDirect, kCompactDirect };
constexpr Kind kKinds[] = {Kind::kBinary, Kind::kCompact, Kind::kBinaryDirect,
                           Kind::kCompactDirect};

std::shared_ptr<TProtocol> MakeProtocol(Kind kind, std::shared_ptr<TMemoryBuffer> buffer) {
  switch (kind) {
    case Kind::kBinary: return std::make_shared<TBinaryProtocol>(buffer);
    case Kind::kCompact: return std::make_shared<TCompactProtocol>(buffer);
    case Kind::kBinaryDirect: return std::make_shared<TBinaryProtocolT<TMemoryBuffer>>(buffer);
    case Kind::kCompactDirect: return std::make_shared<TCompactProtocolT<TMemoryBuffer>>(buffer);
  }
  return nullptr;
}

std::vector<RowResult> SampleRows() {
  std::vector<RowResult> rows;
  rows.push_back({"r1", {Cell{"f", "q", 5, std::string(100, 'v')}}});
  rows.push_back({"", {}});  // no cells
  // Versions of one column (the map keeps the newest), the empty qualifier, binary bytes.
  rows.push_back({std::string("\0\xff", 2),
                  {Cell{"f", "", 9, "e"}, Cell{"f", "a", 9, "new"}, Cell{"f", "a", 7, "old"},
                   Cell{"f", "b", 1, std::string("\0\x01\xff", 3)}, Cell{"g", "a", -1, ""}}});
  // Family "a" sorts before "a-b" but "a:x" sorts after "a-b:y": the map reorders them.
  rows.push_back({"r4", {Cell{"a", "x", 1, "1"}, Cell{"a", "x", 0, "0"}, Cell{"a-b", "y", 2, "2"}}});
  RowResult wide{"wide", {}};
  for (int i = 0; i < 40; ++i) wide.cells.push_back(Cell{"f", "c" + std::to_string(100 + i), i, "x"});
  // A value whose compact length prefix takes three bytes.
  wide.cells.push_back(Cell{"f", "d", 1, std::string(20000, 'b')});
  rows.push_back(wide);
  return rows;
}

std::string WrittenByGeneratedCode(const std::vector<RowResult>& rows, bool sorted, Kind kind) {
  auto buffer = std::make_shared<TMemoryBuffer>();
  auto out = MakeProtocol(kind, buffer);
  out->writeListBegin(TType::T_STRUCT, static_cast<uint32_t>(rows.size()));
  for (const RowResult& row : rows) {
    RowResult copy = row;
    thrift::TRowResult result;
    ToTRowResult(std::move(copy), sorted, &result);
    result.write(out.get());
  }
  out->writeListEnd();
  return buffer->getBufferAsString();
}

RowBatch Batch(const std::vector<RowResult>& rows) {
  RowBatch batch;
  for (const RowResult& row : rows) batch.AppendRowResult(row);
  return batch;
}

TEST(RowWriterTest, ListHasTheGeneratedCodesBytes) {
  const std::vector<RowResult> rows = SampleRows();
  const RowBatch batch = Batch(rows);
  for (Kind kind : kKinds) {
    for (bool sorted : {false, true}) {
      SCOPED_TRACE("kind " + std::to_string(static_cast<int>(kind)) + " sorted " +
                   std::to_string(sorted));
      auto buffer = std::make_shared<TMemoryBuffer>();
      const uint32_t n = WriteTRowResultList(batch, sorted, MakeProtocol(kind, buffer).get());
      const std::string bytes = buffer->getBufferAsString();
      EXPECT_EQ(n, bytes.size());
      EXPECT_EQ(bytes, WrittenByGeneratedCode(rows, sorted, kind));
    }
  }
}

TEST(RowWriterTest, EachRowHasTheGeneratedCodesBytes) {
  const std::vector<RowResult> rows = SampleRows();
  const RowBatch batch = Batch(rows);
  for (Kind kind : kKinds) {
    for (bool sorted : {false, true}) {
      for (size_t i = 0; i < rows.size(); ++i) {
        SCOPED_TRACE("kind " + std::to_string(static_cast<int>(kind)) + " sorted " +
                     std::to_string(sorted) + " row " + std::to_string(i));
        auto buffer = std::make_shared<TMemoryBuffer>();
        const uint32_t n = WriteTRowResult(batch, i, sorted, MakeProtocol(kind, buffer).get());
        const std::string bytes = buffer->getBufferAsString();
        EXPECT_EQ(n, bytes.size());
        auto expected = std::make_shared<TMemoryBuffer>();
        RowResult copy = rows[i];
        thrift::TRowResult result;
        ToTRowResult(std::move(copy), sorted, &result);
        result.write(MakeProtocol(kind, expected).get());
        EXPECT_EQ(bytes, expected->getBufferAsString());
      }
    }
  }
}

}  // namespace
}  // namespace hbemu::server
