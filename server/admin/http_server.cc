#include "server/admin/http_server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <glog/logging.h>
#include <nlohmann/json.hpp>

#include "server/admin/console.h"
#include "server/gateway/free_memory.h"
#include "server/limits.h"
#include "server/net/browser_requests.h"

namespace hbemu::server::admin {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Pages at least this large give their memory back to the system once sent.
constexpr size_t kTrimAfterBytes = 1 << 20;

std::string JsonError(int status, const std::string& message) {
  return nlohmann::json{{"error", message}, {"status", status}}.dump() + "\n";
}

std::string ErrorPage(int status, const std::string& title, const std::string& detail) {
  return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + std::to_string(status) +
         " " + title + "</title></head><body><h1>" + std::to_string(status) + " " + title +
         "</h1><p>" + detail + "</p></body></html>\n";
}

// One client connection: read a request, answer it, repeat while kept alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  // `open` counts the sessions alive (it outlives them).
  Session(tcp::socket socket, const HttpHandler* handler, const ControlHttpHandler* control,
          const HostAllowList* allowed_hosts, std::atomic<int64_t>* open)
      : stream_(std::move(socket)),
        handler_(handler),
        control_(control),
        allowed_hosts_(allowed_hosts),
        open_(open) {
    open_->fetch_add(1, std::memory_order_relaxed);
  }
  ~Session() { open_->fetch_sub(1, std::memory_order_relaxed); }

  void Start() { Read(); }

 private:
  void Read() {
    parser_.emplace();
    // Limits are set before the server starts and only read after.
    const Limits& limits = CurrentLimits();
    parser_->header_limit(static_cast<uint32_t>(limits.admin_header_bytes));
    parser_->body_limit(static_cast<uint64_t>(limits.admin_body_bytes));
    stream_.expires_after(std::chrono::milliseconds(limits.admin_request_timeout_ms));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) {
                       self->OnRead(ec);
                     });
  }

  void OnRead(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == asio::error::connection_reset) {
      return Close();
    }
    if (ec == http::error::header_limit) {
      return Respond(431, "text/html; charset=utf-8",
                     ErrorPage(431, "Request Header Fields Too Large",
                               "Request headers are limited to " +
                                   std::to_string(CurrentLimits().admin_header_bytes) +
                                   " bytes (limit admin_header_bytes)."),
                     false);
    }
    if (ec == http::error::body_limit) {
      return Respond(413, "text/html; charset=utf-8",
                     ErrorPage(413, "Payload Too Large", "The console takes no request bodies."),
                     false);
    }
    if (ec) {
      return Respond(400, "text/html; charset=utf-8",
                     ErrorPage(400, "Bad Request", "Not an HTTP/1.1 request."), false);
    }
    const auto& request = parser_->get();
    const bool keep_alive = request.keep_alive();
    head_only_ = request.method() == http::verb::head;
    const std::string target(request.target());
    const bool control = IsControlTarget(target);
    const auto host = request[http::field::host];
    if (!HostHeaderAllowed(std::string_view(host.data(), host.size()), *allowed_hosts_)) {
      return RespondForeignHost(std::string(host), control, keep_alive);
    }
    if (control) return RespondControl(request, target, keep_alive);
    if (request.method() != http::verb::get && !head_only_) {
      return Respond(405, "text/html; charset=utf-8",
                     ErrorPage(405, "Method Not Allowed",
                               "The console is read-only: only GET and HEAD."),
                     keep_alive);
    }
    HttpReply reply;
    try {
      reply = (*handler_)("GET", target);
    } catch (const std::exception& e) {
      LOG(ERROR) << "[admin_http] " << request.target() << " failed: " << e.what();
      reply = {500, "text/html; charset=utf-8",
               ErrorPage(500, "Internal Server Error", "The page could not be built.")};
    }
    Respond(reply.status, reply.content_type, std::move(reply.body), keep_alive);
  }

  // The test controls answer here, never the console: a console page cannot reach them, and
  // without --test-controls they do not exist.
  void RespondControl(const http::request<http::string_body>& request, const std::string& target,
                      bool keep_alive) {
    if (control_ == nullptr || !*control_) {
      return Respond(404, "application/json",
                     "{\"error\": \"no test controls: start the server with --test-controls\", "
                     "\"status\": 404}\n",
                     keep_alive);
    }
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      if (auto refusal = WebPageRefusal(request)) {
        return Respond(refusal->status, "application/json", refusal->body, keep_alive);
      }
    }
    beast::error_code ec;
    const auto peer = stream_.socket().remote_endpoint(ec).address();
    const bool loopback =
        !ec && (peer.is_loopback() ||
                (peer.is_v6() && peer.to_v6().is_v4_mapped() &&
                 asio::ip::make_address_v4(asio::ip::v4_mapped, peer.to_v6()).is_loopback()));
    HttpReply reply;
    try {
      reply = (*control_)(std::string(request.method_string()), target, request.body(), loopback);
    } catch (const std::exception& e) {
      LOG(ERROR) << "[admin_http] " << target << " failed: " << e.what();
      reply = {500, "application/json", "{\"error\": \"internal error\", \"status\": 500}\n"};
    }
    Respond(reply.status, reply.content_type, std::move(reply.body), keep_alive);
  }

  // A page reached through DNS rebinding sends its own name as Host; the console shows every
  // stored cell, and the controls change them.
  void RespondForeignHost(const std::string& host, bool control, bool keep_alive) {
    const std::string why =
        "Host '" + host + "' is not a name of this server. The admin port answers requests "
        "addressed to localhost, an IP address, a single-label name or a name given with "
        "--allowed-hosts, so that a web page cannot reach it through DNS rebinding.";
    if (control) return Respond(403, "application/json", JsonError(403, why), keep_alive);
    Respond(403, "text/html; charset=utf-8", ErrorPage(403, "Forbidden", HtmlEscape(why)),
            keep_alive);
  }

  // A control request that changes state must be one a web page cannot send without asking
  // first (a CORS preflight, which this server never grants): JSON, and not from a foreign page.
  std::optional<HttpReply> WebPageRefusal(const http::request<http::string_body>& request) {
    if (auto origin = request.find(http::field::origin); origin != request.end()) {
      const std::string value(origin->value());
      const std::string host = HostOfAuthority(value);
      if (value == "null" || !HostHeaderAllowed(host, *allowed_hosts_)) {
        return HttpReply{403, "application/json",
                         JsonError(403, "the test controls do not take requests from the web "
                                        "page at " + value)};
      }
    }
    const auto type = request[http::field::content_type];
    const auto essence = type.substr(0, type.find(';'));
    if (!beast::iequals(essence, "application/json")) {
      return HttpReply{415, "application/json",
                       JsonError(415, "the test controls take Content-Type: application/json "
                                      "(a web page cannot send it to another site without a "
                                      "preflight), not '" + std::string(type) + "'")};
    }
    return std::nullopt;
  }

  void Respond(int status, const std::string& content_type, std::string body, bool keep_alive) {
    auto response = std::make_shared<http::response<http::string_body>>();
    response->result(static_cast<unsigned>(status));
    response->version(11);
    response->set(http::field::server, "hbase-emulator");
    response->set(http::field::content_type, content_type);
    response->set(http::field::cache_control, "no-store");
    response->keep_alive(keep_alive);
    response->body() = std::move(body);
    response->prepare_payload();
    const bool large = response->body().size() >= kTrimAfterBytes;
    if (head_only_) response->body().clear();  // Content-Length stays that of the GET
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response, keep_alive, large](
                          beast::error_code ec, size_t) mutable {
                        response.reset();
                        // The page's document and body are freed now; without this the
                        // allocator keeps that memory in the process.
                        if (large) ReturnFreeMemory();
                        if (ec) return self->Close();
                        if (!keep_alive) return self->Linger();
                        self->Read();
                      });
  }

  // Closing a socket with unread request bytes (the rest of a refused 100 KB header) makes
  // the kernel send a reset, which can destroy the response before the client reads it. So:
  // stop sending, read and discard until the client closes (or 2 s pass), then close.
  void Linger() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(std::chrono::seconds(2));
    Drain();
  }

  void Drain() {
    stream_.async_read_some(asio::buffer(drain_),
                            [self = shared_from_this()](beast::error_code ec, size_t) {
                              if (ec) return self->Close();
                              self->Drain();
                            });
  }

  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.close();
  }

  beast::tcp_stream stream_;
  const HttpHandler* const handler_;
  const ControlHttpHandler* const control_;
  const HostAllowList* const allowed_hosts_;
  std::atomic<int64_t>* const open_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  bool head_only_ = false;
  char drain_[4096];
};

}  // namespace

bool IsControlTarget(const std::string& target) {
  const std::string path = target.substr(0, target.find('?'));
  return path == "/control" || path.compare(0, 9, "/control/") == 0;
}

class HttpServer::Impl {
 public:
  Impl(std::string bind_address, uint16_t port, HttpHandler handler)
      : bind_address_(std::move(bind_address)),
        requested_port_(port),
        handler_(std::move(handler)),
        acceptor_(io_) {
    allowed_hosts_.bind_address = bind_address_;
  }

  ~Impl() { Stop(); }

  bool Start(std::string* error) {
    beast::error_code ec;
    tcp::resolver resolver(io_);
    auto endpoints = resolver.resolve(bind_address_, std::to_string(requested_port_),
                                      tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec || endpoints.empty()) {
      *error = "cannot resolve bind address '" + bind_address_ + "': " + ec.message();
      return false;
    }
    const tcp::endpoint endpoint = endpoints.begin()->endpoint();
    if (acceptor_.open(endpoint.protocol(), ec) ||
        acceptor_.set_option(tcp::acceptor::reuse_address(true), ec) ||
        acceptor_.bind(endpoint, ec) || acceptor_.listen(asio::socket_base::max_listen_connections, ec)) {
      *error = "cannot listen on " + bind_address_ + ":" + std::to_string(requested_port_) + ": " +
               ec.message();
      return false;
    }
    port_ = acceptor_.local_endpoint(ec).port();
    max_connections_ = CurrentLimits().connections;
    Accept();
    thread_ = std::thread([this] { io_.run(); });
    started_ = true;
    LOG(INFO) << "[admin_http] console on http://" << bind_address_ << ":" << port_ << "/";
    return true;
  }

  void SetControlHandler(ControlHttpHandler handler) { control_ = std::move(handler); }
  void SetAllowedHosts(std::vector<std::string> names) { allowed_hosts_.names = std::move(names); }
  uint16_t port() const { return port_; }
  uint64_t accept_failures() const { return accept_failures_.load(std::memory_order_relaxed); }
  uint64_t refused_connections() const { return refused_.load(std::memory_order_relaxed); }

  void Stop() {
    if (!started_ || stopped_) return;
    stopped_ = true;
    io_.stop();  // abandons open connections; their sockets close with the io_context
    if (thread_.joinable()) thread_.join();
    // The loop no longer runs, so the listener can be closed from here: the port is free
    // as soon as Stop returns.
    beast::error_code ec;
    acceptor_.close(ec);
  }

 private:
  void Accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec || ec == asio::error::connection_aborted) {
        // A connection that went away before it was taken says nothing about the next one.
        if (!ec && max_connections_ > 0 &&
            open_sessions_.load(std::memory_order_relaxed) >= max_connections_) {
          Refuse(std::move(socket));
        } else if (!ec) {
          std::make_shared<Session>(std::move(socket), &handler_, &control_, &allowed_hosts_,
                                    &open_sessions_)
              ->Start();
        }
        retry_delay_ = std::chrono::milliseconds(0);
        return Accept();
      }
      // Out of descriptors (EMFILE, ENFILE) or memory: the waiting connection stays in the
      // backlog, so accepting again at once fails again at once. Wait, longer each time.
      accept_failures_.fetch_add(1, std::memory_order_relaxed);
      retry_delay_ = std::clamp(2 * retry_delay_, kFirstRetry, kLastRetry);
      if (retry_delay_ == kFirstRetry) {
        LOG(WARNING) << "[admin_http] cannot accept a connection (" << ec.message()
                     << "): retrying in up to " << kLastRetry.count() << " ms";
      }
      retry_timer_.expires_after(retry_delay_);
      retry_timer_.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) Accept();
      });
    });
  }

  // Past Limits::connections a new connection is closed at once: each session holds a
  // descriptor and its buffers for up to admin_request_timeout_ms. Logged at most once per
  // kRefusalLogPeriod, with the count since the last line.
  void Refuse(tcp::socket socket) {
    refused_.fetch_add(1, std::memory_order_relaxed);
    beast::error_code ec;
    socket.close(ec);
    ++refused_since_log_;
    const auto now = std::chrono::steady_clock::now();
    if (logged_refusal_ && now - last_refusal_log_ < kRefusalLogPeriod) return;
    LOG(WARNING) << "[admin_http] " << max_connections_
                 << " connections open (limit connections): refused " << refused_since_log_
                 << " new connection(s)";
    logged_refusal_ = true;
    last_refusal_log_ = now;
    refused_since_log_ = 0;
  }

  static constexpr std::chrono::seconds kRefusalLogPeriod{10};
  static constexpr std::chrono::milliseconds kFirstRetry{10};
  static constexpr std::chrono::milliseconds kLastRetry{1000};

  const std::string bind_address_;
  const uint16_t requested_port_;
  const HttpHandler handler_;
  ControlHttpHandler control_;
  HostAllowList allowed_hosts_;
  // Before io_, so that it outlives the sessions io_ destroys.
  std::atomic<int64_t> open_sessions_{0};
  std::atomic<uint64_t> refused_{0};
  int64_t max_connections_ = 0;            // Limits::connections at Start; 0: no limit
  uint64_t refused_since_log_ = 0;         // the server's thread only
  bool logged_refusal_ = false;            // the server's thread only
  std::chrono::steady_clock::time_point last_refusal_log_;
  asio::io_context io_{1};
  tcp::acceptor acceptor_;
  asio::steady_timer retry_timer_{io_};
  std::chrono::milliseconds retry_delay_{0};
  std::atomic<uint64_t> accept_failures_{0};
  std::thread thread_;
  uint16_t port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
};

HttpServer::HttpServer(std::string bind_address, uint16_t port, HttpHandler handler)
    : impl_(std::make_unique<Impl>(std::move(bind_address), port, std::move(handler))) {}
HttpServer::~HttpServer() = default;
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
