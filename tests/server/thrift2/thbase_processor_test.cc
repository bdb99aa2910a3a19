// ThbaseProcessor answers getScannerRows from the scanner without building TResult structs.
// Its replies must be the generated processor's bytes, rows and errors alike, for both wire
// protocols (result_writer_test.cc holds the row writer itself).

#include "server/thrift2/thbase_processor.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "server/gateway/scanner_registry.h"
#include "server/limits.h"
#include "storage/clock.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::server {
namespace {

using apache::thrift::protocol::TBinaryProtocolT;
using apache::thrift::protocol::TCompactProtocolT;
using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;

// The protocol types WireSession uses, which the fast path writes through directly.
std::shared_ptr<TProtocol> MakeProtocol(bool compact, std::shared_ptr<TMemoryBuffer> buffer) {
  if (compact) return std::make_shared<TCompactProtocolT<TMemoryBuffer>>(buffer);
  return std::make_shared<TBinaryProtocolT<TMemoryBuffer>>(buffer);
}

class ThbaseProcessorTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    scanners_ = std::make_unique<ScannerRegistry>(&clock_, 60000);
    handler_ = std::make_shared<ThbaseHandler>(store_.get(), scanners_.get(),
                                               ThbaseHandler::Options());
    thrift2::TTableDescriptor table;
    table.tableName.__set_qualifier("t");
    std::vector<thrift2::TColumnFamilyDescriptor> families(2);
    families[0].__set_name("f");
    families[0].__set_maxVersions(3);
    families[1].__set_name("g");
    table.__set_columns(families);
    handler_->createTable(table, {});
    for (int i = 0; i < 25; ++i) {
      thrift2::TPut put;
      put.__set_row("row" + std::to_string(i));
      thrift2::TColumnValue a, b;
      a.__set_family("f");
      a.__set_qualifier("q" + std::to_string(i % 3));
      a.__set_value("v" + std::to_string(i));
      a.__set_timestamp(100 + i);
      b.__set_family("g");
      b.__set_qualifier("");
      b.__set_value(std::string(i, 'x'));
      b.__set_timestamp(100 + i);
      put.__set_columnValues({a, b});
      handler_->put("t", put);
      a.__set_timestamp(200 + i);
      put.__set_columnValues({a});
      handler_->put("t", put);
    }
  }

  std::string GetRows(thrift2::THBaseServiceProcessor& processor, int32_t id, int32_t n) {
    const bool compact = GetParam();
    auto request = std::make_shared<TMemoryBuffer>();
    auto in = MakeProtocol(compact, request);
    in->writeMessageBegin("getScannerRows", TMessageType::T_CALL, 7);
    thrift2::THBaseService_getScannerRows_args args;
    args.scannerId = id;
    args.numRows = n;
    args.write(in.get());
    in->writeMessageEnd();
    auto reply = std::make_shared<TMemoryBuffer>();
    EXPECT_TRUE(processor.process(in, MakeProtocol(compact, reply), nullptr));
    return reply->getBufferAsString();
  }

  std::string ScanResults(thrift2::THBaseServiceProcessor& processor, const std::string& table,
                          const thrift2::TScan& scan, int32_t n) {
    const bool compact = GetParam();
    auto request = std::make_shared<TMemoryBuffer>();
    auto in = MakeProtocol(compact, request);
    in->writeMessageBegin("getScannerResults", TMessageType::T_CALL, 7);
    thrift2::THBaseService_getScannerResults_args args;
    args.table = table;
    args.tscan = scan;
    args.numRows = n;
    args.write(in.get());
    in->writeMessageEnd();
    auto reply = std::make_shared<TMemoryBuffer>();
    EXPECT_TRUE(processor.process(in, MakeProtocol(compact, reply), nullptr));
    return reply->getBufferAsString();
  }

  storage::ManualClock clock_{1'700'000'000'000};
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<ScannerRegistry> scanners_;
  std::shared_ptr<ThbaseHandler> handler_;
};

TEST_P(ThbaseProcessorTest, ScannerRowsMatchTheGeneratedProcessor) {
  thrift2::THBaseServiceProcessor generated(handler_);
  ThbaseProcessor fast(handler_);
  std::vector<thrift2::TScan> scans(4);
  scans[1].__set_batchSize(1);
  scans[1].__set_maxVersions(2);
  scans[2].__set_reversed(true);
  scans[3].__set_filterString("QualifierFilter(!=, 'binary:q1')");
  for (const thrift2::TScan& scan : scans) {
    const int32_t a = handler_->openScanner("t", scan);
    const int32_t b = handler_->openScanner("t", scan);
    for (int32_t n : {1, 0, 7, 100, 100}) {
      const std::string reply = GetRows(fast, a, n);
      EXPECT_EQ(reply, GetRows(generated, b, n));
      if (n == 1) {
        EXPECT_GT(reply.size(), 40u);  // a row, not an empty list
      }
    }
  }
}

TEST_P(ThbaseProcessorTest, ScannerErrorsMatchTheGeneratedProcessor) {
  thrift2::THBaseServiceProcessor generated(handler_);
  ThbaseProcessor fast(handler_);
  EXPECT_EQ(GetRows(fast, 12345, 10), GetRows(generated, 12345, 10));  // TIllegalArgument
  const int32_t id = handler_->openScanner("t", thrift2::TScan());
  const std::string negative = GetRows(fast, id, -1);  // TApplicationException
  EXPECT_EQ(negative, GetRows(generated, id, -1));
  EXPECT_FALSE(negative.empty());
}

TEST_P(ThbaseProcessorTest, ScanResultsMatchTheGeneratedProcessor) {
  thrift2::THBaseServiceProcessor generated(handler_);
  ThbaseProcessor fast(handler_);
  std::vector<thrift2::TScan> scans(3);
  scans[1].__set_batchSize(1);
  scans[2].__set_reversed(true);
  scans[2].__set_filterString("QualifierFilter(!=, 'binary:q1')");
  for (const thrift2::TScan& scan : scans) {
    for (int32_t n : {1, 0, 7, 100}) {
      const std::string reply = ScanResults(fast, "t", scan, n);
      EXPECT_EQ(reply, ScanResults(generated, "t", scan, n));
      if (n == 1) {
        EXPECT_GT(reply.size(), 40u);  // a row, not an empty list
      }
    }
  }
  // Errors: a missing table (TIOError), a negative count (TApplicationException).
  EXPECT_EQ(ScanResults(fast, "nope", scans[0], 5), ScanResults(generated, "nope", scans[0], 5));
  EXPECT_EQ(ScanResults(fast, "t", scans[0], -1), ScanResults(generated, "t", scans[0], -1));
}

// Sets some limits for one test, and puts the previous ones back.
class LimitsForTest {
 public:
  explicit LimitsForTest(const std::function<void(Limits*)>& change)
      : saved_(CurrentLimits()) {
    Limits limits = saved_;
    change(&limits);
    SetLimits(limits);
  }
  ~LimitsForTest() { SetLimits(saved_); }

 private:
  const Limits saved_;
};

TEST_P(ThbaseProcessorTest, ScannerFetchesAreBoundedByRowsPerCallAndReplyBytes) {
  LimitsForTest limits([](Limits* l) { l->scanner_rows_per_call = 10; });
  std::vector<thrift2::TResult> results;
  handler_->getScannerResults(results, "t", thrift2::TScan(), INT32_MAX);
  EXPECT_EQ(results.size(), 10u);
  const int32_t id = handler_->openScanner("t", thrift2::TScan());
  std::vector<size_t> sizes;
  for (int i = 0; i < 4; ++i) {
    results.clear();
    handler_->getScannerRows(results, id, INT32_MAX);
    sizes.push_back(results.size());
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{10, 10, 5, 0}));
  // Past reply_bytes no further row is added: one row per fetch here.
  LimitsForTest tiny([](Limits* l) { l->reply_bytes = 1; });
  const int32_t one_by_one = handler_->openScanner("t", thrift2::TScan());
  results.clear();
  handler_->getScannerRows(results, one_by_one, 100);
  EXPECT_EQ(results.size(), 1u);
}

TEST_P(ThbaseProcessorTest, BatchesToAMissingTableFailAsAWholeAfterEachItemIsChecked) {
  thrift2::TPut put;
  put.__set_row("r");
  thrift2::TColumnValue c;
  c.__set_family("f");
  c.__set_qualifier("q");
  c.__set_value("v");
  put.__set_columnValues({c});
  thrift2::TDelete del;
  del.__set_row("r");
  const std::string failed = "Failed 3 actions: nope: 3 times, servers with issues: null";
  try {
    handler_->putMultiple("nope", {put, put, put});
    ADD_FAILURE() << "expected TIOError";
  } catch (const thrift2::TIOError& e) {
    EXPECT_EQ(e.message, failed);
  }
  std::vector<thrift2::TDelete> not_deleted;
  try {
    handler_->deleteMultiple(not_deleted, "nope", {del, del, del});
    ADD_FAILURE() << "expected TIOError";
  } catch (const thrift2::TIOError& e) {
    EXPECT_EQ(e.message, failed);
  }
  handler_->putMultiple("nope", {});  // nothing to send
  // An item that does not convert fails the call first, as HBase converts the list first.
  thrift2::TPut no_columns;
  no_columns.__set_row("r");
  try {
    handler_->putMultiple("nope", {put, no_columns});
    ADD_FAILURE() << "expected the conversion error";
  } catch (const thrift2::TIOError& e) {
    ADD_FAILURE() << e.message;
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "InvalidArgument: No columns to insert");
  }
}

INSTANTIATE_TEST_SUITE_P(Protocols, ThbaseProcessorTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Compact" : "Binary";
                         });

}  // namespace
}  // namespace hbemu::server
