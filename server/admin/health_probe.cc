#include "server/admin/health_probe.h"

#include <string>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "server/options.h"

namespace hbemu::server::admin {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// One exchange on a stream whose deadline covers all of it: Beast's timeouts apply only to
// asynchronous operations, so the steps chain as callbacks on a private io_context.
class Probe {
 public:
  Probe(asio::io_context* io, std::string url) : stream_(*io), url_(std::move(url)) {}

  void Start(const tcp::resolver::results_type& endpoints, const std::string& host_header,
             std::chrono::milliseconds timeout) {
    request_.method(http::verb::get);
    request_.target("/ready");
    request_.version(11);
    request_.set(http::field::host, host_header);
    request_.set(http::field::user_agent, "hbase-emulator-health-check");
    request_.set(http::field::connection, "close");
    stream_.expires_after(timeout);
    stream_.async_connect(endpoints, [this](beast::error_code ec, const tcp::endpoint&) {
      if (ec) return Fail("cannot connect to " + url_, ec);
      http::async_write(stream_, request_, [this](beast::error_code ec, size_t) {
        if (ec) return Fail("cannot send to " + url_, ec);
        http::async_read(stream_, buffer_, response_, [this](beast::error_code ec, size_t) {
          if (ec) return Fail("no answer from " + url_, ec);
          const int status = static_cast<int>(response_.result_int());
          result_.ready = status == 200;
          result_.message = (result_.ready ? "ready: " : "not ready: ") + url_ + " answered " +
                            std::to_string(status);
          beast::error_code ignored;
          stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        });
      });
    });
  }

  HealthProbeResult result() const { return result_; }

 private:
  void Fail(const std::string& what, beast::error_code ec) {
    result_.ready = false;
    result_.message = "not ready: " + what + ": " +
                      (ec == beast::error::timeout ? std::string("timed out") : ec.message());
  }

  beast::tcp_stream stream_;
  std::string url_;
  http::request<http::empty_body> request_;
  beast::flat_buffer buffer_;
  http::response<http::string_body> response_;
  HealthProbeResult result_;
};

}  // namespace

std::string ProbeHostFor(const std::string& bind_address) {
  if (bind_address == "0.0.0.0" || bind_address.empty()) return "127.0.0.1";
  if (bind_address == "::" || bind_address == "[::]") return "::1";
  return bind_address;
}

HealthProbeResult ProbeReady(const std::string& host, uint16_t port,
                             std::chrono::milliseconds timeout) {
  const std::string host_port = server::HostPort(host, port);
  const std::string url = "http://" + host_port + "/ready";
  asio::io_context io;
  tcp::resolver resolver(io);
  beast::error_code ec;
  std::string literal = host;
  if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']') {
    literal = literal.substr(1, literal.size() - 2);
  }
  // A literal needs no resolver (nor /etc/hosts, which a minimal image may lack).
  const asio::ip::address address = asio::ip::make_address(literal, ec);
  const tcp::resolver::results_type endpoints =
      ec ? resolver.resolve(literal, std::to_string(port), ec)
         : tcp::resolver::results_type::create(tcp::endpoint(address, port), literal,
                                               std::to_string(port));
  if (ec) return {false, "not ready: cannot resolve " + literal + ": " + ec.message()};
  Probe probe(&io, url);
  probe.Start(endpoints, host_port, timeout);
  io.run();
  return probe.result();
}

}  // namespace hbemu::server::admin
