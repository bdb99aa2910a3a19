#include "server/rest/router.h"

namespace hbemu::server::rest {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t begin = 0;
  while (true) {
    const size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

// Routes under /T/: the names after the table (first still encoded).
Endpoint TableEndpoint(std::string_view rest, std::string* scanner_id, bool* ok) {
  if (rest == "schema") return Endpoint::kSchema;
  if (rest == "regions") return Endpoint::kRegions;
  if (rest == "exists") return Endpoint::kExists;
  if (rest == "scanner") return Endpoint::kScanners;
  if (rest.substr(0, 8) == "scanner/" && rest.find('/', 8) == std::string_view::npos &&
      rest.size() > 8) {
    *ok = PercentDecode(rest.substr(8), false, scanner_id);
    return Endpoint::kScanner;
  }
  // HBase matches "multiget" as a prefix of the path: /T/multiget and /T/multigetx alike.
  if (rest.substr(0, 8) == "multiget") return Endpoint::kMultiget;
  if (!rest.empty() && rest.back() == '*') return Endpoint::kTableScan;
  if (rest.empty()) return Endpoint::kUnknown;
  // A '*' elsewhere is a row path only as a glob followed by columns ("PREFIX*/COLUMNS"):
  // Jersey matches no resource for "a*b" or "a*/".
  if (rest.find('*') != std::string_view::npos) {
    const size_t glob = rest.rfind("*/");
    if (glob == std::string_view::npos || glob + 2 >= rest.size()) return Endpoint::kUnknown;
  }
  return Endpoint::kRow;
}

}  // namespace

const char* EndpointName(Endpoint endpoint) {
  switch (endpoint) {
    case Endpoint::kVersion: return "version";
    case Endpoint::kClusterVersion: return "version_cluster";
    case Endpoint::kClusterStatus: return "status_cluster";
    case Endpoint::kTables: return "tables";
    case Endpoint::kNamespaces: return "namespaces";
    case Endpoint::kNamespace: return "namespace";
    case Endpoint::kNamespaceTables: return "namespace_tables";
    case Endpoint::kSchema: return "schema";
    case Endpoint::kRegions: return "regions";
    case Endpoint::kExists: return "exists";
    case Endpoint::kMultiget: return "multiget";
    case Endpoint::kTableScan: return "table_scan";
    case Endpoint::kScanners: return "scanner_open";
    case Endpoint::kScanner: return "scanner";
    case Endpoint::kRow: return "row";
    case Endpoint::kUnknown: break;
  }
  return "unknown";
}

namespace {

const char* PathShape(Endpoint endpoint) {
  switch (endpoint) {
    case Endpoint::kVersion: return "/version";
    case Endpoint::kClusterVersion: return "/version/cluster";
    case Endpoint::kClusterStatus: return "/status/cluster";
    case Endpoint::kTables: return "/";
    case Endpoint::kNamespaces: return "/namespaces";
    case Endpoint::kNamespace: return "/namespaces/ns";
    case Endpoint::kNamespaceTables: return "/namespaces/ns/tables";
    case Endpoint::kSchema: return "/table/schema";
    case Endpoint::kRegions: return "/table/regions";
    case Endpoint::kExists: return "/table/exists";
    case Endpoint::kMultiget: return "/table/multiget";
    case Endpoint::kTableScan: return "/table/prefix*";
    case Endpoint::kScanners: return "/table/scanner";
    case Endpoint::kScanner: return "/table/scanner/id";
    case Endpoint::kRow: return "/table/row";
    case Endpoint::kUnknown: break;
  }
  return "/unknown";
}

}  // namespace

std::string RestMethodName(std::string_view http_method, Endpoint endpoint) {
  const std::string_view method = http_method == "HEAD" ? std::string_view("GET") : http_method;
  return std::string(method) + " " + PathShape(endpoint);
}

const std::string* Route::Param(std::string_view name) const {
  for (const auto& [key, value] : query) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::vector<std::string> Route::Params(std::string_view name) const {
  std::vector<std::string> values;
  for (const auto& [key, value] : query) {
    if (key == name) values.push_back(value);
  }
  return values;
}

bool PercentDecode(std::string_view text, bool plus_is_space, std::string* out) {
  out->clear();
  out->reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return false;
      const int high = HexValue(text[i + 1]);
      const int low = HexValue(text[i + 2]);
      if (high < 0 || low < 0) return false;
      out->push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out->push_back(' ');
    } else {
      out->push_back(c);
    }
  }
  return true;
}

Route ParseTarget(std::string_view target) {
  Route route;
  const size_t question = target.find('?');
  std::string_view path = target.substr(0, question);
  if (question != std::string_view::npos) {
    for (std::string_view pair : Split(target.substr(question + 1), '&')) {
      if (pair.empty()) continue;
      const size_t eq = pair.find('=');
      std::string key;
      std::string value;
      if (!PercentDecode(pair.substr(0, eq), true, &key) ||
          (eq != std::string_view::npos && !PercentDecode(pair.substr(eq + 1), true, &value))) {
        return route;
      }
      route.query.emplace_back(std::move(key), std::move(value));
    }
  }
  if (path.empty() || path.front() != '/') return route;
  path.remove_prefix(1);
  if (path.empty()) {
    route.endpoint = Endpoint::kTables;
    return route;
  }
  if (path == "version" || path == "version/rest") {
    route.endpoint = Endpoint::kVersion;
    return route;
  }
  if (path == "version/cluster") {
    route.endpoint = Endpoint::kClusterVersion;
    return route;
  }
  if (path == "status/cluster") {
    route.endpoint = Endpoint::kClusterStatus;
    return route;
  }
  const size_t slash = path.find('/');
  const std::string_view first = path.substr(0, slash);
  const std::string_view rest =
      slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  if (first == "namespaces") {
    if (slash == std::string_view::npos) {
      route.endpoint = Endpoint::kNamespaces;
      return route;
    }
    const auto parts = Split(rest, '/');
    if (parts[0].empty() || !PercentDecode(parts[0], false, &route.name_space)) return route;
    if (parts.size() == 1) {
      route.endpoint = Endpoint::kNamespace;
    } else if (parts.size() == 2 && parts[1] == "tables") {
      route.endpoint = Endpoint::kNamespaceTables;
    }
    return route;
  }
  if (first.empty() || !PercentDecode(first, false, &route.table)) return route;
  if (slash == std::string_view::npos) return route;  // /T alone: no resource
  bool ok = true;
  const Endpoint endpoint = TableEndpoint(rest, &route.scanner_id, &ok);
  if (!ok) return route;
  route.endpoint = endpoint;
  if (endpoint == Endpoint::kRow || endpoint == Endpoint::kTableScan) {
    route.row_spec = std::string(rest);
  }
  return route;
}

}  // namespace hbemu::server::rest
