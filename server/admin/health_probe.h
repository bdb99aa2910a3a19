#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace hbemu::server::admin {

// What asking a server's /ready found.
struct HealthProbeResult {
  bool ready = false;
  std::string message;  // one line for the health log: the answer, or why there was none
};

// GETs http://host:port/ready and calls the server ready only on a 200. Everything (connect,
// request, answer) must finish within `timeout`: a health check that hangs is itself unhealthy.
// `host` is an address literal or a name to resolve.
HealthProbeResult ProbeReady(const std::string& host, uint16_t port,
                             std::chrono::milliseconds timeout);

// Where to ask a server that binds its admin console on `bind_address`: a wildcard address is
// reached through loopback of the same family, any other address as it is.
std::string ProbeHostFor(const std::string& bind_address);

}  // namespace hbemu::server::admin
