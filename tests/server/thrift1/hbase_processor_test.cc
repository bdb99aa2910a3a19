// The scan fast path writes rows to the wire without building TRowResult structs. These tests
// hold the whole scannerGet/scannerGetList reply of server::HbaseProcessor to the generated
// processor's bytes, for both wire protocols (row_writer_test.cc holds the row writer itself).

#include "server/thrift1/hbase_processor.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "server/gateway/scanner_registry.h"
#include "storage/clock.h"
#include "storage/store.h"

namespace hbemu::server {
namespace {

using apache::thrift::protocol::TBinaryProtocolT;
using apache::thrift::protocol::TCompactProtocolT;
using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;

const std::map<std::string, std::string> kNoAttrs;

// The protocol types WireSession uses, which the fast path writes through directly.
std::shared_ptr<TProtocol> MakeProtocol(bool compact, std::shared_ptr<TMemoryBuffer> buffer) {
  if (compact) return std::make_shared<TCompactProtocolT<TMemoryBuffer>>(buffer);
  return std::make_shared<TBinaryProtocolT<TMemoryBuffer>>(buffer);
}

class HbaseProcessorTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    storage::StoreOptions options;
    options.in_memory = true;
    options.clock = &clock_;
    ASSERT_TRUE(storage::Store::Open(options, &store_).ok());
    scanners_ = std::make_unique<ScannerRegistry>(&clock_, 60000);
    handler_ = std::make_shared<HbaseHandler>(store_.get(), scanners_.get(),
                                              HbaseHandler::Options());
    thrift::ColumnDescriptor f, g;
    f.name = "f:";
    g.name = "g";
    handler_->createTable("t", {f, g});
    for (int i = 0; i < 25; ++i) {
      thrift::Mutation a, b;
      a.column = "f:q" + std::to_string(i % 3);
      a.value = "v" + std::to_string(i);
      b.column = "g:";
      b.value = std::string(i, 'x');
      handler_->mutateRowTs("t", "row" + std::to_string(i), {a, b}, 100 + i, kNoAttrs);
      handler_->mutateRowTs("t", "row" + std::to_string(i), {a}, 200 + i, kNoAttrs);
    }
  }

  // One call through `processor`; returns the reply bytes.
  std::string Call(thrift::HbaseProcessor& processor, const std::string& method,
                   const std::function<void(TProtocol*)>& write_args) {
    const bool compact = GetParam();
    auto request = std::make_shared<TMemoryBuffer>();
    auto in = MakeProtocol(compact, request);
    in->writeMessageBegin(method, TMessageType::T_CALL, 7);
    write_args(in.get());
    in->writeMessageEnd();
    auto reply = std::make_shared<TMemoryBuffer>();
    EXPECT_TRUE(processor.process(in, MakeProtocol(compact, reply), nullptr));
    return reply->getBufferAsString();
  }

  std::string GetList(thrift::HbaseProcessor& processor, int32_t id, int32_t nb_rows) {
    return Call(processor, "scannerGetList", [&](TProtocol* p) {
      thrift::Hbase_scannerGetList_args args;
      args.id = id;
      args.nbRows = nb_rows;
      args.write(p);
    });
  }

  std::string Get(thrift::HbaseProcessor& processor, int32_t id) {
    return Call(processor, "scannerGet", [&](TProtocol* p) {
      thrift::Hbase_scannerGet_args args;
      args.id = id;
      args.write(p);
    });
  }

  storage::ManualClock clock_{1'700'000'000'000};
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<ScannerRegistry> scanners_;
  std::shared_ptr<HbaseHandler> handler_;
};

TEST_P(HbaseProcessorTest, ScannerRepliesMatchTheGeneratedProcessor) {
  thrift::HbaseProcessor generated(handler_);
  HbaseProcessor fast(handler_);
  std::vector<thrift::TScan> scans(5);
  scans[1].__set_sortColumns(true);
  scans[2].__set_batchSize(1);
  scans[2].__set_sortColumns(true);
  scans[3].__set_columns({"f:q1", "g"});
  scans[3].__set_reversed(true);
  scans[4].__set_filterString("QualifierFilter(!=, 'binary:q1')");
  for (const thrift::TScan& scan : scans) {
    const int32_t a = handler_->scannerOpenWithScan("t", scan, kNoAttrs);
    const int32_t b = handler_->scannerOpenWithScan("t", scan, kNoAttrs);
    const std::string first = Get(fast, a);
    EXPECT_GT(first.size(), 40u);  // a row, not an empty list
    EXPECT_EQ(first, Get(generated, b));
    for (int32_t n : {0, 1, 7, 100, 100}) EXPECT_EQ(GetList(fast, a, n), GetList(generated, b, n));
    EXPECT_EQ(Get(fast, a), Get(generated, b));  // exhausted: an empty list
  }
}

TEST_P(HbaseProcessorTest, ScannerErrorsMatchTheGeneratedProcessor) {
  thrift::HbaseProcessor generated(handler_);
  HbaseProcessor fast(handler_);
  EXPECT_EQ(GetList(fast, 12345, 10), GetList(generated, 12345, 10));  // IllegalArgument
  EXPECT_EQ(Get(fast, 12345), Get(generated, 12345));
  const int32_t id = handler_->scannerOpen("t", "", {}, kNoAttrs);
  const std::string negative = GetList(fast, id, -1);  // TApplicationException
  EXPECT_EQ(negative, GetList(generated, id, -1));
  EXPECT_FALSE(negative.empty());
}

INSTANTIATE_TEST_SUITE_P(Protocols, HbaseProcessorTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Compact" : "Binary";
                         });

}  // namespace
}  // namespace hbemu::server
