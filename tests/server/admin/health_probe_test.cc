#include "server/admin/health_probe.h"

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio.hpp>
#include <gtest/gtest.h>

#include "server/admin/http_server.h"

namespace hbemu::server::admin {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using std::chrono::milliseconds;

// An admin console whose /ready answers `status`; the target asked for goes to *seen_target.
std::unique_ptr<HttpServer> ServeReady(int status, std::string* seen_target) {
  auto server = std::make_unique<HttpServer>(
      "127.0.0.1", 0, [status, seen_target](const std::string&, const std::string& target) {
        *seen_target = target;
        return HttpReply{target == "/ready" ? status : 404, "text/plain", "ready\n"};
      });
  std::string error;
  EXPECT_TRUE(server->Start(&error)) << error;
  return server;
}

TEST(HealthProbeTest, ReadyOnlyWhenReadyAnswers200) {
  std::string target;
  auto ok = ServeReady(200, &target);
  HealthProbeResult result = ProbeReady("127.0.0.1", ok->port(), milliseconds(2000));
  EXPECT_TRUE(result.ready) << result.message;
  EXPECT_EQ(target, "/ready");
  EXPECT_NE(result.message.find("answered 200"), std::string::npos) << result.message;

  auto starting = ServeReady(503, &target);
  result = ProbeReady("127.0.0.1", starting->port(), milliseconds(2000));
  EXPECT_FALSE(result.ready);
  EXPECT_NE(result.message.find("answered 503"), std::string::npos) << result.message;
}

TEST(HealthProbeTest, AClosedPortIsNotReady) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const uint16_t port = acceptor.local_endpoint().port();
  acceptor.close();
  const HealthProbeResult result = ProbeReady("127.0.0.1", port, milliseconds(2000));
  EXPECT_FALSE(result.ready);
  EXPECT_NE(result.message.find("cannot connect"), std::string::npos) << result.message;
}

// HTTP/1.1 requires Host; a strict proxy or a future console in front must not turn the health
// check into a 400.
TEST(HealthProbeTest, SendsAHostHeaderNamingTheAdminAddress) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const uint16_t port = acceptor.local_endpoint().port();
  std::string request;
  std::thread answer([&] {
    tcp::socket socket = acceptor.accept();
    asio::read_until(socket, asio::dynamic_buffer(request), "\r\n\r\n");
    asio::write(socket, asio::buffer(std::string("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")));
  });
  const HealthProbeResult result = ProbeReady("127.0.0.1", port, milliseconds(2000));
  answer.join();
  EXPECT_TRUE(result.ready) << result.message;
  EXPECT_EQ(request.rfind("GET /ready HTTP/1.1\r\n", 0), 0u) << request;
  EXPECT_NE(request.find("Host: 127.0.0.1:" + std::to_string(port) + "\r\n"), std::string::npos)
      << request;
}

// A server that accepts and never answers must not hold the health check past its timeout.
TEST(HealthProbeTest, ASilentServerTimesOut) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const auto started = std::chrono::steady_clock::now();
  const HealthProbeResult result =
      ProbeReady("127.0.0.1", acceptor.local_endpoint().port(), milliseconds(300));
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_FALSE(result.ready);
  EXPECT_NE(result.message.find("timed out"), std::string::npos) << result.message;
  EXPECT_LT(took, std::chrono::seconds(2));
}

TEST(HealthProbeTest, AWildcardBindIsAskedThroughLoopback) {
  EXPECT_EQ(ProbeHostFor("0.0.0.0"), "127.0.0.1");
  EXPECT_EQ(ProbeHostFor("::"), "::1");
  EXPECT_EQ(ProbeHostFor("127.0.0.1"), "127.0.0.1");
  EXPECT_EQ(ProbeHostFor("10.1.2.3"), "10.1.2.3");
}

}  // namespace
}  // namespace hbemu::server::admin
