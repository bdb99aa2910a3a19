// The scan fast path writes rows to the wire without building TRowResult structs, and mutateRows
// reads its rows as views (batch_mutations.h). These tests hold server::HbaseProcessor's replies
// (and the cells it writes) to the generated processor's, for both wire protocols
// (row_writer_test.cc holds the row writer itself).

#include "server/thrift1/hbase_processor.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TTransportException.h>

#include "server/gateway/scanner_registry.h"
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

const std::map<std::string, std::string> kNoAttrs;

// The protocol types WireSession uses, which the fast path writes through directly.
std::shared_ptr<TProtocol> MakeProtocol(bool compact, std::shared_ptr<TMemoryBuffer> buffer) {
  if (compact) return std::make_shared<TCompactProtocolT<TMemoryBuffer>>(buffer);
  return std::make_shared<TBinaryProtocolT<TMemoryBuffer>>(buffer);
}

class HbaseProcessorTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
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

// Runs one mutateRows(Ts) call, whose arguments `args` writes, through each processor, each
// over a store of its own holding the same table "m". Expects the same reply and the same
// cells afterwards.
class MutateRowsTest : public HbaseProcessorTest {
 protected:
  void SetUp() override {
    HbaseProcessorTest::SetUp();
    for (Side* side : {&fast_, &generated_}) {
      ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &side->store));
      side->handler = std::make_shared<HbaseHandler>(side->store.get(), scanners_.get(),
                                                     HbaseHandler::Options());
      thrift::ColumnDescriptor f, g;
      f.name = "f:";
      g.name = "g";
      side->handler->createTable("m", {f, g});
      // Something for the deletes to delete.
      for (const char* row : {"r1", "r2", "r3"}) {
        side->handler->mutateRowTs("m", row, {Put("f:b", "old"), Put("g:", "old")}, 10,
                                   kNoAttrs);
      }
    }
  }

  void ExpectSameEffect(const std::string& method, const std::function<void(TProtocol*)>& args) {
    HbaseProcessor fast(fast_.handler);
    thrift::HbaseProcessor generated(generated_.handler);
    EXPECT_EQ(Call(fast, method, args), Call(generated, method, args));
    EXPECT_EQ(Cells(fast_), Cells(generated_));
  }

  struct Side {
    std::unique_ptr<storage::Store> store;
    std::shared_ptr<HbaseHandler> handler;
  };

  // The newest version of every cell, as "row/family:qualifier/timestamp=value" lines.
  std::string Cells(Side& side) {
    std::string out;
    thrift::TScan scan;
    const int32_t id = side.handler->scannerOpenWithScan("m", scan, kNoAttrs);
    std::vector<thrift::TRowResult> rows;
    side.handler->scannerGetList(rows, id, 1000);
    side.handler->scannerClose(id);
    for (const thrift::TRowResult& row : rows) {
      for (const auto& [column, cell] : row.columns) {
        out += row.row + "/" + column + "/" + std::to_string(cell.timestamp) + "=" + cell.value +
               "\n";
      }
    }
    return out;
  }

  Side fast_, generated_;

  static thrift::Mutation Put(const std::string& column, const std::string& value) {
    thrift::Mutation m;
    m.column = column;
    m.value = value;
    return m;
  }
  static thrift::Mutation Delete(const std::string& column) {
    thrift::Mutation m;
    m.isDelete = true;
    m.column = column;
    return m;
  }
  static thrift::BatchMutation Row(const std::string& row, std::vector<thrift::Mutation> ms) {
    thrift::BatchMutation b;
    b.row = row;
    b.mutations = std::move(ms);
    return b;
  }
};

TEST_P(MutateRowsTest, PutsAndDeletesMatchTheGeneratedProcessor) {
  const std::vector<thrift::BatchMutation> rows = {
      Row("r1", {Put("f:a", "1"), Put("g:", std::string(300, 'x')), Delete("f:b")}),
      Row("r2", {Delete("g")}),  // the whole family
      Row("r3", {Put("f:q", ""), Put("f:a:b", "colon in the qualifier")}),
      Row("r4", {}),
  };
  ExpectSameEffect("mutateRowsTs", [&](TProtocol* p) {
    thrift::Hbase_mutateRowsTs_args args;
    args.tableName = "m";
    args.rowBatches = rows;
    args.timestamp = 500;
    args.write(p);
  });
  EXPECT_NE(Cells(fast_).find("r1/f:a/500=1"), std::string::npos) << Cells(fast_);
  EXPECT_EQ(Cells(fast_).find("r1/f:b/"), std::string::npos) << Cells(fast_);
  ExpectSameEffect("mutateRows", [&](TProtocol* p) {
    thrift::Hbase_mutateRows_args args;
    args.tableName = "m";
    args.rowBatches = rows;
    args.attributes = {{"k", "v"}};
    args.write(p);
  });
}

TEST_P(MutateRowsTest, RejectedRowsMatchTheGeneratedProcessor) {
  const std::vector<std::vector<thrift::BatchMutation>> batches = {
      {Row("r1", {Put("f:a", "1")}), Row("r2", {Put("nosuch:a", "1")})},  // IOError, r1 written
      {Row("", {Put("f:a", "1")})},                                      // IllegalArgument
      {Row("r1", {Put("f", "family only")})},                            // IllegalArgument
  };
  for (const auto& rows : batches) {
    ExpectSameEffect("mutateRows", [&](TProtocol* p) {
      thrift::Hbase_mutateRows_args args;
      args.tableName = "m";
      args.rowBatches = rows;
      args.write(p);
    });
  }
  ExpectSameEffect("mutateRows", [&](TProtocol* p) {
    thrift::Hbase_mutateRows_args args;
    args.tableName = "nosuchtable";
    args.rowBatches = batches[0];
    args.write(p);
  });
}

// A table that cannot take the rows: the fast path only counts them as it reads them, and
// must answer exactly as the generated path, which has them all.
TEST_P(MutateRowsTest, BatchesToAMissingOrDisabledTableMatchTheGeneratedProcessor) {
  const std::vector<std::vector<thrift::BatchMutation>> batches = {
      {Row("r1", {Put("f:a", "1")}), Row("r2", {Put("f:a", "2"), Delete("g")})},
      {Row("r1", {Delete("f:a")}), Row("r2", {Delete("g")}), Row("r3", {Delete("f:b")})},
      {Row("r1", {}), Row("r2", {})},
      {},
      {Row("r1", {Put("f:a", "1")}), Row("", {Put("f:a", "1")})},
      {Row("r1", {Put("f:a", "1")}), Row("r2", {Put("f", "family only")})},
  };
  const std::string before = Cells(fast_);
  fast_.handler->disableTable("m");
  generated_.handler->disableTable("m");
  HbaseProcessor fast(fast_.handler);
  thrift::HbaseProcessor generated(generated_.handler);
  for (const char* table : {"nosuchtable", "m"}) {
    for (const auto& rows : batches) {
      const auto args = [&](TProtocol* p) {
        thrift::Hbase_mutateRows_args a;
        a.tableName = table;
        a.rowBatches = rows;
        a.write(p);
      };
      EXPECT_EQ(Call(fast, "mutateRows", args), Call(generated, "mutateRows", args));
    }
  }
  fast_.handler->enableTable("m");
  generated_.handler->enableTable("m");
  EXPECT_EQ(Cells(fast_), before);
  EXPECT_EQ(Cells(generated_), before);
}

// The rows field before the table: the table is not known when the rows arrive, so they are
// kept, and the answer is the same.
TEST_P(MutateRowsTest, RowsBeforeTheMissingTableMatchTheGeneratedProcessor) {
  using apache::thrift::protocol::TType;
  ExpectSameEffect("mutateRows", [&](TProtocol* p) {
    p->writeStructBegin("args");
    p->writeFieldBegin("rowBatches", TType::T_LIST, 2);
    p->writeListBegin(TType::T_STRUCT, 2);
    Row("r1", {Put("f:a", "1")}).write(p);
    Row("r2", {Put("f:a", "2")}).write(p);
    p->writeListEnd();
    p->writeFieldEnd();
    p->writeFieldBegin("tableName", TType::T_STRING, 1);
    p->writeBinary("nosuchtable");
    p->writeFieldEnd();
    p->writeFieldStop();
    p->writeStructEnd();
  });
}

// Rows counted for a missing table cannot be written to a table named after them: such a call
// (no client library writes a field twice) fails as undecodable and writes nothing.
TEST_P(MutateRowsTest, TableNamedAgainAfterRowsOfAMissingTableFailsToDecode) {
  using apache::thrift::protocol::TType;
  auto request = std::make_shared<TMemoryBuffer>();
  auto p = MakeProtocol(GetParam(), request);
  p->writeMessageBegin("mutateRows", TMessageType::T_CALL, 7);
  p->writeStructBegin("args");
  p->writeFieldBegin("tableName", TType::T_STRING, 1);
  p->writeBinary("nosuchtable");
  p->writeFieldEnd();
  p->writeFieldBegin("rowBatches", TType::T_LIST, 2);
  p->writeListBegin(TType::T_STRUCT, 1);
  Row("r1", {Put("f:a", "1")}).write(p.get());
  p->writeListEnd();
  p->writeFieldEnd();
  p->writeFieldBegin("tableName", TType::T_STRING, 1);
  p->writeBinary("m");
  p->writeFieldEnd();
  p->writeFieldStop();
  p->writeStructEnd();
  p->writeMessageEnd();
  const std::string before = Cells(fast_);
  HbaseProcessor fast(fast_.handler);
  auto reply = std::make_shared<TMemoryBuffer>();
  if (GetParam()) {
    // Compact calls take the generated path, which writes the row to "m".
    EXPECT_TRUE(fast.process(p, MakeProtocol(true, reply), nullptr));
    EXPECT_NE(Cells(fast_).find("r1/f:a/"), std::string::npos);
  } else {
    EXPECT_THROW(fast.process(p, MakeProtocol(false, reply), nullptr),
                 apache::thrift::protocol::TProtocolException);
    EXPECT_EQ(Cells(fast_), before);
  }
}

// What a hand-written client may send: fields out of order, repeated (the last wins), unknown
// or of an unexpected type (skipped).
TEST_P(MutateRowsTest, OddFieldLayoutsReadAsTheGeneratedProcessorReadsThem) {
  using apache::thrift::protocol::TType;
  ExpectSameEffect("mutateRows", [&](TProtocol* p) {
    p->writeStructBegin("args");
    p->writeFieldBegin("rowBatches", TType::T_LIST, 2);
    p->writeListBegin(TType::T_STRUCT, 2);
    {  // mutations before the row, the row twice
      p->writeStructBegin("BatchMutation");
      p->writeFieldBegin("mutations", TType::T_LIST, 2);
      p->writeListBegin(TType::T_STRUCT, 1);
      Put("f:early", "1").write(p);
      p->writeListEnd();
      p->writeFieldEnd();
      p->writeFieldBegin("row", TType::T_STRING, 1);
      p->writeBinary("ignored");
      p->writeFieldEnd();
      p->writeFieldBegin("row", TType::T_STRING, 1);
      p->writeBinary("r1");
      p->writeFieldEnd();
      p->writeFieldStop();
      p->writeStructEnd();
    }
    {  // the mutation list twice; unknown and mistyped fields
      p->writeStructBegin("BatchMutation");
      p->writeFieldBegin("row", TType::T_STRING, 1);
      p->writeBinary("r2");
      p->writeFieldEnd();
      p->writeFieldBegin("mutations", TType::T_LIST, 2);
      p->writeListBegin(TType::T_STRUCT, 1);
      Put("f:dropped", "1").write(p);
      p->writeListEnd();
      p->writeFieldEnd();
      p->writeFieldBegin("unknown", TType::T_STRING, 9);
      p->writeBinary("skipped");
      p->writeFieldEnd();
      p->writeFieldBegin("mutations", TType::T_LIST, 2);
      p->writeListBegin(TType::T_STRUCT, 2);
      p->writeStructBegin("Mutation");
      p->writeFieldBegin("isDelete", TType::T_I32, 1);  // wrong type: skipped, so a put
      p->writeI32(1);
      p->writeFieldEnd();
      p->writeFieldBegin("value", TType::T_STRING, 3);
      p->writeBinary("value first");
      p->writeFieldEnd();
      p->writeFieldBegin("writeToWAL", TType::T_BOOL, 4);
      p->writeBool(false);
      p->writeFieldEnd();
      p->writeFieldBegin("column", TType::T_STRING, 2);
      p->writeBinary("f:late");
      p->writeFieldEnd();
      p->writeFieldStop();
      p->writeStructEnd();
      Delete("g").write(p);
      p->writeListEnd();
      p->writeFieldEnd();
      p->writeFieldStop();
      p->writeStructEnd();
    }
    p->writeListEnd();
    p->writeFieldEnd();
    p->writeFieldBegin("tableName", TType::T_STRING, 1);  // after the rows
    p->writeBinary("m");
    p->writeFieldEnd();
    p->writeFieldStop();
    p->writeStructEnd();
  });
  const std::string cells = Cells(fast_);
  EXPECT_NE(cells.find("r1/f:early/"), std::string::npos) << cells;
  EXPECT_NE(cells.find("r2/f:late/"), std::string::npos) << cells;
  EXPECT_EQ(cells.find("dropped"), std::string::npos) << cells;
  EXPECT_EQ(cells.find("ignored"), std::string::npos) << cells;
}

TEST_P(MutateRowsTest, TruncatedCallFailsAndWritesNothing) {
  thrift::Hbase_mutateRows_args args;
  args.tableName = "m";
  args.rowBatches = {Row("r1", {Put("f:a", "1")}), Row("r9", {Put("f:a", "2")})};
  auto whole = std::make_shared<TMemoryBuffer>();
  auto writer = MakeProtocol(GetParam(), whole);
  writer->writeMessageBegin("mutateRows", TMessageType::T_CALL, 7);
  args.write(writer.get());
  writer->writeMessageEnd();
  const std::string bytes = whole->getBufferAsString();
  const std::string before = Cells(fast_);
  HbaseProcessor fast(fast_.handler);
  for (size_t cut : {bytes.size() - 1, bytes.size() - 12, bytes.size() / 2}) {
    std::string part = bytes.substr(0, cut);
    auto request = std::make_shared<TMemoryBuffer>(reinterpret_cast<uint8_t*>(part.data()),
                                                   static_cast<uint32_t>(part.size()));
    auto reply = std::make_shared<TMemoryBuffer>();
    EXPECT_ANY_THROW(fast.process(MakeProtocol(GetParam(), request),
                                  MakeProtocol(GetParam(), reply), nullptr));
  }
  EXPECT_EQ(Cells(fast_), before);
}

// Type codes that are no Thrift type, where the fast path reads type bytes itself: every call
// fails for both processors, and nothing is written.
using MutateRowsBinaryTest = MutateRowsTest;

TEST_P(MutateRowsBinaryTest, UnknownTypeCodesFailAsInTheGeneratedProcessor) {
  using apache::thrift::protocol::TType;
  constexpr int8_t kBad = 112;
  const std::vector<std::function<void(TProtocol*)>> bodies = {
      [](TProtocol* p) {  // a field of an unknown type
        p->writeByte(kBad);
        p->writeI16(5);
        p->writeI32(0);
      },
      [](TProtocol* p) {  // rows whose element type is unknown
        p->writeFieldBegin("rowBatches", TType::T_LIST, 2);
        p->writeByte(kBad);
        p->writeI32(1);
        p->writeFieldStop();
      },
      [](TProtocol* p) {  // attributes whose key type is unknown
        p->writeFieldBegin("attributes", TType::T_MAP, 3);
        p->writeByte(kBad);
        p->writeByte(TType::T_STRING);
        p->writeI32(1);
        p->writeI32(0);
        p->writeI32(0);
        p->writeFieldStop();
      },
  };
  const std::string before = Cells(fast_);
  for (const auto& body : bodies) {
    auto request = std::make_shared<TMemoryBuffer>();
    auto writer = MakeProtocol(false, request);
    writer->writeMessageBegin("mutateRows", TMessageType::T_CALL, 7);
    writer->writeFieldBegin("tableName", TType::T_STRING, 1);
    writer->writeBinary("m");
    body(writer.get());
    writer->writeFieldStop();
    writer->writeMessageEnd();
    std::string bytes = request->getBufferAsString();
    HbaseProcessor fast(fast_.handler);
    thrift::HbaseProcessor generated(generated_.handler);
    for (thrift::HbaseProcessor* processor : {static_cast<thrift::HbaseProcessor*>(&fast),
                                              &generated}) {
      auto in = std::make_shared<TMemoryBuffer>(reinterpret_cast<uint8_t*>(bytes.data()),
                                                static_cast<uint32_t>(bytes.size()));
      auto reply = std::make_shared<TMemoryBuffer>();
      EXPECT_ANY_THROW(
          processor->process(MakeProtocol(false, in), MakeProtocol(false, reply), nullptr));
    }
  }
  EXPECT_EQ(Cells(fast_), before);
  EXPECT_EQ(Cells(generated_), before);
}

// A row count the message cannot hold fails at the end of the bytes, having reserved no more
// than they bound. (The generated processor, without WireSession's container limit, would
// try to allocate every row first.)
TEST_P(MutateRowsBinaryTest, RowCountBeyondTheMessageFailsAtItsEnd) {
  using apache::thrift::protocol::TType;
  auto request = std::make_shared<TMemoryBuffer>();
  auto writer = MakeProtocol(false, request);
  writer->writeMessageBegin("mutateRows", TMessageType::T_CALL, 7);
  writer->writeFieldBegin("rowBatches", TType::T_LIST, 2);
  writer->writeListBegin(TType::T_STRUCT, 1 << 30);
  Row("r1", {Put("f:a", "1")}).write(writer.get());
  std::string bytes = request->getBufferAsString();
  auto in = std::make_shared<TMemoryBuffer>(reinterpret_cast<uint8_t*>(bytes.data()),
                                            static_cast<uint32_t>(bytes.size()));
  auto reply = std::make_shared<TMemoryBuffer>();
  HbaseProcessor fast(fast_.handler);
  const std::string before = Cells(fast_);
  EXPECT_THROW(fast.process(MakeProtocol(false, in), MakeProtocol(false, reply), nullptr),
               apache::thrift::transport::TTransportException);
  EXPECT_EQ(Cells(fast_), before);
}

INSTANTIATE_TEST_SUITE_P(Protocols, MutateRowsBinaryTest, ::testing::Values(false),
                         [](const ::testing::TestParamInfo<bool>&) { return "Binary"; });

INSTANTIATE_TEST_SUITE_P(Protocols, MutateRowsTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Compact" : "Binary";
                         });

INSTANTIATE_TEST_SUITE_P(Protocols, HbaseProcessorTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Compact" : "Binary";
                         });

}  // namespace
}  // namespace hbemu::server
