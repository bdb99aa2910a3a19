#include "server/net/wire_session.h"

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "tests/server/net/wire_session_testing.h"

namespace hbemu::server::wire_session_testing {
namespace {

TEST(WireSessionTest, AnswersEachTransportAndProtocolOnAnUnforcedSession) {
  struct Case {
    bool framed;
    bool compact;
  };
  for (Case c : {Case{false, false}, Case{true, false}, Case{false, true}, Case{true, true}}) {
    SessionDriver driver;
    std::string call = GetRowCall("t", "r", c.compact);
    std::string reply = driver.Send(c.framed ? Framed(call) : call);
    ASSERT_FALSE(driver.closed()) << driver.reason();
    ASSERT_TRUE(driver.session().format().has_value());
    if (c.framed) {
      ASSERT_GE(reply.size(), 4u);
      EXPECT_EQ(Framed(reply.substr(4)), reply);
      reply = reply.substr(4);
    }
    EXPECT_EQ(ReadGetRowReply(reply, c.compact), "t");
  }
}

// Found by the wire fuzzer: libthrift sizes a string from its length prefix before reading it,
// so a tiny frame claiming a 2 GB string made the server allocate 2 GB.
TEST(WireSessionTest, StringClaimingMoreThanItsMessageIsRefusedBeforeAllocating) {
  for (bool compact : {false, true}) {
    std::string call = GetRowCall("t", "r", compact);
    // Cut the message after the table name's length prefix, then claim a huge length there.
    const size_t at = call.find('t', compact ? 10 : 16) - (compact ? 1 : 4);
    std::string claim = compact ? std::string("\xff\xff\xff\xff\x07")
                                : std::string("\x7f\xff\xff\xf0", 4);
    std::string hostile = call.substr(0, at) + claim + "tail";
    SessionDriver driver({}, /*max_message_bytes=*/100u << 20);
    EXPECT_EQ(driver.Send(Framed(hostile)), "");
    EXPECT_TRUE(driver.closed());
    EXPECT_NE(driver.reason().find("size limit"), std::string::npos)
        << (compact ? "compact: " : "binary: ") << driver.reason();
  }
}

TEST(WireSessionTest, BinaryMessageTypeAboveSevenIsRefusedBeforeLibthriftReadsIt) {
  // libthrift would load the byte into its TMessageType enum (0..7): undefined behaviour.
  std::string strict = GetRowCall("t", "r");
  ASSERT_EQ(strict.substr(0, 4), std::string("\x80\x01\x00\x01", 4));
  strict[3] = '\x0f';
  // The old non-strict form: name length, name, type byte (signed: 0xf0 is -16).
  const std::string non_strict = std::string("\x00\x00\x00\x06getRow\xf0\x00\x00\x00\x01", 15) +
                                 strict.substr(4 + 4 + 6 + 4);
  for (const auto& [message, type] :
       {std::pair<std::string, std::string>{strict, "15"}, {non_strict, "-16"}}) {
    for (bool framed : {true, false}) {
      SessionDriver driver;
      EXPECT_EQ(driver.Send(framed ? Framed(message) : message), "");
      EXPECT_TRUE(driver.closed());
      EXPECT_NE(driver.reason().find("message type " + type + " is not a Thrift message type"),
                std::string::npos)
          << driver.reason();
    }
  }
  SessionDriver http;
  std::string stream = http.Send(Post(strict));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 500);
  EXPECT_NE(body.find("message type 15"), std::string::npos) << body;
}

TEST(WireSessionTest, BytesNoClientSendsCloseWithTheirHex) {
  SessionDriver driver;
  EXPECT_EQ(driver.Send("\xff\xfe garbage"), "");
  EXPECT_TRUE(driver.closed());
  EXPECT_NE(driver.reason().find("ff fe"), std::string::npos) << driver.reason();
}

TEST(WireSessionTest, InsistingOnFramedRefusesAnUnframedClientWithAHint) {
  WireForcing forcing;
  forcing.transport = WireTransport::kFramed;
  SessionDriver driver(forcing);
  EXPECT_EQ(driver.Send(GetRowCall("t", "r")), "");
  EXPECT_TRUE(driver.closed());
  EXPECT_NE(driver.reason().find("looks unframed"), std::string::npos) << driver.reason();
}

TEST(WireSessionTest, InsistingOnBinaryRefusesACompactClientWithAHint) {
  WireForcing forcing;
  forcing.protocol = WireProtocol::kBinary;
  SessionDriver driver(forcing);
  EXPECT_EQ(driver.Send(GetRowCall("t", "r", /*compact=*/true)), "");
  EXPECT_TRUE(driver.closed());
  EXPECT_NE(driver.reason().find("TCompactProtocol"), std::string::npos) << driver.reason();
}

TEST(WireSessionTest, HttpPostBodyIsOneCallAndTheReplyIsTheResponseBody) {
  SessionDriver driver;
  std::string stream = driver.Send(Post(GetRowCall("viahttp", "r")));
  ASSERT_FALSE(driver.closed()) << driver.reason();
  std::string body, headers;
  ASSERT_EQ(TakeHttpResponse(&stream, &body, &headers), 200) << stream;
  EXPECT_NE(headers.find("Content-Type: application/x-thrift"), std::string::npos) << headers;
  EXPECT_NE(headers.find("Connection: keep-alive"), std::string::npos) << headers;
  EXPECT_EQ(ReadGetRowReply(body), "viahttp");
  EXPECT_EQ(stream, "");
}

TEST(WireSessionTest, HttpKeepAliveServesPipelinedRequestsInOrder) {
  SessionDriver driver;
  std::string stream = driver.Send(Post(GetRowCall("one", "r")) + Post(GetRowCall("two", "r")));
  std::string body;
  ASSERT_EQ(TakeHttpResponse(&stream, &body), 200);
  EXPECT_EQ(ReadGetRowReply(body), "one");
  ASSERT_EQ(TakeHttpResponse(&stream, &body), 200);
  EXPECT_EQ(ReadGetRowReply(body), "two");
  EXPECT_FALSE(driver.closed());
}

TEST(WireSessionTest, HttpCompactBodyIsDetectedPerRequest) {
  SessionDriver driver;
  std::string stream = driver.Send(Post(GetRowCall("compact", "r", /*compact=*/true)));
  std::string body;
  ASSERT_EQ(TakeHttpResponse(&stream, &body), 200);
  EXPECT_EQ(ReadGetRowReply(body, /*compact=*/true), "compact");
}

TEST(WireSessionTest, HttpChunkedBodyIsReassembled) {
  const std::string call = GetRowCall("chunked", "r");
  const size_t half = call.size() / 2;
  auto hex = [](size_t n) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%zx", n);
    return std::string(buf);
  };
  std::string request = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
                        hex(half) + "\r\n" + call.substr(0, half) + "\r\n" +
                        hex(call.size() - half) + "\r\n" + call.substr(half) + "\r\n0\r\n\r\n";
  SessionDriver driver;
  std::string stream = driver.Send(request);
  std::string body;
  ASSERT_EQ(TakeHttpResponse(&stream, &body), 200) << stream;
  EXPECT_EQ(ReadGetRowReply(body), "chunked");
}

TEST(WireSessionTest, HttpExpectContinueGetsAnInterimResponseBeforeTheBody) {
  const std::string call = GetRowCall("continued", "r");
  const std::string request = Post(call, "Expect: 100-continue\r\n");
  const std::string header = request.substr(0, request.size() - call.size());
  SessionDriver driver;
  EXPECT_EQ(driver.Send(header), "HTTP/1.1 100 Continue\r\n\r\n");
  std::string stream = driver.Send(call);
  std::string body;
  ASSERT_EQ(TakeHttpResponse(&stream, &body), 200) << stream;
  EXPECT_EQ(ReadGetRowReply(body), "continued");
}

TEST(WireSessionTest, HttpGetIsRefusedWith405) {
  SessionDriver driver;
  std::string stream = driver.Send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string body, headers;
  EXPECT_EQ(TakeHttpResponse(&stream, &body, &headers), 405);
  EXPECT_NE(headers.find("Allow: POST"), std::string::npos) << headers;
  EXPECT_NE(body.find("POST"), std::string::npos) << body;
  EXPECT_TRUE(driver.closed());
}

TEST(WireSessionTest, HttpBodyOverTheLimitIsRefusedWith413) {
  SessionDriver driver({}, /*max_message_bytes=*/1000);
  std::string stream = driver.Send(Post(std::string(5000, 'x')));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 413);
  EXPECT_TRUE(driver.closed());
}

TEST(WireSessionTest, HttpBodyThatIsNotThriftGets500AndTheConnectionStaysUsable) {
  SessionDriver driver;
  std::string stream = driver.Send(Post("not thrift") + Post(GetRowCall("after", "r")));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 500);
  ASSERT_EQ(TakeHttpResponse(&stream, &body), 200);
  EXPECT_EQ(ReadGetRowReply(body), "after");
  EXPECT_FALSE(driver.closed());
}

TEST(WireSessionTest, HttpEmptyBodyGets400) {
  SessionDriver driver;
  std::string stream = driver.Send(Post(""));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 400);
  EXPECT_FALSE(driver.closed());
}

TEST(WireSessionTest, HttpConnectionCloseIsHonoured) {
  SessionDriver driver;
  std::string stream = driver.Send(Post(GetRowCall("last", "r"), "Connection: close\r\n"));
  std::string body, headers;
  ASSERT_EQ(TakeHttpResponse(&stream, &body, &headers), 200);
  EXPECT_NE(headers.find("Connection: close"), std::string::npos) << headers;
  EXPECT_EQ(ReadGetRowReply(body), "last");
  EXPECT_TRUE(driver.closed());
  EXPECT_EQ(driver.reason(), "");
}

TEST(WireSessionTest, UndeclaredExceptionOverHttpBecomesInternalError) {
  SessionDriver driver;
  std::string stream = driver.Send(Post(GetRowCall("boom", "r")));
  std::string body;
  ASSERT_EQ(TakeHttpResponse(&stream, &body), 200);
  EXPECT_EQ(ReadGetRowReply(body), "exception: Internal error processing getRow");
}

TEST(WireSessionTest, InsistingOnHttpRefusesAPlainThriftClient) {
  WireForcing forcing;
  forcing.transport = WireTransport::kHttp;
  forcing.protocol = WireProtocol::kBinary;
  SessionDriver driver(forcing);
  std::string stream = driver.Send(GetRowCall("t", "r"));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 400);
  EXPECT_TRUE(driver.closed());
}

}  // namespace
}  // namespace hbemu::server::wire_session_testing
