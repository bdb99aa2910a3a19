// The Thrift2 result writer (result_writer.h) puts scanned rows on the wire without building
// TResult structs. It must write exactly the generated code's bytes for ToTResult of each row,
// through the wire session's concrete protocol types and through any other TProtocol.

#include "server/thrift2/result_writer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "server/thrift2/convert.h"

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

std::vector<std::shared_ptr<TProtocol>> Protocols(std::shared_ptr<TMemoryBuffer> buffer) {
  return {std::make_shared<TBinaryProtocol>(buffer), std::make_shared<TCompactProtocol>(buffer),
          std::make_shared<TBinaryProtocolT<TMemoryBuffer>>(buffer),
          std::make_shared<TCompactProtocolT<TMemoryBuffer>>(buffer)};
}

std::vector<RowResult> SampleRows() {
  std::vector<RowResult> rows;
  rows.push_back({"r1", {Cell{"f", "q", 5, std::string(100, 'v')}}});
  rows.push_back({"", {}});  // no cells: no row field
  rows.push_back({std::string("\0\xff", 2),
                  {Cell{"f", "", 9, "e"}, Cell{"f", "a", 9, "new"}, Cell{"f", "a", 7, "old"},
                   Cell{"g", "a", -1, ""}, Cell{"g", "b", INT64_MAX, std::string(20000, 'b')}},
                  /*partial=*/true});
  return rows;
}

TEST(ResultWriterTest, ListHasTheGeneratedCodesBytes) {
  const std::vector<RowResult> rows = SampleRows();
  RowBatch batch;
  for (const RowResult& row : rows) batch.AppendRowResult(row);
  auto written = std::make_shared<TMemoryBuffer>();
  auto expected = std::make_shared<TMemoryBuffer>();
  const auto outs = Protocols(written);
  const auto references = Protocols(expected);
  for (size_t k = 0; k < outs.size(); ++k) {
    SCOPED_TRACE("protocol " + std::to_string(k));
    written->resetBuffer();
    expected->resetBuffer();
    const uint32_t n = WriteTResultList(batch, outs[k].get());
    TProtocol* ref = references[k].get();
    ref->writeListBegin(TType::T_STRUCT, static_cast<uint32_t>(rows.size()));
    for (const RowResult& row : rows) {
      RowResult copy = row;
      thrift2::TResult result;
      thrift2_convert::ToTResult(std::move(copy), &result);
      result.write(ref);
    }
    ref->writeListEnd();
    EXPECT_EQ(n, written->getBufferAsString().size());
    EXPECT_EQ(written->getBufferAsString(), expected->getBufferAsString());
  }
}

}  // namespace
}  // namespace hbemu::server
