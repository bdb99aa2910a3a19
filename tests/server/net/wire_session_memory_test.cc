#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "server/net/wire_session.h"
#include "tests/server/net/wire_session_testing.h"

// What a session holds in memory: claims are ceilings, decoding refuses claims that cannot fit,
// and idle sessions give back what they grew.
namespace hbemu::server::wire_session_testing {
namespace {

constexpr size_t kLimit = 100u << 20;  // the default message limit
constexpr size_t kNearLimit = (99u << 20) + 1;

std::string Be32(uint32_t v) {
  return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                     static_cast<char>(v >> 8), static_cast<char>(v)};
}

std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

// The start of a call of `method`, up to its first field.
std::string CallHeader(bool compact, const std::string& method) {
  if (compact) return std::string("\x82\x21\x01", 3) + Varint(method.size()) + method;
  return Be32(0x80010001) + Be32(static_cast<uint32_t>(method.size())) + method + Be32(1);
}

// Field `id` (the previous field's id + 1 in compact) of a string claiming `length` bytes.
std::string StringField(bool compact, int16_t id, uint32_t length) {
  if (compact) return std::string(1, static_cast<char>(0x18)) + Varint(length);
  return std::string{11, 0, static_cast<char>(id)} + Be32(length);
}

std::string String(bool compact, int16_t id, const std::string& value) {
  return StringField(compact, id, static_cast<uint32_t>(value.size())) + value;
}

// Field `id` (next in compact) of a list of `count` elements of `type` (TType numbers).
std::string ListField(bool compact, int16_t id, int type, uint32_t count) {
  if (compact) {
    const int code = type == 11 ? 8 : 12;  // binary or struct
    return std::string(1, static_cast<char>(0x19)) + static_cast<char>(0xf0 | code) +
           Varint(count);
  }
  return std::string{15, 0, static_cast<char>(id), static_cast<char>(type)} + Be32(count);
}

// Field `id` (next in compact) of a map<string, string> of `count` entries.
std::string MapField(bool compact, int16_t id, uint32_t count) {
  if (compact) return std::string(1, static_cast<char>(0x1b)) + Varint(count) + "\x88";
  return std::string{13, 0, static_cast<char>(id), 11, 11} + Be32(count);
}

struct Claim {
  const char* name;
  std::string bytes;
};

// A few bytes each, claiming close to the 100 MiB limit; every one is within it, so the server
// can only wait for the rest.
std::vector<Claim> HugeClaims(bool compact) {
  return {
      {"frame", Be32(kNearLimit) + (compact ? std::string("\x82\x21", 2)
                                            : std::string("\x80\x01", 2))},
      {"string", CallHeader(compact, "getRow") + StringField(compact, 1, kNearLimit)},
      // 25M strings of at least 4 bytes in binary; 100M of at least 1 byte in compact.
      {"list", CallHeader(compact, "getRows") + String(compact, 1, "t") +
                   ListField(compact, 2, 11, compact ? 100'000'000 : 25'000'000)},
  };
}

TEST(WireSessionMemoryTest, HugeClaimsHoldOnlyTheBytesThatArrived) {
  for (bool compact : {false, true}) {
    for (const Claim& claim : HugeClaims(compact)) {
      SessionDriver driver({}, kLimit);
      driver.Send(claim.bytes);
      const std::string what = std::string(compact ? "compact " : "binary ") + claim.name;
      EXPECT_FALSE(driver.closed()) << what << ": " << driver.reason();
      EXPECT_LE(driver.session().held_bytes(), 64u << 10) << what;
      // What does arrive is kept, in a buffer that at most doubles per read (zero bytes: frame
      // or string content, or empty strings as list elements).
      driver.Send(std::string(1 << 20, '\0'));
      EXPECT_FALSE(driver.closed()) << what << ": " << driver.reason();
      EXPECT_LE(driver.session().held_bytes(), (2u << 20) + (64u << 10)) << what;
    }
  }
}

TEST(WireSessionMemoryTest, LargeMessageArrivingInPiecesIsAnsweredWithABufferThatFollowsIt) {
  const std::string table(3 << 20, 't');
  const std::string call = GetRowCall(table, "r");
  for (bool framed : {false, true}) {
    const std::string sent = framed ? Framed(call) : call;
    SessionDriver driver({}, kLimit);
    std::string reply;
    for (size_t at = 0; at < sent.size(); at += 64 << 10) {
      reply += driver.Send(sent.substr(at, 64 << 10));
      ASSERT_FALSE(driver.closed()) << driver.reason();
      if (reply.empty()) {
        EXPECT_LE(driver.session().held_bytes(), 2 * (at + (64 << 10)) + (64 << 10)) << at;
      }
    }
    EXPECT_EQ(ReadGetRowReply(framed ? reply.substr(4) : reply), table);
  }
}

// A claim within the message's size (so libthrift's own limit lets it through) but past the
// bytes left after it: libthrift would allocate it first and then fail for want of data.
TEST(WireSessionMemoryTest, FramedClaimsLargerThanTheBytesLeftAreRefusedBeforeAllocating) {
  const std::string padding(4000, 'p');  // the first field, so the message is long enough
  for (bool compact : {false, true}) {
    const std::vector<Claim> claims = {
        {"string", CallHeader(compact, "getRow") + String(compact, 1, padding) +
                       StringField(compact, 2, 3000) + "short"},
        {"list<string>", CallHeader(compact, "getRows") + String(compact, 1, padding) +
                             ListField(compact, 2, 11, 3000) + "short"},
        {"list<struct>", CallHeader(compact, "mutateRow") + String(compact, 1, padding) +
                             String(compact, 2, "r") + ListField(compact, 3, 12, 3000) +
                             std::string(20, '\0')},
        {"map", CallHeader(compact, "getRow") + String(compact, 1, padding) +
                    String(compact, 2, "r") + MapField(compact, 3, 3000) + "short"},
    };
    for (const Claim& claim : claims) {
      const std::string what = std::string(compact ? "compact " : "binary ") + claim.name;
      SessionDriver driver({}, kLimit);
      EXPECT_EQ(driver.Send(Framed(claim.bytes)), "") << what;
      EXPECT_TRUE(driver.closed()) << what;
      EXPECT_NE(driver.reason().find("Exceeded size limit"), std::string::npos)
          << what << ": " << driver.reason();
      EXPECT_NE(driver.reason().find("bytes of the message are left"), std::string::npos)
          << what << ": " << driver.reason();
    }
  }
}

TEST(WireSessionMemoryTest, ClaimLargerThanTheBytesLeftOverHttpGets500) {
  const std::string body = CallHeader(false, "getRows") +
                           String(false, 1, std::string(4000, 'p')) +
                           ListField(false, 2, 11, 3000) + "short";
  SessionDriver driver;
  std::string stream = driver.Send(Post(body) + Post(GetRowCall("after", "r")));
  std::string answer;
  EXPECT_EQ(TakeHttpResponse(&stream, &answer), 500);
  EXPECT_NE(answer.find("Exceeded size limit"), std::string::npos) << answer;
  ASSERT_EQ(TakeHttpResponse(&stream, &answer), 200);
  EXPECT_EQ(ReadGetRowReply(answer), "after");
}

// Each element fits in the bytes left (an empty struct is one stop byte), but decodes into a
// whole generated struct: a 20 MB getMultiple of empty TGets took 5.5 GB before the first
// answer. The claim is charged at its in-memory size and refused before the vector is built.
TEST(WireSessionMemoryTest, ListOfEmptyStructsIsRefusedByWhatItWouldDecodeInto) {
  constexpr uint32_t kStructs = 4'000'000;  // 4 MB of stop bytes, about 1.3 GB decoded
  for (bool compact : {false, true}) {
    const std::string call = CallHeader(compact, "mutateRows") + String(compact, 1, "t") +
                             ListField(compact, 2, 12, kStructs) + std::string(kStructs, '\0') +
                             std::string(2, '\0');
    SessionDriver driver({}, kLimit);
    EXPECT_EQ(driver.Send(Framed(call)), "");
    EXPECT_TRUE(driver.closed());
    EXPECT_NE(driver.reason().find("bytes of memory"), std::string::npos) << driver.reason();
    EXPECT_NE(driver.reason().find("decoded_bytes"), std::string::npos) << driver.reason();
  }
}

// A big message of real data decodes into a few times its size, well within the budget.
TEST(WireSessionMemoryTest, ManyRealStructsWithinTheBudgetAreDecoded) {
  std::string rows;
  constexpr uint32_t kRows = 20000;
  for (uint32_t i = 0; i < kRows; ++i) {
    rows += String(false, 1, "row-" + std::to_string(i)) + std::string(1, '\0');
  }
  const std::string call = CallHeader(false, "mutateRows") + String(false, 1, "t") +
                           ListField(false, 2, 12, kRows) + rows + std::string(2, '\0');
  SessionDriver driver({}, kLimit);
  driver.Send(Framed(call));
  EXPECT_FALSE(driver.closed()) << driver.reason();
}

// --- idle buffers ---------------------------------------------------------------------------------

WireSessionConfig IdleConfig(size_t idle_bytes, size_t retained_bytes) {
  WireSessionConfig config = SessionDriver::Config({}, kLimit);
  config.idle_buffer_bytes = idle_bytes;
  config.retained_buffer_bytes = retained_bytes;
  return config;
}

TEST(WireSessionIdleTest, BuffersPastTheIdleLimitAreFreedWhenTheConnectionGoesIdle) {
  for (bool compact : {false, true}) {
    SessionDriver driver(IdleConfig(64 << 10, 64 << 20));
    const std::string table(1 << 20, 'b');
    EXPECT_EQ(ReadGetRowReply(driver.Send(GetRowCall(table, "r", compact)), compact), table);
    EXPECT_GT(driver.session().held_bytes(), 2u << 20);  // request and reply
    const int64_t before = WireSession::IdleRetainedBytes();
    driver.session().Idle();
    EXPECT_EQ(driver.session().held_bytes(), WireSession::BaselineBytes());
    EXPECT_EQ(WireSession::IdleRetainedBytes(), before);
    // And it still serves.
    EXPECT_EQ(ReadGetRowReply(driver.Send(GetRowCall("t", "r", compact)), compact), "t");
  }
}

TEST(WireSessionIdleTest, BuffersWithinTheIdleLimitAreKeptAndCountedUntilBytesArrive) {
  SessionDriver driver(IdleConfig(1 << 20, 64 << 20));
  const std::string table(100 << 10, 'k');
  EXPECT_EQ(ReadGetRowReply(driver.Send(GetRowCall(table, "r"))), table);
  const size_t held = driver.session().held_bytes();
  ASSERT_GT(held, WireSession::BaselineBytes());
  const int64_t before = WireSession::IdleRetainedBytes();
  driver.session().Idle();
  driver.session().Idle();  // counted once
  EXPECT_EQ(driver.session().held_bytes(), held);
  EXPECT_EQ(WireSession::IdleRetainedBytes() - before, static_cast<int64_t>(held));
  EXPECT_EQ(ReadGetRowReply(driver.Send(GetRowCall("t", "r"))), "t");
  EXPECT_EQ(WireSession::IdleRetainedBytes(), before);
}

TEST(WireSessionIdleTest, IdleConnectionsTogetherKeepNoMoreThanTheRetainedLimit) {
  const std::string table(100 << 10, 'k');
  const int64_t before = WireSession::IdleRetainedBytes();
  {
    SessionDriver probe(IdleConfig(1 << 20, 64 << 20));
    probe.Send(GetRowCall(table, "r"));
    const size_t held = probe.session().held_bytes();
    // Room for one such connection above what is kept already.
    const size_t retained = static_cast<size_t>(before) + held + held / 2;
    SessionDriver first(IdleConfig(1 << 20, retained));
    SessionDriver second(IdleConfig(1 << 20, retained));
    first.Send(GetRowCall(table, "r"));
    second.Send(GetRowCall(table, "r"));
    first.session().Idle();
    second.session().Idle();
    EXPECT_EQ(first.session().held_bytes(), held);
    EXPECT_EQ(second.session().held_bytes(), WireSession::BaselineBytes());
    EXPECT_EQ(WireSession::IdleRetainedBytes() - before, static_cast<int64_t>(held));
  }
  EXPECT_EQ(WireSession::IdleRetainedBytes(), before);  // a closed connection keeps nothing
}

TEST(WireSessionIdleTest, SessionInTheMiddleOfAMessageKeepsItsBytes) {
  SessionDriver driver(IdleConfig(0, 0));
  const std::string call = GetRowCall(std::string(200 << 10, 'm'), "r");
  driver.Send(call.substr(0, call.size() / 2));
  const size_t held = driver.session().held_bytes();
  driver.session().Idle();
  EXPECT_EQ(driver.session().held_bytes(), held);
  EXPECT_EQ(ReadGetRowReply(driver.Send(call.substr(call.size() / 2))),
            std::string(200 << 10, 'm'));
}

}  // namespace
}  // namespace hbemu::server::wire_session_testing
