#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hbemu::server::rest {

// The resources of HBase 2.6.1's REST gateway, by the path that reaches them.
enum class Endpoint {
  kVersion,          // /version, /version/rest
  kClusterVersion,   // /version/cluster
  kClusterStatus,    // /status/cluster
  kTables,           // /
  kNamespaces,       // /namespaces
  kNamespace,        // /namespaces/NS
  kNamespaceTables,  // /namespaces/NS/tables
  kSchema,           // /T/schema
  kRegions,          // /T/regions
  kExists,           // /T/exists
  kMultiget,         // /T/multiget?row=..
  kTableScan,        // /T/PREFIX*  (the stateless scan)
  kScanners,         // /T/scanner
  kScanner,          // /T/scanner/ID
  kRow,              // /T/ROW[/COLUMNS[/TIMESTAMPS]]
  kUnknown,          // no resource: 404
};
inline constexpr int kEndpointCount = static_cast<int>(Endpoint::kUnknown) + 1;

// A short stable name per endpoint, for /metrics ("row", "schema", ...).
const char* EndpointName(Endpoint endpoint);

// The name a call goes by in the test controls (fault rules, the call log) and the per-method
// metrics: the HTTP method (HEAD as GET) and the shape of the path, "GET /table/row",
// "PUT /table/scanner", "GET /table/prefix*" (the stateless scan). Every name a resource serves
// is one of admin::KnownMethods("rest").
std::string RestMethodName(std::string_view http_method, Endpoint endpoint);

// A request target taken apart: the endpoint, the names in its path (percent-decoded), and the
// query parameters (decoded, '+' taken as a space, in order).
struct Route {
  Endpoint endpoint = Endpoint::kUnknown;
  std::string table;       // T, as in the path ("ns:t" for a table of another namespace)
  std::string name_space;  // NS of /namespaces/NS
  std::string scanner_id;  // ID of /T/scanner/ID
  // For kRow and kTableScan: the path after "/T/", still percent-encoded, as HBase's row
  // specification parser reads it (a '/' or ',' decoded from %2F/%2C is part of a key).
  std::string row_spec;
  std::vector<std::pair<std::string, std::string>> query;

  // The first value of query parameter `name`, or nullptr.
  const std::string* Param(std::string_view name) const;
  // Every value of query parameter `name`, in order.
  std::vector<std::string> Params(std::string_view name) const;
};

// Decodes %XX escapes; false for a malformed escape. `plus_is_space` for query strings.
bool PercentDecode(std::string_view text, bool plus_is_space, std::string* out);

// Maps a request target (path and query, as sent) onto a Route. A target whose escapes are
// malformed maps to kUnknown.
Route ParseTarget(std::string_view target);

}  // namespace hbemu::server::rest
