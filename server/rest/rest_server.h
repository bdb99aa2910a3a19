#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "server/net/http_server.h"

namespace hbemu::server {
class CallGate;
class RestCounters;
namespace admin {
class Metrics;
}
}

namespace hbemu::server::rest {

class RestService;

// The REST door: HBase's gateway paths over the shared HTTP server, with the rules a data door
// on loopback needs against web pages (server/net/browser_requests.h):
//  - a request whose Host is not a name of this server is refused (403), whatever it asks;
//  - a PUT, POST or DELETE that carries a foreign Origin is refused (403);
//  - a body in a type a cross-site form can send without a preflight (text/plain, form
//    encodings) is refused with 415, as HBase's gateway refuses those types too.
// Headers are bounded by http_header_bytes (431; Jetty's 65,534 bytes, as for Thrift over HTTP)
// and bodies by message_bytes (413); see server/limits.h.
class RestServer {
 public:
  // `counters` (may be null) counts calls by endpoint; its names are EndpointName's, in
  // Endpoint order (MakeRestCounters).
  RestServer(std::string bind_address, uint16_t port, RestService* service,
             RestCounters* counters, std::vector<std::string> allowed_hosts);
  ~RestServer();
  RestServer(const RestServer&) = delete;
  RestServer& operator=(const RestServer&) = delete;

  // Before Start. Calls (past the door's Host and web-page checks) go through `gate` (the test
  // controls' faults and call log; null: none) and are counted in `metrics` by RestMethodName
  // (null: not counted), their rows read and written in its heat map.
  void SetCallGate(CallGate* gate);
  void SetMetrics(admin::Metrics* metrics);

  bool Start(std::string* error);
  uint16_t port() const;
  uint64_t refused_connections() const;
  void Stop();

  // The request as the door answers it (no network): the tests' way in.
  HttpResponse Handle(const HttpRequest& request);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Counters with one series per REST endpoint.
std::unique_ptr<RestCounters> MakeRestCounters();

}  // namespace hbemu::server::rest
