#include "server/admin/http_server.h"

#include <chrono>
#include <optional>
#include <utility>

#include <boost/beast/core/string.hpp>
#include <glog/logging.h>
#include <nlohmann/json.hpp>

#include "server/admin/console.h"
#include "server/net/browser_requests.h"
#include "server/net/http_server.h"
#include "server/limits.h"

namespace hbemu::server::admin {
namespace {

namespace beast = boost::beast;


std::string JsonError(int status, const std::string& message) {
  return nlohmann::json{{"error", message}, {"status", status}}.dump() + "\n";
}

std::string ErrorPage(int status, const std::string& title, const std::string& detail) {
  return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + std::to_string(status) +
         " " + title + "</title></head><body><h1>" + std::to_string(status) + " " + title +
         "</h1><p>" + detail + "</p></body></html>\n";
}

HttpResponse Reply(int status, std::string content_type, std::string body) {
  HttpResponse response;
  response.status = status;
  response.content_type = std::move(content_type);
  response.body = std::move(body);
  response.headers = {{"Server", "hbase-emulator"}, {"Cache-Control", "no-store"}};
  return response;
}

HttpResponse FromReply(HttpReply reply) {
  return Reply(reply.status, std::move(reply.content_type), std::move(reply.body));
}

HttpResponse FaultPage(HttpFault fault) {
  switch (fault) {
    case HttpFault::kHeaderTooLarge:
      return Reply(431, "text/html; charset=utf-8",
                   ErrorPage(431, "Request Header Fields Too Large",
                             "Request headers are limited to " +
                                 std::to_string(CurrentLimits().admin_header_bytes) +
                                 " bytes (limit admin_header_bytes)."));
    case HttpFault::kBodyTooLarge:
      return Reply(413, "text/html; charset=utf-8",
                   ErrorPage(413, "Payload Too Large", "The console takes no request bodies."));
    case HttpFault::kMalformed:
      return Reply(400, "text/html; charset=utf-8",
                   ErrorPage(400, "Bad Request", "Not an HTTP/1.1 request."));
    case HttpFault::kHandlerFailed:
      break;
  }
  return Reply(500, "text/html; charset=utf-8",
               ErrorPage(500, "Internal Server Error", "The page could not be built."));
}

}  // namespace

bool IsControlTarget(const std::string& target) {
  const std::string path = target.substr(0, target.find('?'));
  return path == "/control" || path.compare(0, 9, "/control/") == 0;
}

// The console's rules over the shared HTTP server (server/net/http_server.h).
class HttpServer::Impl {
 public:
  Impl(std::string bind_address, uint16_t port, HttpHandler handler)
      : bind_address_(std::move(bind_address)), port_(port), handler_(std::move(handler)) {
    allowed_hosts_.bind_address = bind_address_;
  }

  bool Start(std::string* error) {
    HttpServerOptions options;
    options.log_name = "admin_http";
    // Limits are set before the server starts and only read after.
    options.header_limit = static_cast<size_t>(CurrentLimits().admin_header_bytes);
    options.body_limit = static_cast<size_t>(CurrentLimits().admin_body_bytes);
    options.idle_timeout = std::chrono::milliseconds(CurrentLimits().admin_request_timeout_ms);
    options.threads = 1;  // pages one at a time: a slow page never holds a Thrift call
    options.max_connections = CurrentLimits().connections;
    server_ = std::make_unique<server::HttpServer>(
        bind_address_, port_, options, [this](const HttpRequest& request) { return Handle(request); },
        FaultPage);
    if (!server_->Start(error)) return false;
    LOG(INFO) << "[admin_http] console on http://" << bind_address_ << ":" << server_->port()
              << "/";
    return true;
  }

  void SetControlHandler(ControlHttpHandler handler) { control_ = std::move(handler); }
  void SetAllowedHosts(std::vector<std::string> names) { allowed_hosts_.names = std::move(names); }
  uint16_t port() const { return server_ ? server_->port() : 0; }
  uint64_t accept_failures() const { return server_ ? server_->accept_failures() : 0; }
  uint64_t refused_connections() const { return server_ ? server_->refused_connections() : 0; }
  void Stop() {
    if (server_) server_->Stop();
  }

 private:
  HttpResponse Handle(const HttpRequest& request) {
    const bool control = IsControlTarget(request.target);
    const std::string host = request.Header("Host");
    if (!HostHeaderAllowed(host, allowed_hosts_)) return ForeignHost(host, control);
    if (control) return HandleControl(request);
    if (request.method != "GET" && request.method != "HEAD") {
      return Reply(405, "text/html; charset=utf-8",
                   ErrorPage(405, "Method Not Allowed",
                             "The console is read-only: only GET and HEAD."));
    }
    return FromReply(handler_("GET", request.target));
  }

  // The test controls answer here, never the console: a console page cannot reach them, and
  // without --test-controls they do not exist.
  HttpResponse HandleControl(const HttpRequest& request) {
    if (!control_) {
      return Reply(404, "application/json",
                   "{\"error\": \"no test controls: start the server with --test-controls\", "
                   "\"status\": 404}\n");
    }
    if (request.method != "GET" && request.method != "HEAD") {
      if (auto refusal = WebPageRefusal(request)) return *refusal;
    }
    return FromReply(control_(request.method, request.target, request.body,
                              request.loopback_peer));
  }

  // A page reached through DNS rebinding sends its own name as Host; the console shows every
  // stored cell, and the controls change them.
  static HttpResponse ForeignHost(const std::string& host, bool control) {
    const std::string why =
        "Host '" + host + "' is not a name of this server. The admin port answers requests "
        "addressed to localhost, an IP address, a single-label name or a name given with "
        "--allowed-hosts, so that a web page cannot reach it through DNS rebinding.";
    if (control) return Reply(403, "application/json", JsonError(403, why));
    return Reply(403, "text/html; charset=utf-8", ErrorPage(403, "Forbidden", HtmlEscape(why)));
  }

  // A control request that changes state must be one a web page cannot send without asking
  // first (a CORS preflight, which this server never grants): JSON, and not from a foreign page.
  std::optional<HttpResponse> WebPageRefusal(const HttpRequest& request) const {
    if (request.HasHeader("Origin")) {
      const std::string value = request.Header("Origin");
      const std::string host = HostOfAuthority(value);
      if (value == "null" || !HostHeaderAllowed(host, allowed_hosts_)) {
        return Reply(403, "application/json",
                     JsonError(403, "the test controls do not take requests from the web "
                                    "page at " + value));
      }
    }
    const std::string type = request.Header("Content-Type");
    const std::string essence = type.substr(0, type.find(';'));
    if (!beast::iequals(essence, "application/json")) {
      return Reply(415, "application/json",
                   JsonError(415, "the test controls take Content-Type: application/json "
                                  "(a web page cannot send it to another site without a "
                                  "preflight), not '" + type + "'"));
    }
    return std::nullopt;
  }

  const std::string bind_address_;
  const uint16_t port_;
  const HttpHandler handler_;
  ControlHttpHandler control_;
  HostAllowList allowed_hosts_;
  std::unique_ptr<server::HttpServer> server_;
};

HttpServer::HttpServer(std::string bind_address, uint16_t port, HttpHandler handler)
    : impl_(std::make_unique<Impl>(std::move(bind_address), port, std::move(handler))) {}
HttpServer::~HttpServer() { Stop(); }
void HttpServer::SetControlHandler(ControlHttpHandler handler) {
  impl_->SetControlHandler(std::move(handler));
}
void HttpServer::SetAllowedHosts(std::vector<std::string> names) {
  impl_->SetAllowedHosts(std::move(names));
}
bool HttpServer::Start(std::string* error) { return impl_->Start(error); }
uint16_t HttpServer::port() const { return impl_->port(); }
uint64_t HttpServer::accept_failures() const { return impl_->accept_failures(); }
uint64_t HttpServer::refused_connections() const { return impl_->refused_connections(); }
void HttpServer::Stop() { impl_->Stop(); }

}  // namespace hbemu::server::admin
