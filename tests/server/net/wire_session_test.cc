#include "server/net/wire_session.h"

#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <thrift/TApplicationException.h>
#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "Hbase.h"

namespace hbemu::server {
namespace {

using apache::thrift::TApplicationException;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::transport::TMemoryBuffer;

// getRow answers with the table name as the value of cf:table; table "boom" throws.
class EchoHandler : public thrift::HbaseNull {
 public:
  void getRow(std::vector<thrift::TRowResult>& result, const thrift::Text& table,
              const thrift::Text& row, const std::map<thrift::Text, thrift::Text>&) override {
    if (table == "boom") throw std::runtime_error("undeclared");
    thrift::TRowResult out;
    out.row = row;
    thrift::TCell cell;
    cell.value = table;
    out.__set_columns({{"cf:table", cell}});
    result.push_back(out);
  }
};

std::string GetRowCall(const std::string& table, const std::string& row, bool compact = false) {
  auto buffer = std::make_shared<TMemoryBuffer>();
  std::shared_ptr<apache::thrift::protocol::TProtocol> protocol;
  if (compact) {
    protocol = std::make_shared<TCompactProtocol>(buffer);
  } else {
    protocol = std::make_shared<TBinaryProtocol>(buffer);
  }
  thrift::HbaseClient(protocol).send_getRow(table, row, {});
  return buffer->getBufferAsString();
}

std::string Framed(const std::string& message) {
  const uint32_t n = static_cast<uint32_t>(message.size());
  return std::string{static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                     static_cast<char>(n >> 8), static_cast<char>(n)} +
         message;
}

std::string Post(const std::string& body, const std::string& extra_headers = "") {
  return "POST /hbase HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-thrift\r\n" +
         extra_headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// The table echoed by a getRow reply, or the exception's text.
std::string ReadGetRowReply(const std::string& reply, bool compact = false) {
  auto buffer = std::make_shared<TMemoryBuffer>(
      reinterpret_cast<uint8_t*>(const_cast<char*>(reply.data())),
      static_cast<uint32_t>(reply.size()));
  std::shared_ptr<apache::thrift::protocol::TProtocol> protocol;
  if (compact) {
    protocol = std::make_shared<TCompactProtocol>(buffer);
  } else {
    protocol = std::make_shared<TBinaryProtocol>(buffer);
  }
  thrift::HbaseClient client(protocol);
  std::vector<thrift::TRowResult> result;
  try {
    client.recv_getRow(result);
  } catch (const TApplicationException& e) {
    return std::string("exception: ") + e.what();
  }
  if (result.size() != 1) return "rows: " + std::to_string(result.size());
  return result[0].columns["cf:table"].value;
}

// Drives a session the way the network layer does, with the bytes a test hands it.
class SessionDriver {
 public:
  explicit SessionDriver(WireForcing forcing = {}, size_t max_message_bytes = 1 << 20)
      : processor_(std::make_shared<thrift::HbaseProcessor>(std::make_shared<EchoHandler>())) {
    WireSessionConfig config;
    config.forcing = forcing;
    config.max_message_bytes = max_message_bytes;
    session_ = std::make_unique<WireSession>(
        config, processor_.get(), std::make_shared<apache::thrift::TConfiguration>(), "test");
  }

  // Delivers `bytes` (in one read), then runs the session until it wants more or closes.
  // Returns everything it sent.
  std::string Send(const std::string& bytes) {
    size_t at = 0;
    std::string sent;
    for (;;) {
      WireSession::Step step = session_->Next();
      if (step.action == WireSession::Step::Action::kClose) {
        closed_ = true;
        reason_ = step.reason;
        return sent;
      }
      if (step.action == WireSession::Step::Action::kWrite) {
        for (const auto& span : step.write) {
          sent.append(reinterpret_cast<const char*>(span.data), span.size);
        }
        session_->Written();
        continue;
      }
      if (at == bytes.size()) return sent;
      size_t room = 0;
      uint8_t* into = session_->ReadSpace(&room);
      const size_t n = std::min(room, bytes.size() - at);
      std::memcpy(into, bytes.data() + at, n);
      session_->Received(n);
      at += n;
    }
  }

  bool closed() const { return closed_; }
  const std::string& reason() const { return reason_; }
  const WireSession& session() const { return *session_; }

 private:
  std::shared_ptr<thrift::HbaseProcessor> processor_;
  std::unique_ptr<WireSession> session_;
  bool closed_ = false;
  std::string reason_;
};

// Splits one HTTP response off the front of `*stream`: returns its status, sets *body.
int TakeHttpResponse(std::string* stream, std::string* body, std::string* headers = nullptr) {
  const size_t end = stream->find("\r\n\r\n");
  if (end == std::string::npos) return -1;
  std::string head = stream->substr(0, end + 4);
  const int status = std::stoi(head.substr(9, 3));
  size_t length = 0;
  const size_t cl = head.find("Content-Length: ");
  if (cl != std::string::npos) length = std::stoul(head.substr(cl + 16));
  *body = stream->substr(end + 4, length);
  stream->erase(0, end + 4 + length);
  if (headers) *headers = head;
  return status;
}

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
}  // namespace hbemu::server
