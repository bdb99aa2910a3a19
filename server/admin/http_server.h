#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hbemu::server::admin {

// What a handler answers for one request.
struct HttpReply {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
};

// Called on the server's own thread, one request at a time. `target` is the raw request target
// (path and query, still percent-encoded).
using HttpHandler = std::function<HttpReply(const std::string& method, const std::string& target)>;

// A request under /control/ (the test controls, server/control/): any method, with its body
// and whether the peer connected from this machine.
using ControlHttpHandler = std::function<HttpReply(const std::string& method,
                                                   const std::string& target,
                                                   const std::string& body, bool loopback_peer)>;

// True for "/control" and every path under "/control/".
bool IsControlTarget(const std::string& target);

// The admin console's HTTP server (the shared server/net/http_server.h), on one thread of its
// own so a slow page never holds up a Thrift call. Requests are read with bounded headers
// (Limits::admin_header_bytes) and bodies (admin_body_bytes); what Beast refuses is answered
// with 431, 413 or 400 before the handler sees
// it, and only GET and HEAD reach the handler (405 otherwise): the console never changes data.
// The one exception is /control/, which only a control handler answers (404 without one); a
// control request other than GET must be JSON and not from a foreign page (415, 403). A request
// whose Host is not a name of this server is refused (403) whatever its path.
// Connections are kept alive as the client asks, and closed when a request has not all arrived
// admin_request_timeout_ms after the last one (however steadily its bytes trickle in). Past Limits::connections open
// at once, a new connection is closed as soon as it is accepted.
//
// Start and Stop are called from one controlling thread; Start at most once.
class HttpServer {
 public:
  HttpServer(std::string bind_address, uint16_t port, HttpHandler handler);
  ~HttpServer();  // calls Stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Serves /control/ with `handler` (before Start).
  void SetControlHandler(ControlHttpHandler handler);
  // Host names (--allowed-hosts) accepted in requests' Host header besides the ones every door
  // accepts (see server/net/browser_requests.h), before Start.
  void SetAllowedHosts(std::vector<std::string> names);
  // Binds and listens; false with *error set when it cannot.
  bool Start(std::string* error);
  // The bound port (useful after asking for port 0). Valid after a successful Start.
  uint16_t port() const;
  // Accepts that failed (out of descriptors, ...); each is retried after a pause that doubles
  // from 10 ms to 1 s, so a full descriptor table does not spin the server's thread.
  uint64_t accept_failures() const;
  // Connections closed at accept because Limits::connections were open (read at Start).
  uint64_t refused_connections() const;
  // Stops serving and joins the thread; the port is free when it returns. Connections still
  // open are closed when the object is destroyed. Idempotent.
  void Stop();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hbemu::server::admin
