#include "server/rest/rest_server.h"

#include <string>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <gtest/gtest.h>

#include "server/rest/rest_service.h"
#include "storage/clock.h"
#include "server/limits.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::server::rest {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// The REST door on a free port, spoken to by a Beast client.
class RestServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(testutil::OpenInMemoryStore(&clock_, &store_).ok());
    service_ = std::make_unique<RestService>(store_.get(), RestServiceOptions{});
    server_ = std::make_unique<RestServer>("127.0.0.1", 0, service_.get(), nullptr,
                                           std::vector<std::string>{});
    std::string error;
    ASSERT_TRUE(server_->Start(&error)) << error;
  }

  http::response<http::string_body> Send(http::request<http::string_body> request) {
    asio::io_context io;
    tcp::socket socket(io);
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
    request.version(11);
    if (request[http::field::host].empty()) request.set(http::field::host, "127.0.0.1");
    request.prepare_payload();
    beast::error_code ec;
    // A refused request may be answered and closed before it is all written: read the answer.
    http::write(socket, request, ec);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(socket, buffer, response, ec);
    return response;
  }

  http::response<http::string_body> Get(const std::string& target,
                                        const std::string& accept = "") {
    http::request<http::string_body> request{http::verb::get, target, 11};
    if (!accept.empty()) request.set(http::field::accept, accept);
    return Send(std::move(request));
  }

  storage::ManualClock clock_{1000};
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<RestService> service_;
  std::unique_ptr<RestServer> server_;
};

TEST_F(RestServerTest, ServesTheVersionOverHttpOnAFreePort) {
  EXPECT_NE(server_->port(), 0);
  auto response = Get("/version/cluster", "application/json");
  EXPECT_EQ(response.result_int(), 200);
  EXPECT_EQ(response[http::field::content_type], "application/json");
  EXPECT_EQ(response.body(), "{\"Version\":\"2.6.1\"}");
}

TEST_F(RestServerTest, PutWithABodyThenGetOverTheSameConnectionKind) {
  ASSERT_TRUE(store_->CreateTable("t", {testutil::Family("f")}).ok());
  http::request<http::string_body> put{http::verb::put, "/t/r/f:a", 11};
  put.set(http::field::content_type, "application/octet-stream");
  put.body() = "value";
  EXPECT_EQ(Send(std::move(put)).result_int(), 200);
  auto value = Get("/t/r/f:a", "application/octet-stream");
  EXPECT_EQ(value.result_int(), 200);
  EXPECT_EQ(value.body(), "value");
}

TEST_F(RestServerTest, HeadAnswersLikeGetWithoutTheBody) {
  http::request<http::string_body> head{http::verb::head, "/version/cluster", 11};
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
  head.set(http::field::host, "127.0.0.1");
  http::write(socket, head);
  beast::flat_buffer buffer;
  http::response_parser<http::empty_body> parser;
  parser.skip(true);
  http::read(socket, buffer, parser);
  EXPECT_EQ(parser.get().result_int(), 200);
  EXPECT_EQ(parser.get()[http::field::content_length], "5");
}

TEST_F(RestServerTest, ForeignHostHeaderIsRefusedOverHttp) {
  http::request<http::string_body> request{http::verb::get, "/", 11};
  request.set(http::field::host, "rebind.example.com");
  EXPECT_EQ(Send(std::move(request)).result_int(), 403);
}

TEST_F(RestServerTest, HeadersPastHttpHeaderBytesAreAnswered431) {
  http::request<http::string_body> request{http::verb::get, "/", 11};
  // Beast caps one field's value below the limit: several fields together pass it.
  const size_t limit = static_cast<size_t>(CurrentLimits().http_header_bytes);
  for (size_t sent = 0, i = 0; sent <= limit; sent += 16 * 1024, ++i) {
    request.set("X-Big-" + std::to_string(i), std::string(16 * 1024, 'x'));
  }
  EXPECT_EQ(Send(std::move(request)).result_int(), 431);
}

TEST(RestServerLimitTest, BodiesPastMessageBytesAreAnswered413) {
  Limits limits = CurrentLimits();
  const Limits saved = limits;
  limits.message_bytes = 1024;
  SetLimits(limits);
  storage::ManualClock clock{1000};
  std::unique_ptr<storage::Store> store;
  ASSERT_TRUE(testutil::OpenInMemoryStore(&clock, &store).ok());
  RestService service(store.get(), RestServiceOptions{});
  RestServer server("127.0.0.1", 0, &service, nullptr, {});
  std::string error;
  ASSERT_TRUE(server.Start(&error)) << error;
  SetLimits(saved);
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
  http::request<http::string_body> put{http::verb::put, "/t/r/f:a", 11};
  put.set(http::field::host, "127.0.0.1");
  put.set(http::field::content_type, "application/octet-stream");
  put.body() = std::string(4096, 'v');
  put.prepare_payload();
  http::write(socket, put);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  beast::error_code ec;
  http::read(socket, buffer, response, ec);
  EXPECT_EQ(response.result_int(), 413);
}

}  // namespace
}  // namespace hbemu::server::rest
