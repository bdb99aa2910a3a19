#pragma once

#include <string_view>
#include <vector>

namespace hbemu::server::admin {

// The methods each service's IDL declares (thrift/Hbase.thrift for "thrift1",
// thrift/THBaseService.thrift for "thrift2"), and the REST door's calls ("rest": "GET /table/row"
// and the like, an HTTP method and the shape of a path). Metrics keep a series per known method only: the
// name in a call message is whatever the client sent, and a series per made-up name would let
// any client grow the server's memory and /metrics without bound.
bool IsKnownMethod(std::string_view service, std::string_view method);

// Every method `service` declares, sorted (empty for a service that is neither).
std::vector<std::string_view> KnownMethods(std::string_view service);

// The one series every other name is counted under.
inline constexpr std::string_view kUnknownMethod = "unknown";

}  // namespace hbemu::server::admin
