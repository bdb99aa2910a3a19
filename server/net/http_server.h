#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hbemu::server {

// One request as the HTTP server read it.
struct HttpRequest {
  std::string method;  // "GET", "PUT", ... as sent
  std::string target;  // raw request target: path and query, still percent-encoded
  // Header fields in arrival order, names as sent (compare them case-insensitively: Header()).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool loopback_peer = false;  // the peer connected from this machine
  std::string peer;            // the peer's address and port ("127.0.0.1:5123")
  // The first value of header `name` (case-insensitive), or "" when absent.
  std::string Header(std::string_view name) const;
  bool HasHeader(std::string_view name) const;
};

// What a handler answers.
struct HttpResponse {
  int status = 200;
  std::string content_type;  // empty: no Content-Type header
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers (Location, ...)
  // Close the connection without answering (the test controls' close faults).
  bool close_without_reply = false;
};

// Requests Beast refused before a handler could see them.
enum class HttpFault {
  kHeaderTooLarge,  // headers beyond header_limit
  kBodyTooLarge,    // body beyond body_limit
  kMalformed,       // not HTTP/1.x
  kHandlerFailed,   // the handler threw
};

struct HttpServerOptions {
  std::string log_name = "http";  // the [tag] of its log lines
  size_t header_limit = 16 * 1024;
  size_t body_limit = 64 * 1024;
  // A request not all arrived this long after the previous one (or the connection) closes it.
  std::chrono::milliseconds idle_timeout{30000};
  // Threads running handlers. Each connection's requests run one at a time in order; with more
  // than one thread, different connections' handlers run at once.
  int threads = 1;
  // Open connections past which a new one is closed at accept; 0: no limit.
  int64_t max_connections = 0;
};

// A small HTTP/1.1 server (Boost.Beast) shared by the HTTP doors (the admin console, the REST
// gateway): the listening, connection handling, size limits and timeouts, and nothing about
// what the requests mean. Each door's handler decides everything else (Host checks, methods).
// A HEAD request is answered like a GET with the body left out (its Content-Length kept).
// Connections are kept alive as the client asks.
//
// Start and Stop are called from one controlling thread; Start at most once.
class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;
  using FaultHandler = std::function<HttpResponse(HttpFault)>;

  HttpServer(std::string bind_address, uint16_t port, HttpServerOptions options, Handler handler,
             FaultHandler on_fault);
  ~HttpServer();  // calls Stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; false with *error set when it cannot.
  bool Start(std::string* error);
  // The bound port (useful after asking for port 0). Valid after a successful Start.
  uint16_t port() const;
  // Accepts that failed (out of descriptors, ...); each is retried after a pause that doubles
  // from 10 ms to 1 s, so a full descriptor table does not spin the server's thread.
  uint64_t accept_failures() const;
  // Connections closed at accept because max_connections were open.
  uint64_t refused_connections() const;
  // Stops serving and joins the threads; the port is free when it returns. Idempotent.
  void Stop();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hbemu::server
