#include "server/net/http_server.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <glog/logging.h>

#include "server/gateway/free_memory.h"

namespace hbemu::server {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Answers at least this large give their memory back to the system once sent.
constexpr size_t kTrimAfterBytes = 1 << 20;

bool IsLoopbackPeer(const asio::ip::address& peer) {
  return peer.is_loopback() ||
         (peer.is_v6() && peer.to_v6().is_v4_mapped() &&
          asio::ip::make_address_v4(asio::ip::v4_mapped, peer.to_v6()).is_loopback());
}

struct Shared {
  const HttpServerOptions* options;
  const HttpServer::Handler* handler;
  const HttpServer::FaultHandler* on_fault;
  std::atomic<int64_t>* open;
};

// One client connection: read a request, answer it, repeat while kept alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Shared shared) : stream_(std::move(socket)), shared_(shared) {
    shared_.open->fetch_add(1, std::memory_order_relaxed);
  }
  ~Session() { shared_.open->fetch_sub(1, std::memory_order_relaxed); }

  void Start() { Read(); }

 private:
  void Read() {
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(shared_.options->header_limit));
    parser_->body_limit(shared_.options->body_limit);
    stream_.expires_after(shared_.options->idle_timeout);
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
    head_only_ = false;
    if (ec) {
      const HttpFault fault = ec == http::error::header_limit ? HttpFault::kHeaderTooLarge
                              : ec == http::error::body_limit ? HttpFault::kBodyTooLarge
                                                              : HttpFault::kMalformed;
      return Respond((*shared_.on_fault)(fault), false);
    }
    const auto& message = parser_->get();
    const bool keep_alive = message.keep_alive();
    head_only_ = message.method() == http::verb::head;
    HttpRequest request;
    request.method = std::string(message.method_string());
    request.target = std::string(message.target());
    for (const auto& field : message) {
      request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    request.body = std::move(parser_->get().body());
    beast::error_code peer_ec;
    const auto peer = stream_.socket().remote_endpoint(peer_ec).address();
    request.loopback_peer = !peer_ec && IsLoopbackPeer(peer);
    if (!peer_ec) {
      const auto port = stream_.socket().remote_endpoint(peer_ec).port();
      request.peer = (peer.is_v6() ? "[" + peer.to_string() + "]" : peer.to_string()) + ":" +
                     std::to_string(port);
    }
    HttpResponse response;
    try {
      response = (*shared_.handler)(request);
    } catch (const std::exception& e) {
      LOG(ERROR) << "[" << shared_.options->log_name << "] " << request.method << " "
                 << request.target << " failed: " << e.what();
      response = (*shared_.on_fault)(HttpFault::kHandlerFailed);
    }
    if (response.close_without_reply) return Close();
    Respond(std::move(response), keep_alive);
  }

  void Respond(HttpResponse reply, bool keep_alive) {
    auto response = std::make_shared<http::response<http::string_body>>();
    response->result(static_cast<unsigned>(reply.status));
    response->version(11);
    if (!reply.content_type.empty()) {
      response->set(http::field::content_type, reply.content_type);
    }
    for (auto& [name, value] : reply.headers) response->insert(name, value);
    response->keep_alive(keep_alive);
    response->body() = std::move(reply.body);
    response->prepare_payload();
    const bool large = response->body().size() >= kTrimAfterBytes;
    if (head_only_) response->body().clear();  // Content-Length stays that of the GET
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response, keep_alive, large](
                          beast::error_code ec, size_t) mutable {
                        response.reset();
                        // The answer's memory is freed now; without this the allocator keeps
                        // it in the process.
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
  const Shared shared_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  bool head_only_ = false;
  char drain_[4096];
};

}  // namespace

std::string HttpRequest::Header(std::string_view name) const {
  for (const auto& [field, value] : headers) {
    if (beast::iequals(field, beast::string_view(name.data(), name.size()))) return value;
  }
  return "";
}

bool HttpRequest::HasHeader(std::string_view name) const {
  for (const auto& header : headers) {
    if (beast::iequals(header.first, beast::string_view(name.data(), name.size()))) return true;
  }
  return false;
}

class HttpServer::Impl {
 public:
  Impl(std::string bind_address, uint16_t port, HttpServerOptions options, Handler handler,
       FaultHandler on_fault)
      : bind_address_(std::move(bind_address)),
        requested_port_(port),
        options_(std::move(options)),
        handler_(std::move(handler)),
        on_fault_(std::move(on_fault)),
        io_(std::max(1, options_.threads)),
        acceptor_(io_) {}

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
        acceptor_.bind(endpoint, ec) ||
        acceptor_.listen(asio::socket_base::max_listen_connections, ec)) {
      *error = "cannot listen on " + bind_address_ + ":" + std::to_string(requested_port_) + ": " +
               ec.message();
      return false;
    }
    port_ = acceptor_.local_endpoint(ec).port();
    Accept();
    for (int i = 0; i < std::max(1, options_.threads); ++i) {
      threads_.emplace_back([this] { io_.run(); });
    }
    started_ = true;
    return true;
  }

  uint16_t port() const { return port_; }
  uint64_t accept_failures() const { return accept_failures_.load(std::memory_order_relaxed); }
  uint64_t refused_connections() const { return refused_.load(std::memory_order_relaxed); }

  void Stop() {
    if (!started_ || stopped_) return;
    stopped_ = true;
    io_.stop();  // abandons open connections; their sockets close with the io_context
    for (auto& thread : threads_) thread.join();
    // The loop no longer runs, so the listener can be closed from here: the port is free
    // as soon as Stop returns.
    beast::error_code ec;
    acceptor_.close(ec);
  }

 private:
  // One accept is outstanding at a time, so this chain never runs on two threads at once.
  void Accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec || ec == asio::error::connection_aborted) {
        // A connection that went away before it was taken says nothing about the next one.
        if (!ec && options_.max_connections > 0 &&
            open_sessions_.load(std::memory_order_relaxed) >= options_.max_connections) {
          Refuse(std::move(socket));
        } else if (!ec) {
          std::make_shared<Session>(std::move(socket),
                                    Shared{&options_, &handler_, &on_fault_, &open_sessions_})
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
        LOG(WARNING) << "[" << options_.log_name << "] cannot accept a connection ("
                     << ec.message() << "): retrying in up to " << kLastRetry.count() << " ms";
      }
      retry_timer_.expires_after(retry_delay_);
      retry_timer_.async_wait([this](beast::error_code wait_ec) {
        if (!wait_ec) Accept();
      });
    });
  }

  // Past max_connections a new connection is closed at once: each session holds a descriptor
  // and its buffers for up to the idle timeout. Logged at most once per kRefusalLogPeriod,
  // with the count since the last line.
  void Refuse(tcp::socket socket) {
    refused_.fetch_add(1, std::memory_order_relaxed);
    beast::error_code ec;
    socket.close(ec);
    ++refused_since_log_;
    const auto now = std::chrono::steady_clock::now();
    if (logged_refusal_ && now - last_refusal_log_ < kRefusalLogPeriod) return;
    LOG(WARNING) << "[" << options_.log_name << "] " << options_.max_connections
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
  const HttpServerOptions options_;
  const Handler handler_;
  const FaultHandler on_fault_;
  // Before io_, so that it outlives the sessions io_ destroys.
  std::atomic<int64_t> open_sessions_{0};
  std::atomic<uint64_t> refused_{0};
  uint64_t refused_since_log_ = 0;  // the accept chain only
  bool logged_refusal_ = false;     // the accept chain only
  std::chrono::steady_clock::time_point last_refusal_log_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  asio::steady_timer retry_timer_{io_};
  std::chrono::milliseconds retry_delay_{0};
  std::atomic<uint64_t> accept_failures_{0};
  std::vector<std::thread> threads_;
  uint16_t port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
};

HttpServer::HttpServer(std::string bind_address, uint16_t port, HttpServerOptions options,
                       Handler handler, FaultHandler on_fault)
    : impl_(std::make_unique<Impl>(std::move(bind_address), port, std::move(options),
                                   std::move(handler), std::move(on_fault))) {}
HttpServer::~HttpServer() = default;
bool HttpServer::Start(std::string* error) { return impl_->Start(error); }
uint16_t HttpServer::port() const { return impl_->port(); }
uint64_t HttpServer::accept_failures() const { return impl_->accept_failures(); }
uint64_t HttpServer::refused_connections() const { return impl_->refused_connections(); }
void HttpServer::Stop() { impl_->Stop(); }

}  // namespace hbemu::server
