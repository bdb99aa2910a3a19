#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/admin/http_server.h"

namespace hbemu::server::control {

// One request to a control: what a route handler gets.
struct ControlRequest {
  std::string method;                         // "GET" or "POST"
  std::string path;                           // e.g. "/control/clock/advance"
  std::map<std::string, std::string> query;   // percent-decoded ?a=b&c=d
  nlohmann::json body;                        // the POST body parsed as JSON ({} when empty)

  // Body (then query) field `key`, or `fallback` when absent; a field of the wrong JSON type is
  // a 400 (ControlError), so handlers need no checks of their own.
  std::string String(const char* key, const std::string& fallback = "") const;
  int64_t Int(const char* key, int64_t fallback) const;
  double Number(const char* key, double fallback) const;
  bool Bool(const char* key, bool fallback) const;
  bool Has(const char* key) const;
};

// Thrown by a handler for a request it refuses; answered as {"error": message, "status": status}.
struct ControlError {
  int status;
  std::string message;
};

// A route's answer: the JSON document sent with status 200.
using ControlHandler = std::function<nlohmann::json(const ControlRequest&)>;

// The table of control routes. Each control module registers its routes once, before the
// server starts (server/control/register.cc); lookups after that are read-only, so requests
// need no lock. GET lists or reads, POST changes: a GET route never changes state.
class ControlRoutes {
 public:
  // `method` is "GET" or "POST"; `path` is exact ("/control/clock") or ends in "/*" to take
  // every path below it (the rest is the handler's to read from request.path).
  void Add(const std::string& method, const std::string& path, ControlHandler handler);

  // Answers one HTTP request (the admin HTTP server's control handler). Refuses callers that
  // are not on this machine unless `allow_remote`.
  admin::HttpReply Handle(const std::string& method, const std::string& target,
                          const std::string& body, bool loopback_peer, bool allow_remote) const;

  // "METHOD path" of every route, for GET /control/.
  std::vector<std::string> List() const;

 private:
  struct Route {
    std::string method;
    std::string path;
    bool prefix = false;
    ControlHandler handler;
  };
  std::vector<Route> routes_;
};

// JSON text with a trailing newline (what every control answers).
std::string ControlJson(const nlohmann::json& doc);

}  // namespace hbemu::server::control
