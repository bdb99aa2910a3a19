#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/admin/bucketing.h"
#include "server/admin/http_server.h"
#include "server/admin/metrics.h"

namespace hbemu::storage {
class Store;
}

namespace hbemu::server {
class ScannerRegistry;
struct WireStats;
}  // namespace hbemu::server

namespace hbemu::server::admin {

// One Thrift port as the console shows it.
struct ServicePort {
  std::string name;  // "thrift1", "thrift2"
  uint16_t port = 0;
  std::string modes;  // what the server insists on, e.g. "any transport, any protocol"
  const WireStats* wire = nullptr;
  const ScannerRegistry* scanners = nullptr;
};

// What the console reads. Everything is borrowed and must outlive the Console.
struct ConsoleSources {
  storage::Store* store = nullptr;  // read only
  Metrics* metrics = nullptr;
  std::string version;
  std::string data_dir;  // shown unless in_memory
  bool in_memory = false;
  std::string bind_address;
  uint16_t admin_port = 0;
  std::vector<ServicePort> services;
  int64_t started_unix_ms = 0;  // wall clock, for "up since"
};

// The admin console: /metrics, /health, /ready, the JSON API under /api/ and the HTML pages,
// all built from the same JSON documents (the pages render what the API returns). It reads the
// store through its public read-only calls and never writes. Handle() is called on the admin
// HTTP server's thread.
//
//   /                       overview            /api/overview
//   /tables                 namespaces, tables  /api/tables
//   /table/<name>?prefix_bytes=1..4&delimiter=
//                           one table, heat map /api/tables/<name>?prefix_bytes=&delimiter=
//   /browse/<name>?start=&prefix=&limit=&format=text|hex|long&markers=1
//                           data browser        /api/tables/<name>/rows?...
class Console {
 public:
  explicit Console(ConsoleSources sources);

  HttpReply Handle(const std::string& method, const std::string& target);
  // The admin port once bound (sources.admin_port may have been 0). Before serving only.
  void SetAdminPort(uint16_t port) { sources_.admin_port = port; }

  // The JSON documents (exposed for tests). On a bad request they throw RequestError.
  nlohmann::json Overview() const;
  nlohmann::json Tables() const;
  // `spec`: how the heat map groups row keys into buckets (the first byte by default).
  nlohmann::json Table(const std::string& name, const BucketSpec& spec = BucketSpec()) const;
  struct BrowseQuery {
    std::string start;
    std::string prefix;
    size_t limit = 20;
    bool markers = false;
  };
  nlohmann::json Rows(const std::string& name, const BrowseQuery& query) const;
  std::string PrometheusText() const;

  // A request the console refuses; becomes a 4xx page or JSON error.
  struct RequestError {
    int status;
    std::string message;
  };

 private:
  nlohmann::json TableSummary(const std::string& name, bool with_counts) const;
  void RefreshRegions() const;

  ConsoleSources sources_;
};

// Helpers shared by the pages and the tests.
// Percent-decodes `text` ('+' is a space in queries); false on a malformed escape.
bool PercentDecode(const std::string& text, bool plus_is_space, std::string* out);
bool IsValidUtf8(const std::string& text);
// HBase's Bytes.toStringBinary: printable ASCII as is, every other byte as \xNN.
std::string ToStringBinary(const std::string& bytes);
std::string HexOf(const std::string& bytes);
std::string HtmlEscape(const std::string& text);
// A millisecond timestamp as "2026-11-25T06:00:00.123Z" (UTC).
std::string UtcDate(int64_t ms);

}  // namespace hbemu::server::admin
