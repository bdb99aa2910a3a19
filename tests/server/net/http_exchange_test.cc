#include "server/net/http_exchange.h"

#include <string>

#include <gtest/gtest.h>

#include "server/limits.h"
#include "tests/server/admin/scoped_limits.h"
#include "tests/server/net/wire_session_testing.h"

namespace hbemu::server::wire_session_testing {
namespace {

std::string RawPost(const std::string& headers, const std::string& body) {
  return "POST /hbase HTTP/1.1\r\nHost: localhost\r\n" + headers +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// A page in a browser on this machine can POST to 127.0.0.1:9090 without a preflight when the
// Content-Type is a form's; Thrift over HTTP would have run the call (a table disabled,
// deleted, a row written) and answered 200.
TEST(HttpExchangeTest, AFormContentTypeIsRefusedBeforeTheCallRuns) {
  for (const char* type : {"text/plain", "text/plain; charset=UTF-8",
                           "application/x-www-form-urlencoded", "Multipart/Form-Data; boundary=b"}) {
    SessionDriver driver;
    std::string stream =
        driver.Send(RawPost("Content-Type: " + std::string(type) + "\r\n", GetRowCall("t", "r")));
    std::string body;
    EXPECT_EQ(TakeHttpResponse(&stream, &body), 415) << type;
    EXPECT_NE(body.find("application/x-thrift"), std::string::npos) << body;
    EXPECT_TRUE(driver.closed());
  }
}

// Fetch sends Origin on every POST, same-origin ones included, so this also refuses a page that
// reached the port through DNS rebinding with the right Content-Type.
TEST(HttpExchangeTest, ARequestWithAnOriginIsRefusedBeforeTheCallRuns) {
  SessionDriver driver;
  std::string stream = driver.Send(Post(GetRowCall("t", "r"), "Origin: http://evil.example\r\n"));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 403);
  EXPECT_NE(body.find("Origin"), std::string::npos) << body;
  EXPECT_TRUE(driver.closed());
}

TEST(HttpExchangeTest, ThriftClientsContentTypesAndNoneAreServed) {
  for (const std::string headers : {std::string("Content-Type: application/x-thrift\r\n"),
                                    std::string("Content-Type: application/vnd.apache.thrift.binary\r\n"),
                                    std::string()}) {
    SessionDriver driver;
    std::string stream = driver.Send(RawPost(headers, GetRowCall("served", "r")));
    std::string body;
    ASSERT_EQ(TakeHttpResponse(&stream, &body), 200) << headers << stream;
    EXPECT_EQ(ReadGetRowReply(body), "served");
  }
}

// Beast keeps no part of a chunk-size line until it ends, so its bytes stayed in the
// connection's buffer: an extension that never ends grew it without bound (1.5 GB measured).
TEST(HttpExchangeTest, AChunkExtensionThatNeverEndsIsRefused) {
  SessionDriver driver;
  std::string stream = driver.Send(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-thrift\r\n"
      "Transfer-Encoding: chunked\r\n\r\n10;ext=");
  for (int i = 0; i < 40 && !driver.closed(); ++i) stream += driver.Send(std::string(4096, 'a'));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 431) << stream.substr(0, 200);
  EXPECT_TRUE(driver.closed());
}

TEST(HttpExchangeTest, HeadersPastTheHttpHeaderLimitAreRefused) {
  Limits limits;
  limits.http_header_bytes = 1024;
  admin::ScopedLimits scoped(limits);
  SessionDriver fits;
  std::string stream = fits.Send(Post(GetRowCall("t", "r"), "X-Pad: " + std::string(600, 'p') + "\r\n"));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 200);
  SessionDriver over;
  stream = over.Send(Post(GetRowCall("t", "r"), "X-Pad: " + std::string(2000, 'p') + "\r\n"));
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 431) << stream.substr(0, 200);
  EXPECT_TRUE(over.closed());
}

TEST(HttpExchangeTest, ATrailerThatNeverEndsIsRefused) {
  SessionDriver driver;
  const std::string call = GetRowCall("t", "r");
  char size[16];
  std::snprintf(size, sizeof size, "%zx", call.size());
  std::string stream = driver.Send(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-thrift\r\n"
      "Transfer-Encoding: chunked\r\n\r\n" + std::string(size) + "\r\n" + call +
      "\r\n0\r\nX-Trailer: ");
  for (int i = 0; i < 40 && !driver.closed(); ++i) stream += driver.Send(std::string(4096, 'a'));
  std::string body;
  EXPECT_EQ(TakeHttpResponse(&stream, &body), 431) << stream.substr(0, 200);
  EXPECT_TRUE(driver.closed());
}

}  // namespace
}  // namespace hbemu::server::wire_session_testing
