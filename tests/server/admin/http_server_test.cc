#include "server/admin/http_server.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <gtest/gtest.h>

#include "tests/server/admin/scoped_limits.h"

namespace hbemu::server::admin {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// Sends `request` raw and reads until the server closes or a full response with `Connection:
// close` arrives.
std::string Exchange(uint16_t port, const std::string& request) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::write(socket, asio::buffer(request));
  std::string response;
  boost::system::error_code ec;
  char buf[4096];
  for (;;) {
    const size_t n = socket.read_some(asio::buffer(buf), ec);
    if (ec) break;
    response.append(buf, n);
  }
  return response;
}

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<HttpServer>("127.0.0.1", 0, [this](const std::string& method,
                                                                   const std::string& target) {
      ++calls_;
      return HttpReply{200, "text/plain", method + " " + target};
    });
    std::string error;
    ASSERT_TRUE(server_->Start(&error)) << error;
  }

  std::unique_ptr<HttpServer> server_;
  int calls_ = 0;
};

TEST_F(HttpServerTest, GetReachesTheHandlerWithItsTarget) {
  const std::string r = Exchange(server_->port(),
                                 "GET /table/t?x=%41 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(r.rfind("HTTP/1.1 200", 0), 0u) << r;
  EXPECT_NE(r.find("GET /table/t?x=%41"), std::string::npos);
}

TEST_F(HttpServerTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  const std::string r = Exchange(server_->port(),
                                 "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
                                 "GET /b HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
  EXPECT_NE(r.find("GET /a"), std::string::npos);
  EXPECT_NE(r.find("GET /b"), std::string::npos);
  EXPECT_EQ(calls_, 2);
}

TEST_F(HttpServerTest, WritesAreRefusedWith405) {
  const std::string r = Exchange(server_->port(),
                                 "POST /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n"
                                 "Connection: close\r\n\r\nhi");
  EXPECT_EQ(r.rfind("HTTP/1.1 405", 0), 0u) << r;
  EXPECT_EQ(calls_, 0);
}

TEST_F(HttpServerTest, ControlPathsAreNotFoundWithoutAControlHandler) {
  const std::string r = Exchange(server_->port(),
                                 "POST /control/clock/freeze HTTP/1.1\r\nHost: a\r\n"
                                 "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
  EXPECT_EQ(r.rfind("HTTP/1.1 404", 0), 0u) << r;
  EXPECT_NE(r.find("--test-controls"), std::string::npos) << r;
  EXPECT_EQ(calls_, 0);  // the console never sees a control path
}

TEST(HttpServerControlTest, ControlPathsGoToTheControlHandlerWithMethodBodyAndPeer) {
  int console_calls = 0;
  HttpServer server("127.0.0.1", 0, [&](const std::string&, const std::string&) {
    ++console_calls;
    return HttpReply{200, "text/plain", "console"};
  });
  server.SetControlHandler([](const std::string& method, const std::string& target,
                              const std::string& body, bool loopback_peer) {
    return HttpReply{200, "application/json",
                     method + " " + target + " " + body + (loopback_peer ? " local" : " remote")};
  });
  std::string error;
  ASSERT_TRUE(server.Start(&error)) << error;
  const std::string r = Exchange(server.port(),
                                 "POST /control/x?a=1 HTTP/1.1\r\nHost: a\r\n"
                                 "Content-Type: application/json\r\n"
                                 "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
  EXPECT_NE(r.find("POST /control/x?a=1 {} local"), std::string::npos) << r;
  // Other paths stay read-only console pages.
  const std::string write = Exchange(server.port(),
                                     "POST /api/tables HTTP/1.1\r\nHost: a\r\n"
                                     "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
  EXPECT_EQ(write.rfind("HTTP/1.1 405", 0), 0u) << write;
  EXPECT_EQ(console_calls, 0);
}

TEST_F(HttpServerTest, HugeHeadersAreRefusedWith431) {
  const std::string r = Exchange(server_->port(), "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " +
                                                      std::string(64 * 1024, 'x') + "\r\n\r\n");
  EXPECT_EQ(r.rfind("HTTP/1.1 431", 0), 0u) << r.substr(0, 200);
  EXPECT_EQ(calls_, 0);
}

TEST(HttpServerLimitTest, HeaderBodyAndRequestTimeLimitsAreTheRegistrys) {
  Limits limits;
  limits.admin_header_bytes = 1024;
  limits.admin_body_bytes = 16;
  limits.admin_request_timeout_ms = 300;
  ScopedLimits scoped(limits);
  HttpServer server("127.0.0.1", 0, [](const std::string&, const std::string&) {
    return HttpReply{200, "text/plain", "ok"};
  });
  server.SetControlHandler([](const std::string&, const std::string&, const std::string&, bool) {
    return HttpReply{200, "application/json", "{}"};
  });
  std::string error;
  ASSERT_TRUE(server.Start(&error)) << error;
  const std::string big = Exchange(server.port(), "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " +
                                                      std::string(2000, 'x') + "\r\n\r\n");
  EXPECT_EQ(big.rfind("HTTP/1.1 431", 0), 0u) << big.substr(0, 200);
  EXPECT_NE(big.find("limit admin_header_bytes"), std::string::npos) << big;
  const std::string body = Exchange(server.port(),
                                    "POST /control/x HTTP/1.1\r\nHost: a\r\n"
                                    "Content-Type: application/json\r\nContent-Length: 40\r\n"
                                    "Connection: close\r\n\r\n" + std::string(40, ' '));
  EXPECT_EQ(body.rfind("HTTP/1.1 413", 0), 0u) << body.substr(0, 200);
  // A request that never completes is closed once admin_request_timeout_ms has passed.
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
  asio::write(socket, asio::buffer(std::string("GET / HTTP/1.1\r\nHost: a\r\n")));
  const auto start = std::chrono::steady_clock::now();
  char byte;
  boost::system::error_code ec;
  socket.read_some(asio::buffer(&byte, 1), ec);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  EXPECT_LT(waited, std::chrono::seconds(5));
}

TEST_F(HttpServerTest, GarbageIsRefusedWith400) {
  const std::string r = Exchange(server_->port(), "\x01\x02 not http\r\n\r\n");
  EXPECT_EQ(r.rfind("HTTP/1.1 400", 0), 0u) << r;
}

TEST_F(HttpServerTest, StopIsIdempotentAndFreesThePort) {
  const uint16_t port = server_->port();
  server_->Stop();
  server_->Stop();
  HttpServer again("127.0.0.1", port, [](const std::string&, const std::string&) {
    return HttpReply{};
  });
  std::string error;
  EXPECT_TRUE(again.Start(&error)) << error;
}

// Uses up the process's descriptors for as long as it lives: the soft limit is lowered to just
// above what is open, and the rest are filled with copies of one descriptor.
class DescriptorsUsedUp {
 public:
  DescriptorsUsedUp() {
    getrlimit(RLIMIT_NOFILE, &saved_);
    int open_now = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
      (void)entry;
      ++open_now;
    }
    rlimit low = saved_;
    low.rlim_cur = static_cast<rlim_t>(open_now + 8);
    setrlimit(RLIMIT_NOFILE, &low);
    for (;;) {
      const int fd = dup(0);
      if (fd < 0) break;
      fds_.push_back(fd);
    }
  }
  ~DescriptorsUsedUp() {
    for (int fd : fds_) close(fd);
    setrlimit(RLIMIT_NOFILE, &saved_);
  }

 private:
  rlimit saved_{};
  std::vector<int> fds_;
};

TEST_F(HttpServerTest, OutOfDescriptorsTheAcceptLoopWaitsAndServesOnceTheyAreBack) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.open(tcp::v4());  // its descriptor, before they run out
  {
    DescriptorsUsedUp used_up;
    // The connection waits in the listen backlog: every accept fails with EMFILE.
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    const uint64_t failures = server_->accept_failures();
    EXPECT_GE(failures, 1u);
    // Retried after 10, 20, 40, ... ms: a handful of tries, where a loop that retries at once
    // makes hundreds of thousands in this time.
    EXPECT_LE(failures, 20u);
  }
  const std::string request = "GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n";
  asio::write(socket, asio::buffer(request));
  std::string response;
  boost::system::error_code ec;
  char buf[4096];
  for (;;) {
    const size_t n = socket.read_some(asio::buffer(buf), ec);
    if (ec) break;
    response.append(buf, n);
  }
  EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;
  EXPECT_EQ(calls_, 1);
}

TEST(HttpServerLimitTest, ConnectionsPastTheLimitAreClosedAtAcceptAndCounted) {
  Limits limits;
  limits.connections = 2;
  ScopedLimits scoped(limits);
  HttpServer server("127.0.0.1", 0, [](const std::string&, const std::string&) {
    return HttpReply{200, "text/plain", "ok"};
  });
  std::string error;
  ASSERT_TRUE(server.Start(&error)) << error;
  asio::io_context io;
  std::vector<tcp::socket> held;
  for (int i = 0; i < 2; ++i) {
    held.emplace_back(io);
    held.back().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
  }
  // The third is accepted by the kernel, then closed by the server before any byte is read.
  tcp::socket refused(io);
  refused.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
  char byte;
  boost::system::error_code ec;
  refused.read_some(asio::buffer(&byte, 1), ec);
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  EXPECT_EQ(server.refused_connections(), 1u);
  // Once one of the two goes, a new connection is served again.
  held.front().close();
  std::string response;
  for (int attempt = 0; attempt < 100 && response.rfind("HTTP/1.1 200", 0) != 0; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    response = Exchange(server.port(), "GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
  }
  EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;
}

// What a web page in a browser on this machine can send (simple cross-origin requests, and
// same-origin ones after DNS rebinding) must not read the console or drive the controls.
class HttpServerBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<HttpServer>("127.0.0.1", 0, [this](const std::string&,
                                                                   const std::string&) {
      ++console_calls_;
      return HttpReply{200, "text/plain", "console"};
    });
    server_->SetControlHandler([this](const std::string&, const std::string&, const std::string&,
                                      bool) {
      ++control_calls_;
      return HttpReply{200, "application/json", "{\"ok\": true}"};
    });
    server_->SetAllowedHosts({"emulator.test", ".corp.example"});
    std::string error;
    ASSERT_TRUE(server_->Start(&error)) << error;
  }
  std::string Get(const std::string& host) {
    return Exchange(server_->port(), "GET /api/tables HTTP/1.1\r\nHost: " + host +
                                         "\r\nConnection: close\r\n\r\n");
  }
  std::string Post(const std::string& headers) {
    return Exchange(server_->port(), "POST /control/clock/freeze HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                                         headers + "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
  }
  std::unique_ptr<HttpServer> server_;
  int console_calls_ = 0;
  int control_calls_ = 0;
};

TEST_F(HttpServerBrowserTest, ConsoleRefusesAForeignHostName) {
  const std::string r = Get("evil.example:9095");
  EXPECT_EQ(r.rfind("HTTP/1.1 403", 0), 0u) << r;
  EXPECT_NE(r.find("--allowed-hosts"), std::string::npos) << r;
  EXPECT_NE(r.find("evil.example"), std::string::npos) << r;
  EXPECT_EQ(console_calls_, 0);
}

TEST_F(HttpServerBrowserTest, ConsoleAnswersLoopbackAddressesAndNamesOfThisServer) {
  for (const char* host : {"localhost:9095", "LOCALHOST.", "127.0.0.1:9095", "[::1]:9095",
                           "10.1.2.3", "app.localhost", "hbase:9095", "emulator.test",
                           "a.corp.example:9095"}) {
    EXPECT_EQ(Get(host).rfind("HTTP/1.1 200", 0), 0u) << host;
  }
  EXPECT_EQ(console_calls_, 9);
}

TEST_F(HttpServerBrowserTest, ControlsRefuseAForeignHostName) {
  const std::string r = Exchange(server_->port(),
                                 "POST /control/clock/freeze HTTP/1.1\r\nHost: rebind.evil.example\r\n"
                                 "Content-Type: application/json\r\nContent-Length: 2\r\n"
                                 "Connection: close\r\n\r\n{}");
  EXPECT_EQ(r.rfind("HTTP/1.1 403", 0), 0u) << r;
  EXPECT_EQ(control_calls_, 0);
}

TEST_F(HttpServerBrowserTest, ControlsRefuseWhatAPageCanSendWithoutAPreflight) {
  for (const char* type : {"text/plain", "text/plain;charset=UTF-8",
                           "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}) {
    const std::string r = Post("Content-Type: " + std::string(type) + "\r\n");
    EXPECT_EQ(r.rfind("HTTP/1.1 415", 0), 0u) << type << ": " << r;
    EXPECT_NE(r.find("application/json"), std::string::npos) << r;
  }
  // A bodiless fetch() sends no Content-Type at all, and needs no preflight either.
  EXPECT_EQ(Post("").rfind("HTTP/1.1 415", 0), 0u);
  EXPECT_EQ(control_calls_, 0);
}

TEST_F(HttpServerBrowserTest, ControlsRefuseAForeignOriginEvenWithJson) {
  for (const char* origin : {"https://evil.example", "null"}) {
    const std::string r = Post("Origin: " + std::string(origin) +
                               "\r\nContent-Type: application/json\r\n");
    EXPECT_EQ(r.rfind("HTTP/1.1 403", 0), 0u) << origin << ": " << r;
  }
  EXPECT_EQ(control_calls_, 0);
}

TEST_F(HttpServerBrowserTest, ControlsTakeJsonFromTestCode) {
  EXPECT_EQ(Post("Content-Type: application/json\r\n").rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_EQ(Post("Content-Type: Application/JSON; charset=utf-8\r\nOrigin: http://localhost:9095\r\n")
                .rfind("HTTP/1.1 200", 0),
            0u);
  EXPECT_EQ(control_calls_, 2);
}

}  // namespace
}  // namespace hbemu::server::admin
