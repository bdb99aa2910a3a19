#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
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
class RestCounters;
class ScannerRegistry;
struct WireStats;
}  // namespace hbemu::server

namespace hbemu::server::admin {

class TableCounts;
struct Nav;

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
  const storage::Store* store = nullptr;
  Metrics* metrics = nullptr;
  std::string version;
  std::string data_dir;  // shown unless in_memory
  bool in_memory = false;
  std::string bind_address;        // the Thrift ports'
  std::string admin_bind_address;  // this console's; the Thrift one when empty
  uint16_t admin_port = 0;
  std::vector<ServicePort> services;
  int64_t started_unix_ms = 0;  // wall clock, for "up since"
  // With --test-controls: Prometheus lines appended to /metrics (triggered faults), and a test
  // control's GET answer by its target ("/control/clock", "/control/calls?table=t&errors=1"),
  // so the test-control pages show exactly what the /control/ JSON API answers.
  std::function<std::string()> control_metrics;
  std::function<HttpReply(const std::string& target)> control_get;
  // Connections the admin port closed at accept (HttpServer::refused_connections), shown in
  // /metrics beside the Thrift ports'; unset: none shown.
  std::function<uint64_t()> admin_refused_connections;
  // REST calls by endpoint, published by the REST door; null without one.
  const RestCounters* rest_counters = nullptr;
  // What main alone knows for the configuration page (configuration.h).
  nlohmann::json configuration = nlohmann::json::object();
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
//   /browse/<name>?start=&prefix=&cursor=&limit=&format=text|hex|long&markers=1
//                           data browser        /api/tables/<name>/rows?...
//   /config                 the configuration in force  /api/config
//   with --test-controls, each rendering its /control/ twin's answer:
//   /calls?table=&method=&errors=1   recent calls (/control/calls), newest first
//   /errors                 the same, errors only
//   /clock, /faults, /snapshots      /control/clock, /control/faults, /control/snapshots
//
// What one request costs is bounded by server/limits.h: a page or API answer stops adding
// cells (or tables) once it would pass admin_page_bytes, and says where it stopped; a browse page
// reads at most admin_page_cells cells, cutting a row if it must; values, row keys and
// qualifiers show their first admin_value_bytes bytes and their full length; /tables counts
// stored cells up to admin_count_cells per request and remembers the counts (table_counts.h).
class Console {
 public:
  explicit Console(ConsoleSources sources);
  ~Console();

  HttpReply Handle(const std::string& method, const std::string& target);
  // The admin port once bound (sources.admin_port may have been 0). Before serving only.
  void SetAdminPort(uint16_t port) { sources_.admin_port = port; }

  // The bytes an item takes in the output being built (an API answer or a page); the console
  // adds items to a document until the next one would pass admin_page_bytes.
  using Measure = std::function<size_t(const nlohmann::json& item)>;

  // The JSON documents (exposed for tests). On a bad request they throw RequestError.
  nlohmann::json Overview() const;
  // `measure` sizes one entry of "tables" (null: as the API prints it).
  nlohmann::json Tables(const Measure& measure = nullptr) const;
  // `spec`: how the heat map groups row keys into buckets (the first byte by default).
  nlohmann::json Table(const std::string& name, const BucketSpec& spec = BucketSpec()) const;
  struct BrowseQuery {
    std::string start;
    std::string prefix;
    std::string cursor;  // hex of a position where the previous page stopped ("next_cursor")
    size_t limit = 20;   // rows
    bool markers = false;
    // Delete markers and no puts (markers=only): what an export adds to the cells a Thrift
    // scan returns, without sending every value again.
    bool markers_only = false;
  };
  // Sizes one cell of a browse page: `row` is its row without the cells, `first` whether the
  // cell is the first shown of that row.
  using CellMeasure = std::function<size_t(const nlohmann::json& row, const nlohmann::json& cell,
                                           bool first)>;
  // `measure` null: cells sized as the API prints them.
  nlohmann::json Rows(const std::string& name, const BrowseQuery& query,
                      const CellMeasure& measure = nullptr) const;
  // The configuration in force: main's part (sources.configuration), the ports ("doors") as
  // bound, the limits with their defaults, the test controls' state.
  nlohmann::json Configuration() const;
  std::string PrometheusText() const;

  // A request the console refuses; becomes a 4xx page or JSON error.
  struct RequestError {
    int status;
    std::string message;
  };

 private:
  HttpReply Route(const std::string& path, const std::map<std::string, std::string>& query) const;
  // The test-control pages; RequestError 404 without --test-controls.
  HttpReply ControlPage(const std::string& path,
                        const std::map<std::string, std::string>& query) const;
  nlohmann::json ControlGet(const std::string& target) const;
  Nav NavOf() const;
  nlohmann::json TableSummary(const std::string& name, size_t region_budget) const;
  // Tells the metrics which tables exist (dropped tables' series go) and their regions.
  void RefreshTables() const;

  ConsoleSources sources_;
  std::unique_ptr<TableCounts> counts_;
};

// The bytes `item` takes in JSON printed with dump(2) at nesting `depth` (its first line
// indented by the caller).
size_t PrettySize(const nlohmann::json& item, int depth);
// JSON text of a document; bytes that are not UTF-8 come out as U+FFFD instead of failing.
std::string JsonText(const nlohmann::json& doc, int indent = 2);
// The first `max_bytes` bytes of `bytes` (a shown value, key or qualifier).
std::string Clip(const std::string& bytes, size_t max_bytes);
// Lower-case or upper-case hex to bytes; false on odd length or a non-hex digit.
bool HexDecode(const std::string& hex, std::string* out);

// Helpers shared by the pages and the tests.
// Percent-decodes `text` ('+' is a space in queries); false on a malformed escape.
bool PercentDecode(const std::string& text, bool plus_is_space, std::string* out);
bool IsValidUtf8(const std::string& text);
// HBase's Bytes.toStringBinary: printable ASCII as is, every other byte as \xNN.
std::string ToStringBinary(const std::string& bytes);
std::string HexOf(const std::string& bytes);
// Percent-encodes a path segment or query value (every byte but A-Z a-z 0-9 - _ . ~).
std::string UrlEncode(const std::string& text);
std::string HtmlEscape(const std::string& text);
// A millisecond timestamp as "2026-11-25T06:00:00.123Z" (UTC).
std::string UtcDate(int64_t ms);

}  // namespace hbemu::server::admin
