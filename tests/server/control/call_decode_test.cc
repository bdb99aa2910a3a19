#include "server/control/call_decode.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "Hbase.h"
#include "THBaseService.h"

namespace hbemu::server::control {
namespace {

using apache::thrift::protocol::TMessageType;
using apache::thrift::transport::TMemoryBuffer;

// The bytes a client sends for `args` as method `name`.
template <class Args>
std::string Message(const std::string& name, const Args& args, WireProtocol protocol,
                    TMessageType type = apache::thrift::protocol::T_CALL) {
  auto buffer = std::make_shared<TMemoryBuffer>();
  std::unique_ptr<apache::thrift::protocol::TProtocol> out;
  if (protocol == WireProtocol::kCompact) {
    out = std::make_unique<apache::thrift::protocol::TCompactProtocol>(buffer);
  } else {
    out = std::make_unique<apache::thrift::protocol::TBinaryProtocol>(buffer);
  }
  out->writeMessageBegin(name, type, 9);
  args.write(out.get());
  out->writeMessageEnd();
  return buffer->getBufferAsString();
}

DecodedCall Decode(const std::string& service, const std::string& bytes, WireProtocol protocol) {
  return DecodeCall(service, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                    protocol);
}

TEST(CallDecodeTest, Thrift1RowCallsGiveTableRowAndColumns) {
  thrift::Hbase_getRowWithColumns_args args;
  args.tableName = "users";
  args.row = std::string("r\0w", 3);
  args.columns = {"f:a", "g"};
  for (WireProtocol protocol : {WireProtocol::kBinary, WireProtocol::kCompact}) {
    const DecodedCall call = Decode("thrift1", Message("getRowWithColumns", args, protocol), protocol);
    ASSERT_TRUE(call.decoded);
    EXPECT_EQ(call.method, "getRowWithColumns");
    EXPECT_EQ(call.seqid, 9);
    EXPECT_EQ(call.table, "users");
    EXPECT_EQ(call.row, std::string("r\0w", 3));
    EXPECT_EQ(call.columns, (std::vector<std::string>{"f:a", "g"}));
  }
}

TEST(CallDecodeTest, Thrift1ScansGiveTheirRangeFilterCachingAndBatch) {
  thrift::Hbase_scannerOpenWithScan_args args;
  args.tableName = "t";
  args.scan.__set_startRow("a");
  args.scan.__set_stopRow("m");
  args.scan.__set_filterString("PrefixFilter('a')");
  args.scan.__set_caching(50);
  args.scan.__set_batchSize(7);
  args.scan.__set_columns({"f"});
  const DecodedCall call =
      Decode("thrift1", Message("scannerOpenWithScan", args, WireProtocol::kBinary), WireProtocol::kBinary);
  EXPECT_EQ(call.row, "a");
  EXPECT_EQ(call.stop_row, "m");
  EXPECT_EQ(call.filter, "PrefixFilter('a')");
  EXPECT_EQ(call.caching, 50);
  EXPECT_EQ(call.batch_size, 7);
  EXPECT_EQ(call.columns, std::vector<std::string>{"f"});

  thrift::Hbase_scannerGetList_args fetch;
  fetch.id = 12;
  fetch.nbRows = 100;
  const DecodedCall next =
      Decode("thrift1", Message("scannerGetList", fetch, WireProtocol::kBinary), WireProtocol::kBinary);
  EXPECT_EQ(next.scanner_id, 12);
  EXPECT_EQ(next.num_rows, 100);
  EXPECT_TRUE(next.table.empty());
}

TEST(CallDecodeTest, Thrift1BatchesKeepTheirFirstRowsAndCount) {
  thrift::Hbase_mutateRows_args args;
  args.tableName = "t";
  for (int i = 0; i < 40; ++i) {
    thrift::BatchMutation b;
    b.row = "row" + std::to_string(i);
    args.rowBatches.push_back(b);
  }
  const DecodedCall call =
      Decode("thrift1", Message("mutateRows", args, WireProtocol::kBinary), WireProtocol::kBinary);
  EXPECT_EQ(call.row_count, 40);
  ASSERT_EQ(call.rows.size(), DecodedCall::kKeptItems);
  EXPECT_EQ(call.rows.front(), "row0");
  EXPECT_EQ(call.MatchRows().size(), DecodedCall::kKeptItems);
}

TEST(CallDecodeTest, Thrift2RequestStructsGiveRowColumnsAndScanArguments) {
  thrift2::THBaseService_get_args get;
  get.table = "ns:t";
  get.tget.row = "k";
  thrift2::TColumn column;
  column.family = "f";
  column.__set_qualifier("q");
  get.tget.__set_columns({column});
  const DecodedCall g =
      Decode("thrift2", Message("get", get, WireProtocol::kCompact), WireProtocol::kCompact);
  EXPECT_EQ(g.table, "ns:t");
  EXPECT_EQ(g.row, "k");
  EXPECT_EQ(g.columns, std::vector<std::string>{"f:q"});

  thrift2::THBaseService_getScannerResults_args scan;
  scan.table = "t";
  scan.tscan.__set_startRow("b");
  scan.tscan.__set_stopRow("c");
  scan.tscan.__set_filterString("KeyOnlyFilter()");
  scan.tscan.__set_caching(3);
  scan.tscan.__set_batchSize(2);
  scan.numRows = 10;
  const DecodedCall s = Decode("thrift2", Message("getScannerResults", scan, WireProtocol::kBinary),
                               WireProtocol::kBinary);
  EXPECT_EQ(s.row, "b");
  EXPECT_EQ(s.stop_row, "c");
  EXPECT_EQ(s.filter, "KeyOnlyFilter()");
  EXPECT_EQ(s.caching, 3);
  EXPECT_EQ(s.batch_size, 2);
  EXPECT_EQ(s.num_rows, 10);

  thrift2::THBaseService_getTableDescriptor_args describe;
  describe.table.__set_ns("ns");
  describe.table.qualifier = "t";
  EXPECT_EQ(Decode("thrift2", Message("getTableDescriptor", describe, WireProtocol::kBinary),
                   WireProtocol::kBinary).table,
            "ns:t");
}

TEST(CallDecodeTest, BytesThatAreNotACallAreNotDecoded) {
  const std::string junk = "\x80\x01\x00\x01\xff\xff\xff\xff";
  EXPECT_FALSE(Decode("thrift1", junk, WireProtocol::kBinary).decoded);
  EXPECT_FALSE(Decode("thrift1", "", WireProtocol::kCompact).decoded);
}

TEST(CallDecodeTest, RepliesGiveTheirErrorAndItsClass) {
  thrift::Hbase_getRow_result result;
  result.io.message = "org.apache.hadoop.hbase.TableNotFoundException: t";
  result.__isset.io = true;
  const std::string bytes = Message("getRow", result, WireProtocol::kBinary,
                                    apache::thrift::protocol::T_REPLY);
  const DecodedReply reply = DecodeReply("thrift1", reinterpret_cast<const uint8_t*>(bytes.data()),
                                         bytes.size(), WireProtocol::kBinary);
  EXPECT_TRUE(reply.error);
  EXPECT_EQ(reply.exception, "IOError");
  EXPECT_EQ(reply.error_class, "org.apache.hadoop.hbase.TableNotFoundException");
  EXPECT_EQ(reply.message, result.io.message);

  thrift::Hbase_getRow_result ok;
  ok.__isset.success = true;
  const std::string ok_bytes = Message("getRow", ok, WireProtocol::kBinary,
                                       apache::thrift::protocol::T_REPLY);
  EXPECT_FALSE(DecodeReply("thrift1", reinterpret_cast<const uint8_t*>(ok_bytes.data()),
                           ok_bytes.size(), WireProtocol::kBinary)
                   .error);
}

TEST(CallDecodeTest, AScannerOpensReplyGivesTheScannerId) {
  thrift::Hbase_scannerOpenWithScan_result result;
  result.success = 42;
  result.__isset.success = true;
  const std::string bytes = Message("scannerOpenWithScan", result, WireProtocol::kCompact,
                                    apache::thrift::protocol::T_REPLY);
  const DecodedReply reply = DecodeReply("thrift1", reinterpret_cast<const uint8_t*>(bytes.data()),
                                         bytes.size(), WireProtocol::kCompact);
  EXPECT_FALSE(reply.error);
  EXPECT_EQ(reply.success_int, 42);
}

}  // namespace
}  // namespace hbemu::server::control
