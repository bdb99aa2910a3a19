#include "shell/control_client.h"

#include <chrono>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace hbemu::shell {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

nlohmann::json ControlCall(const ConnectionOptions& options, const std::string& method,
                           const std::string& path, const nlohmann::json& body) {
  const std::string where = options.host + ":" + std::to_string(options.admin_port);
  http::response<http::string_body> response;
  try {
    asio::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::milliseconds(options.timeout_ms));
    asio::ip::tcp::resolver resolver(io);
    stream.connect(resolver.resolve(options.host, std::to_string(options.admin_port)));
    http::request<http::string_body> request(
        method == "POST" ? http::verb::post : http::verb::get, path, 11);
    request.set(http::field::host, where);
    // The server takes control requests that change state only as JSON (a web page cannot send
    // that cross-origin without a preflight), bodiless ones included.
    if (method == "POST") request.set(http::field::content_type, "application/json");
    if (!body.is_null()) request.body() = body.dump();
    request.prepare_payload();
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::read(stream, buffer, response);
    beast::error_code ignored;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  } catch (const std::exception& e) {
    throw ShellError("cannot reach hbase-emulator's test controls at " + where +
                     " (--admin-port): " + e.what());
  }
  nlohmann::json answer = nlohmann::json::parse(response.body(), nullptr, false);
  const int status = static_cast<int>(response.result_int());
  if (status == 200 && !answer.is_discarded()) return answer;
  std::string message = "HTTP " + std::to_string(status) + " from " + path;
  if (!answer.is_discarded() && answer.contains("error") && answer["error"].is_string()) {
    message = answer["error"].get<std::string>();
  }
  // Storage failures name their Java exception; a bare 404 means no such control here.
  if (status == 404 && message.find("Exception") == std::string::npos) {
    message += " (is hbase-emulator at " + where + " running with --test-controls?)";
  }
  throw ControlFailure(status, message);
}

}  // namespace hbemu::shell
