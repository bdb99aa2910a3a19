#include "server/net/message_skimmer.h"

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "server/limits.h"
#include "tests/server/admin/scoped_limits.h"
#include "Hbase.h"

namespace hbemu::server {
namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;
using Status = SkimResult::Status;

constexpr size_t kMax = 100u * 1024 * 1024;

enum class Encoding { kStrictBinary, kNonStrictBinary, kCompact };

WireProtocol ProtocolOf(Encoding encoding) {
  return encoding == Encoding::kCompact ? WireProtocol::kCompact : WireProtocol::kBinary;
}

// Serializes real Hbase calls the way a client would, by running the generated client over a
// memory buffer.
class CallWriter {
 public:
  explicit CallWriter(Encoding encoding) : buffer_(std::make_shared<TMemoryBuffer>()) {
    std::shared_ptr<TProtocol> protocol;
    if (encoding == Encoding::kCompact) {
      protocol = std::make_shared<TCompactProtocol>(buffer_);
    } else {
      auto binary = std::make_shared<TBinaryProtocol>(buffer_);
      if (encoding == Encoding::kNonStrictBinary) binary->setStrict(false, false);
      protocol = binary;
    }
    client_ = std::make_unique<thrift::HbaseClient>(protocol);
  }

  thrift::HbaseClient& client() { return *client_; }
  std::string Take() {
    std::string bytes = buffer_->getBufferAsString();
    buffer_->resetBuffer();
    return bytes;
  }

 private:
  std::shared_ptr<TMemoryBuffer> buffer_;
  std::unique_ptr<thrift::HbaseClient> client_;
};

std::string MutateRowsCall(Encoding encoding, size_t rows, size_t value_bytes) {
  CallWriter writer(encoding);
  std::vector<thrift::BatchMutation> batches(rows);
  for (size_t i = 0; i < rows; ++i) {
    batches[i].row = "row-" + std::to_string(i);
    thrift::Mutation m;
    m.column = "cf:q";
    m.value = std::string(value_bytes, static_cast<char>('a' + i % 26));
    batches[i].mutations.push_back(m);
  }
  writer.client().send_mutateRows("table", batches, {{"attr", "v"}});
  return writer.Take();
}

// A scannerOpenWithScan call: a struct with i64, bool, string and list fields, and a map.
std::string ScanCall(Encoding encoding) {
  CallWriter writer(encoding);
  thrift::TScan scan;
  scan.__set_startRow("a");
  scan.__set_stopRow("z");
  scan.__set_timestamp(1234567890123);
  scan.__set_columns({"cf:a", "cf:b"});
  scan.__set_caching(100);
  scan.__set_filterString("PrefixFilter('a')");
  scan.__set_sortColumns(true);
  scan.__set_reversed(false);
  writer.client().send_scannerOpenWithScan("table", scan, {{"k", "v"}, {"k2", ""}});
  return writer.Take();
}

SkimResult Skim(WireProtocol protocol, const std::string& bytes, size_t max = kMax) {
  return SkimMessage(protocol, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), max);
}

class MessageSkimmerEncodingTest : public ::testing::TestWithParam<Encoding> {};

TEST_P(MessageSkimmerEncodingTest, CompleteMessageReportsItsLength) {
  std::string call = MutateRowsCall(GetParam(), 3, 10);
  SkimResult r = Skim(ProtocolOf(GetParam()), call);
  EXPECT_EQ(r.status, Status::kComplete) << r.error;
  EXPECT_EQ(r.bytes, call.size());
}

TEST_P(MessageSkimmerEncodingTest, BytesAfterTheMessageAreNotPartOfIt) {
  std::string first = MutateRowsCall(GetParam(), 2, 5);
  std::string second = MutateRowsCall(GetParam(), 4, 7);
  SkimResult r = Skim(ProtocolOf(GetParam()), first + second.substr(0, 9));
  EXPECT_EQ(r.status, Status::kComplete) << r.error;
  EXPECT_EQ(r.bytes, first.size());
}

TEST_P(MessageSkimmerEncodingTest, EveryProperPrefixNeedsMoreWithAValidLowerBound) {
  std::string call = MutateRowsCall(GetParam(), 3, 20);
  for (size_t split = 0; split < call.size(); ++split) {
    SkimResult r = Skim(ProtocolOf(GetParam()), call.substr(0, split));
    ASSERT_EQ(r.status, Status::kNeedMore) << "split " << split << ": " << r.error;
    EXPECT_GT(r.bytes, split) << "split " << split;
    EXPECT_LE(r.bytes, call.size()) << "split " << split;
  }
}

TEST_P(MessageSkimmerEncodingTest, LargeStringAsksForAllOfItAtOnce) {
  constexpr size_t kValue = 1 << 20;
  std::string call = MutateRowsCall(GetParam(), 1, kValue);
  SkimResult r = Skim(ProtocolOf(GetParam()), call.substr(0, 100));
  ASSERT_EQ(r.status, Status::kNeedMore) << r.error;
  EXPECT_GT(r.bytes, kValue);
  EXPECT_LE(r.bytes, call.size());
}

TEST_P(MessageSkimmerEncodingTest, MessageOverTheLimitIsTooLargeBeforeItArrives) {
  std::string call = MutateRowsCall(GetParam(), 1, 5000);
  SkimResult r = Skim(ProtocolOf(GetParam()), call.substr(0, 200), 4096);
  EXPECT_EQ(r.status, Status::kTooLarge);
  SkimResult whole = Skim(ProtocolOf(GetParam()), call, 4096);
  EXPECT_EQ(whole.status, Status::kTooLarge);
  SkimResult fits = Skim(ProtocolOf(GetParam()), call, call.size());
  EXPECT_EQ(fits.status, Status::kComplete) << fits.error;
}

// A buffered message arrives over many reads; each Skim continues where the last stopped, so a
// large message is walked once in total rather than once per read.
TEST_P(MessageSkimmerEncodingTest, SkimContinuesWhereTheLastReadStopped) {
  std::string call = MutateRowsCall(GetParam(), 2000, 40);
  MessageSkimmer skimmer(ProtocolOf(GetParam()), kMax);
  const auto* bytes = reinterpret_cast<const uint8_t*>(call.data());
  const size_t half = call.size() / 2;
  SkimResult r = skimmer.Skim(bytes, half);
  ASSERT_EQ(r.status, Status::kNeedMore) << r.error;
  // Everything but the value that straddles the cut has been stepped over already.
  EXPECT_GT(skimmer.skimmed(), half - 100);
  EXPECT_LE(skimmer.skimmed(), half);
  // The bytes may move in memory between reads (the connection's buffer compacts).
  std::string moved = call;
  r = skimmer.Skim(reinterpret_cast<const uint8_t*>(moved.data()), moved.size());
  ASSERT_EQ(r.status, Status::kComplete) << r.error;
  EXPECT_EQ(r.bytes, call.size());
  // Reset starts the next message from its own first byte.
  skimmer.Reset();
  EXPECT_EQ(skimmer.skimmed(), 0u);
  EXPECT_EQ(skimmer.Skim(bytes, call.size()).bytes, call.size());
}

TEST_P(MessageSkimmerEncodingTest, PiecesOfEverySizeGiveTheSameAnswerAsTheWhole) {
  std::mt19937 random(7);
  const std::string calls[] = {MutateRowsCall(GetParam(), 5, 3), ScanCall(GetParam())};
  for (const std::string& call : calls) {
    for (int round = 0; round < 50; ++round) {
      MessageSkimmer skimmer(ProtocolOf(GetParam()), kMax);
      const auto* bytes = reinterpret_cast<const uint8_t*>(call.data());
      size_t have = 0;
      SkimResult r;
      do {
        have = std::min(call.size(), have + 1 + random() % 9);
        r = skimmer.Skim(bytes, have);
        if (have < call.size()) {
          ASSERT_EQ(r.status, Status::kNeedMore) << r.error;
          ASSERT_GT(r.bytes, have);
          ASSERT_LE(r.bytes, call.size());
        }
      } while (have < call.size());
      ASSERT_EQ(r.status, Status::kComplete) << r.error;
      EXPECT_EQ(r.bytes, call.size());
    }
  }
}

// What libthrift itself makes of the bytes: the message's length, or why it stopped.
enum class Verdict { kComplete, kShort, kBad };
Verdict LibthriftSkim(WireProtocol protocol, const std::string& bytes, size_t* length) {
  auto buffer = std::make_shared<TMemoryBuffer>(
      reinterpret_cast<uint8_t*>(const_cast<char*>(bytes.data())),
      static_cast<uint32_t>(bytes.size()));
  const auto limit = static_cast<int32_t>(bytes.size());
  std::shared_ptr<TProtocol> reader;
  if (protocol == WireProtocol::kCompact) {
    reader = std::make_shared<apache::thrift::protocol::TCompactProtocolT<TMemoryBuffer>>(
        buffer, limit, limit);
  } else {
    reader = std::make_shared<apache::thrift::protocol::TBinaryProtocolT<TMemoryBuffer>>(
        buffer, limit, limit, false, true);
  }
  try {
    std::string name;
    apache::thrift::protocol::TMessageType type;
    int32_t seqid;
    reader->readMessageBegin(name, type, seqid);
    apache::thrift::protocol::skip(*reader, apache::thrift::protocol::T_STRUCT);
    reader->readMessageEnd();
    *length = bytes.size() - buffer->available_read();
    return Verdict::kComplete;
  } catch (const apache::thrift::transport::TTransportException& e) {
    return e.getType() == apache::thrift::transport::TTransportException::END_OF_FILE
               ? Verdict::kShort
               : Verdict::kBad;
  } catch (const apache::thrift::protocol::TProtocolException& e) {
    // The limits are the buffer's size, so a claim over them is one these bytes cannot meet.
    return e.getType() == apache::thrift::protocol::TProtocolException::SIZE_LIMIT
               ? Verdict::kShort
               : Verdict::kBad;
  } catch (const std::exception&) {
    return Verdict::kBad;
  }
}

// The skimmer walks messages itself; corrupted and cut messages must get libthrift's verdict:
// the same length when libthrift reads a whole message, and no "complete" when it does not.
TEST_P(MessageSkimmerEncodingTest, CorruptedMessagesGetLibthriftsVerdict) {
  std::mt19937 random(11);
  const WireProtocol protocol = ProtocolOf(GetParam());
  const std::string calls[] = {MutateRowsCall(GetParam(), 3, 4), ScanCall(GetParam())};
  int complete = 0, incomplete = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string bytes = calls[round % 2];
    for (int flips = 1 + random() % 3; flips > 0; --flips) {
      bytes[random() % bytes.size()] = static_cast<char>(random());
    }
    if (round % 3 == 0) bytes.resize(random() % bytes.size());
    size_t expected = 0;
    const Verdict verdict = LibthriftSkim(protocol, bytes, &expected);
    const SkimResult r = Skim(protocol, bytes);
    switch (verdict) {
      case Verdict::kComplete:
        ++complete;
        ASSERT_EQ(r.status, Status::kComplete) << "round " << round << ": " << r.error;
        ASSERT_EQ(r.bytes, expected) << "round " << round;
        break;
      case Verdict::kShort:
        ++incomplete;
        // A bad element type is refused at its container's header, before the elements arrive.
        ASSERT_NE(r.status, Status::kComplete) << "round " << round;
        break;
      case Verdict::kBad:
        ++incomplete;
        // A container asks for its elements' minimum size before walking them, so bad bytes
        // among them may first get "need more"; never "complete".
        ASSERT_TRUE(r.status == Status::kMalformed || r.status == Status::kTooLarge ||
                    (r.status == Status::kNeedMore && r.bytes > bytes.size()))
            << "round " << round << ": status " << static_cast<int>(r.status);
        break;
    }
  }
  // Both kinds of verdict were exercised.
  EXPECT_GT(complete, 100);
  EXPECT_GT(incomplete, 100);
}

INSTANTIATE_TEST_SUITE_P(Encodings, MessageSkimmerEncodingTest,
                         ::testing::Values(Encoding::kStrictBinary, Encoding::kNonStrictBinary,
                                           Encoding::kCompact),
                         [](const ::testing::TestParamInfo<Encoding>& info) {
                           switch (info.param) {
                             case Encoding::kStrictBinary: return std::string("StrictBinary");
                             case Encoding::kNonStrictBinary: return std::string("NonStrictBinary");
                             case Encoding::kCompact: return std::string("Compact");
                           }
                           return std::string();
                         });

TEST(MessageSkimmerTest, NonStrictBinaryReallyHasNoVersionHeader) {
  std::string call = MutateRowsCall(Encoding::kNonStrictBinary, 1, 1);
  // Old clients start with the method name's length, not 0x80 0x01.
  ASSERT_EQ(call.substr(0, 4), std::string("\x00\x00\x00\x0a", 4));
  EXPECT_EQ(Skim(WireProtocol::kBinary, call).status, Status::kComplete);
}

TEST(MessageSkimmerTest, EmptyBufferNeedsMore) {
  EXPECT_EQ(Skim(WireProtocol::kBinary, "").status, Status::kNeedMore);
  EXPECT_EQ(Skim(WireProtocol::kCompact, "").status, Status::kNeedMore);
}

TEST(MessageSkimmerTest, BadBinaryVersionIsMalformed) {
  std::string call = MutateRowsCall(Encoding::kStrictBinary, 1, 1);
  call[1] = 0x02;
  SkimResult r = Skim(WireProtocol::kBinary, call);
  EXPECT_EQ(r.status, Status::kMalformed);
  EXPECT_FALSE(r.error.empty());
}

TEST(MessageSkimmerTest, UnknownFieldTypeIsMalformed) {
  // Strict header, method "f", seqid 0, then a field of type 99.
  std::string call("\x80\x01\x00\x01\x00\x00\x00\x01" "f" "\x00\x00\x00\x00" "\x63\x00\x01", 16);
  EXPECT_EQ(Skim(WireProtocol::kBinary, call).status, Status::kMalformed);
}

// Found by the hostile-input corpus under UndefinedBehaviorSanitizer: the element type of a
// container came straight from the input into libthrift's TType enum.
TEST(MessageSkimmerTest, ContainerWithUnknownElementTypeIsMalformed) {
  // Field 1 of type LIST whose elements claim type 99; then a MAP with key type 99.
  std::string list("\x80\x01\x00\x01\x00\x00\x00\x01" "f" "\x00\x00\x00\x00"
                   "\x0f\x00\x01\x63\x00\x00\x00\x02", 21);
  EXPECT_EQ(Skim(WireProtocol::kBinary, list).status, Status::kMalformed);
  std::string map("\x80\x01\x00\x01\x00\x00\x00\x01" "f" "\x00\x00\x00\x00"
                  "\x0d\x00\x01\x63\x0b\x00\x00\x00\x02", 22);
  EXPECT_EQ(Skim(WireProtocol::kBinary, map).status, Status::kMalformed);
}

TEST(MessageSkimmerTest, NegativeStringSizeIsMalformed) {
  // Field 1 of type STRING with length -5.
  std::string call("\x80\x01\x00\x01\x00\x00\x00\x01" "f" "\x00\x00\x00\x00"
                   "\x0b\x00\x01\xff\xff\xff\xfb", 20);
  EXPECT_EQ(Skim(WireProtocol::kBinary, call).status, Status::kMalformed);
}

TEST(MessageSkimmerTest, CompactWrongProtocolIdIsMalformed) {
  std::string call = MutateRowsCall(Encoding::kCompact, 1, 1);
  EXPECT_EQ(Skim(WireProtocol::kBinary, call).status, Status::kMalformed);
  std::string binary = MutateRowsCall(Encoding::kStrictBinary, 1, 1);
  EXPECT_EQ(Skim(WireProtocol::kCompact, binary).status, Status::kMalformed);
}

TEST(MessageSkimmerTest, NestingBeyondRecursionLimitIsMalformed) {
  std::string call("\x80\x01\x00\x01\x00\x00\x00\x01" "f" "\x00\x00\x00\x00", 13);
  for (int i = 0; i < 100; ++i) call += std::string("\x0c\x00\x01", 3);  // struct field 1
  for (int i = 0; i <= 100; ++i) call += std::string("\x00", 1);         // stops
  EXPECT_EQ(Skim(WireProtocol::kBinary, call).status, Status::kMalformed);
}

TEST(MessageSkimmerTest, NestingBeyondTheThriftDepthLimitIsMalformed) {
  Limits limits;
  limits.thrift_depth = 8;
  admin::ScopedLimits scoped(limits);
  auto nested = [](int levels) {
    std::string call("\x80\x01\x00\x01\x00\x00\x00\x01" "f" "\x00\x00\x00\x00", 13);
    for (int i = 0; i < levels; ++i) call += std::string("\x0c\x00\x01", 3);  // struct field 1
    for (int i = 0; i <= levels; ++i) call += std::string("\x00", 1);         // stops
    return call;
  };
  EXPECT_EQ(Skim(WireProtocol::kBinary, nested(6)).status, Status::kComplete);
  EXPECT_EQ(Skim(WireProtocol::kBinary, nested(10)).status, Status::kMalformed);
}

TEST(MessageSkimmerTest, StringClaimingMoreThanTheLimitIsTooLarge) {
  // Field 1 of type STRING claiming 2 GB - 1, with only a few bytes present.
  std::string call("\x80\x01\x00\x01\x00\x00\x00\x01" "f" "\x00\x00\x00\x00"
                   "\x0b\x00\x01\x7f\xff\xff\xff" "abc", 23);
  SkimResult r = Skim(WireProtocol::kBinary, call, 1 << 20);
  EXPECT_EQ(r.status, Status::kTooLarge);
  EXPECT_GT(r.bytes, size_t{1} << 20);
  // Compact: field 1 STRING (0x18), varint length 0x7fffffff.
  std::string compact("\x82\x21\x00\x01" "f" "\x18\xff\xff\xff\xff\x07" "abc", 14);
  EXPECT_EQ(Skim(WireProtocol::kCompact, compact, 1 << 20).status, Status::kTooLarge);
}

TEST(MessageSkimmerTest, HttpRequestOnBinaryPortIsRefused) {
  // "GET " read as a non-strict name length is ~1.2 GB.
  SkimResult r = Skim(WireProtocol::kBinary, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.status, Status::kTooLarge);
}

TEST(MessageSkimmerTest, ListClaimingMoreElementsThanTheLimitAllowsIsTooLarge) {
  // Field 1 of type LIST<I64> with 2^30 elements.
  std::string call("\x80\x01\x00\x01\x00\x00\x00\x01" "f" "\x00\x00\x00\x00"
                   "\x0f\x00\x01\x0a\x40\x00\x00\x00", 21);
  EXPECT_EQ(Skim(WireProtocol::kBinary, call, 1 << 20).status, Status::kTooLarge);
}

}  // namespace
}  // namespace hbemu::server
