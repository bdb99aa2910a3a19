// The call log's decoder against messages a hostile or broken client sends: claims the message
// cannot hold, nesting without end, invalid type codes, and random and mutated bytes. It must
// hold a message to the wire's own bounds and never throw past its caller.

#include "server/control/call_decode.h"

#include <sys/resource.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "Hbase.h"
#include "THBaseService.h"

namespace hbemu::server::control {
namespace {

using apache::thrift::protocol::TMessageType;
using apache::thrift::transport::TMemoryBuffer;

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

// The process's peak resident size so far, in MiB.
int64_t PeakRssMib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

std::string BigEndian32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

std::string Varint(uint32_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  return out + static_cast<char>(v);
}

// A strict binary message's first four bytes, of message type `type`.
std::string BinaryHead(uint8_t type) {
  return std::string("\x80\x01\x00", 3) + static_cast<char>(type);
}

// A getRow call whose first argument, a string, claims `claimed` bytes and holds three.
std::string ClaimingString(WireProtocol protocol, uint32_t claimed) {
  if (protocol == WireProtocol::kBinary) {
    return BinaryHead(1) + BigEndian32(6) + "getRow" + BigEndian32(1) +
           std::string("\x0b\x00\x01", 3) + BigEndian32(claimed) + "abc";
  }
  return std::string("\x82\x21\x01\x06") + "getRow" + "\x18" + Varint(claimed) + "abc";
}

// A getMultiple call whose second argument, a list of structs, claims `claimed` elements.
std::string ClaimingList(WireProtocol protocol, uint32_t claimed) {
  if (protocol == WireProtocol::kBinary) {
    return BinaryHead(1) + BigEndian32(11) + "getMultiple" + BigEndian32(1) +
           std::string("\x0f\x00\x02\x0c", 4) + BigEndian32(claimed) + std::string(4, '\0');
  }
  return std::string("\x82\x21\x01\x0b") + "getMultiple" + "\x29\xfc" + Varint(claimed) +
         std::string(4, '\0');
}

TEST(CallDecodeHostileTest, AStringClaimingGigabytesIsRefusedWithoutAllocatingThem) {
  for (WireProtocol protocol : {WireProtocol::kBinary, WireProtocol::kCompact}) {
    const std::string message = ClaimingString(protocol, 1'500'000'000u);
    EXPECT_LT(message.size(), 32u);
    const int64_t before = PeakRssMib();
    const DecodedCall call = Decode("thrift1", message, protocol);
    EXPECT_FALSE(call.decoded);
    EXPECT_EQ(call.method, "getRow");
    // libthrift's own reader zero-filled 1.4 GB for this message.
    EXPECT_LT(PeakRssMib() - before, 64) << WireProtocolName(protocol);
  }
}

TEST(CallDecodeHostileTest, AListClaimingMillionsOfStructsIsRefusedWithoutBuildingThem) {
  for (WireProtocol protocol : {WireProtocol::kBinary, WireProtocol::kCompact}) {
    const int64_t before = PeakRssMib();
    EXPECT_FALSE(Decode("thrift2", ClaimingList(protocol, 500'000'000u), protocol).decoded);
    EXPECT_LT(PeakRssMib() - before, 64) << WireProtocolName(protocol);
  }
}

TEST(CallDecodeHostileTest, ClaimsTheMessageHoldsAreStillDecoded) {
  // The same shapes with honest lengths decode, so the refusals above are about the claims.
  const std::string binary = BinaryHead(1) + BigEndian32(6) + "getRow" + BigEndian32(1) +
                             std::string("\x0b\x00\x01", 3) + BigEndian32(3) + "abc" +
                             std::string(1, '\0');
  const DecodedCall call = Decode("thrift1", binary, WireProtocol::kBinary);
  EXPECT_TRUE(call.decoded);
  EXPECT_EQ(call.table, "abc");
}

TEST(CallDecodeHostileTest, InvalidTypeCodesAreRefusedNotLoaded) {
  // Binary field type bytes that name no TType (-1, 5, 7, 18, 127): refused as the wire refuses
  // them, before the byte becomes a TType.
  for (char code : {'\xff', '\x05', '\x07', '\x12', '\x7f'}) {
    const std::string message = BinaryHead(1) + BigEndian32(6) + "getRow" + BigEndian32(1) +
                                std::string(1, code) + std::string("\x00\x01", 2) +
                                std::string(8, '\0');
    EXPECT_FALSE(Decode("thrift1", message, WireProtocol::kBinary).decoded)
        << static_cast<int>(code);
    // The same in a list's element type.
    const std::string list = BinaryHead(1) + BigEndian32(7) + "getRows" + BigEndian32(1) +
                             std::string("\x0f\x00\x02", 3) + std::string(1, code) +
                             BigEndian32(2) + std::string(8, '\0');
    EXPECT_FALSE(Decode("thrift1", list, WireProtocol::kBinary).decoded)
        << static_cast<int>(code);
  }
  // A reply whose message type byte is no TMessageType.
  const std::string reply = BinaryHead(0x7f) + BigEndian32(6) + "getRow" + BigEndian32(1) +
                            std::string(1, '\0');
  EXPECT_NO_THROW(DecodeReply("thrift1", reinterpret_cast<const uint8_t*>(reply.data()),
                              reply.size(), WireProtocol::kBinary));
}

TEST(CallDecodeHostileTest, NestingWithoutEndIsRefusedWithoutTakingTheStack) {
  // getRow(table = struct { 1: struct { 1: struct ... } }) 100,000 deep.
  std::string message = BinaryHead(1) + BigEndian32(6) + "getRow" + BigEndian32(1);
  for (int i = 0; i < 100000; ++i) message += std::string("\x0c\x00\x01", 3);
  EXPECT_FALSE(Decode("thrift1", message, WireProtocol::kBinary).decoded);
  std::string compact = std::string("\x82\x21\x01\x06") + "getRow";
  compact += std::string(100000, '\x1c');
  EXPECT_FALSE(Decode("thrift1", compact, WireProtocol::kCompact).decoded);
}

// Valid calls and replies of both services, the starting points for mutation.
std::vector<std::pair<std::string, std::string>> Seeds(WireProtocol protocol) {
  std::vector<std::pair<std::string, std::string>> seeds;
  thrift::Hbase_getRowWithColumns_args get;
  get.tableName = "users";
  get.row = "r1";
  get.columns = {"f:a", "g"};
  get.attributes = {{"k", "v"}};
  seeds.emplace_back("thrift1", Message("getRowWithColumns", get, protocol));
  thrift::Hbase_scannerOpenWithScan_args scan;
  scan.tableName = "t";
  scan.scan.__set_startRow("a");
  scan.scan.__set_filterString("PrefixFilter('a')");
  scan.scan.__set_columns({"f", "g:h"});
  scan.scan.__set_caching(50);
  seeds.emplace_back("thrift1", Message("scannerOpenWithScan", scan, protocol));
  thrift::Hbase_mutateRows_args mutate;
  mutate.tableName = "t";
  for (int i = 0; i < 20; ++i) {
    thrift::BatchMutation batch;
    batch.row = "row" + std::to_string(i);
    thrift::Mutation m;
    m.column = "f:q";
    m.value = std::string(40, 'v');
    batch.mutations = {m};
    mutate.rowBatches.push_back(batch);
  }
  seeds.emplace_back("thrift1", Message("mutateRows", mutate, protocol));
  thrift2::THBaseService_getMultiple_args multi;
  multi.table = "ns:t";
  for (int i = 0; i < 5; ++i) {
    thrift2::TGet g;
    g.row = "k" + std::to_string(i);
    thrift2::TColumn column;
    column.family = "f";
    column.__set_qualifier("q");
    g.__set_columns({column});
    g.__set_timestamp(7);
    multi.tgets.push_back(g);
  }
  seeds.emplace_back("thrift2", Message("getMultiple", multi, protocol));
  thrift::Hbase_getRow_result reply;
  reply.io.message = "org.apache.hadoop.hbase.TableNotFoundException: t";
  reply.__isset.io = true;
  seeds.emplace_back("thrift1", Message("getRow", reply, protocol,
                                        apache::thrift::protocol::T_REPLY));
  return seeds;
}

std::string Mutate(const std::string& seed, std::mt19937& random) {
  std::string out = seed;
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n)(random); };
  switch (pick(4)) {
    case 0:  // overwrite a few bytes
      for (size_t k = pick(7) + 1; k > 0 && !out.empty(); --k) {
        out[pick(out.size() - 1)] = static_cast<char>(pick(255));
      }
      break;
    case 1:  // cut short
      out.resize(pick(out.size()));
      break;
    case 2:  // insert random bytes
      out.insert(pick(out.size()), std::string(pick(16) + 1, static_cast<char>(pick(255))));
      break;
    case 3:  // a large length or count where a small one was
      if (out.size() > 4) {
        const size_t at = pick(out.size() - 4);
        for (size_t k = 0; k < 4; ++k) out[at + k] = k == 0 ? '\x7f' : '\xff';
      }
      break;
    default: {  // random bytes with a valid head
      const std::string head = out.substr(0, std::min<size_t>(out.size(), pick(20)));
      out = head;
      for (size_t k = pick(200); k > 0; --k) out += static_cast<char>(pick(255));
    }
  }
  return out;
}

TEST(CallDecodeHostileTest, RandomAndMutatedMessagesNeverThrowAndStayBounded) {
  std::mt19937 random(32);
  const int64_t before = PeakRssMib();
  int decoded = 0;
  for (WireProtocol protocol : {WireProtocol::kBinary, WireProtocol::kCompact}) {
    const auto seeds = Seeds(protocol);
    for (const auto& [service, seed] : seeds) {
      ASSERT_TRUE(Decode(service, seed, protocol).decoded);
    }
    for (int i = 0; i < 3000; ++i) {
      const auto& [service, seed] = seeds[static_cast<size_t>(i) % seeds.size()];
      const std::string message = Mutate(seed, random);
      const auto* data = reinterpret_cast<const uint8_t*>(message.data());
      DecodedCall call;
      ASSERT_NO_THROW(call = DecodeCall(service, data, message.size(), protocol)) << i;
      decoded += call.decoded ? 1 : 0;
      ASSERT_NO_THROW(DecodeReply(service, data, message.size(), protocol)) << i;
    }
  }
  EXPECT_GT(decoded, 0);  // some mutations still decode: the walk went through them
#if !defined(__SANITIZE_ADDRESS__)
  // Under ASan the quarantine keeps freed blocks, so the peak follows what was allocated.
  EXPECT_LT(PeakRssMib() - before, 64);
#endif
}

}  // namespace
}  // namespace hbemu::server::control
