#include "server/net/http_exchange.h"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/limits.h"
#include "server/net/browser_requests.h"

namespace hbemu::server {

namespace http = boost::beast::http;

namespace {

std::string StatusLine(int status) {
  auto reason = http::obsolete_reason(static_cast<http::status>(status));
  return "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason.data(), reason.size()) +
         "\r\n";
}

std::string ConnectionHeader(bool keep_alive) {
  // Explicit either way, so an HTTP/1.0 client keeps the connection only when told it may.
  return keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
}

}  // namespace

struct HttpRequestReader::Parser {
  http::request_parser<http::string_body> beast;
};

HttpRequestReader::HttpRequestReader(size_t max_body_bytes)
    : max_body_bytes_(max_body_bytes),
      max_header_bytes_(static_cast<uint32_t>(CurrentLimits().http_header_bytes)) {
  Reset();
}

HttpRequestReader::~HttpRequestReader() = default;

void HttpRequestReader::Reset() {
  parser_ = std::make_unique<Parser>();
  parser_->beast.header_limit(max_header_bytes_);
  parser_->beast.body_limit(static_cast<uint64_t>(max_body_bytes_));
  // Keep parsing into the body in the same call once the header is complete.
  parser_->beast.eager(true);
  continue_sent_ = false;
  header_checked_ = false;
  error_status_ = 0;
  error_.clear();
}

HttpRequestReader::Status HttpRequestReader::Fail(int status, std::string error) {
  error_status_ = status;
  error_ = std::move(error);
  return Status::kError;
}

HttpRequestReader::Status HttpRequestReader::Feed(const uint8_t* data, size_t size,
                                                  size_t* consumed) {
  *consumed = 0;
  auto& beast = parser_->beast;
  while (!beast.is_done()) {
    boost::beast::error_code ec;
    size_t used = beast.put(boost::asio::const_buffer(data + *consumed, size - *consumed), ec);
    *consumed += used;
    if (ec == http::error::need_more) return NeedMore(size - *consumed);
    if (ec == http::error::body_limit) {
      return Fail(413, "request body over the limit of " + std::to_string(max_body_bytes_) +
                           " bytes");
    }
    if (ec == http::error::header_limit) return Fail(431, "request header too large");
    if (ec) return Fail(400, "bad HTTP request: " + ec.message());
    if (beast.is_header_done() && !header_checked_) {
      header_checked_ = true;
      if (Status refused = CheckNotFromWebPage(); refused == Status::kError) return refused;
    }
    if (used == 0 && !beast.is_done()) return NeedMore(size - *consumed);
  }
  if (beast.get().method() != http::verb::post) {
    auto method = beast.get().method_string();
    return Fail(405, "Thrift over HTTP takes POST requests, not " +
                         std::string(method.data(), method.size()));
  }
  return Status::kComplete;
}

// Beast takes body bytes as they come, but keeps nothing of a chunk-size line, its extensions
// or a trailer until the line ends: those bytes stay with the caller, which would buffer a line
// that never ends without bound.
HttpRequestReader::Status HttpRequestReader::NeedMore(size_t unparsed) {
  if (unparsed > max_header_bytes_) {
    return Fail(431, "request header, chunk header or trailer over " +
                         std::to_string(max_header_bytes_) + " bytes (limit http_header_bytes)");
  }
  return Status::kNeedMore;
}

// Every request a browser sends with a method other than GET carries Origin, and Thrift over
// HTTP is POST only: a request with Origin comes from a web page (cross-origin, or same-origin
// through DNS rebinding), never from a Thrift client. A form's content type is refused too, as
// a second line for browsers too old to send Origin.
HttpRequestReader::Status HttpRequestReader::CheckNotFromWebPage() {
  const auto& header = parser_->beast.get();
  if (header.find(http::field::origin) != header.end()) {
    return Fail(403, "Thrift over HTTP does not answer web pages (the request has an Origin "
                     "header): a page open in a browser must not be able to change the data");
  }
  auto content_type = header[http::field::content_type];
  if (IsFormContentType(std::string_view(content_type.data(), content_type.size()))) {
    return Fail(415, "Thrift over HTTP takes Content-Type: application/x-thrift, not " +
                         std::string(content_type.data(), content_type.size()));
  }
  return Status::kNeedMore;
}

bool HttpRequestReader::WantsContinue() const {
  const auto& beast = parser_->beast;
  if (continue_sent_ || !beast.is_header_done() || beast.is_done()) return false;
  auto expect = beast.get()[http::field::expect];
  return boost::beast::iequals(expect, "100-continue");
}

void HttpRequestReader::ContinueSent() { continue_sent_ = true; }

const std::string& HttpRequestReader::body() const { return parser_->beast.get().body(); }

bool HttpRequestReader::keep_alive() const { return parser_->beast.keep_alive(); }

std::string HttpResponseHeader(int status, const char* content_type, size_t body_size,
                               bool keep_alive) {
  return StatusLine(status) + "Content-Type: " + content_type + "\r\n" +
         "Content-Length: " + std::to_string(body_size) + "\r\n" + ConnectionHeader(keep_alive) +
         "\r\n";
}

const std::string& HttpContinueResponse() {
  static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
  return kContinue;
}

std::string HttpTextResponse(int status, const std::string& text, bool keep_alive) {
  std::string body = text + "\n";
  std::string extra = status == 405 ? "Allow: POST\r\n" : "";
  std::string header = HttpResponseHeader(status, "text/plain; charset=utf-8", body.size(),
                                          keep_alive);
  header.insert(header.size() - 2, extra);
  return header + body;
}

}  // namespace hbemu::server
