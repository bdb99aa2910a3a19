// Console::Handle: which URL shows what, and how bad requests are answered.

#include <map>

#include "server/admin/console.h"
#include "server/admin/pages.h"
#include "server/limits.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

constexpr char kJson[] = "application/json";
constexpr char kText[] = "text/plain; charset=utf-8";
constexpr char kHtml[] = "text/html; charset=utf-8";
// Calls one /calls page shows (the newest that match).
constexpr int kCallsPerPage = 500;

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Query parameters, percent-decoded; a malformed escape is a 400.
std::map<std::string, std::string> ParseQuery(const std::string& query) {
  std::map<std::string, std::string> out;
  size_t pos = 0;
  while (pos <= query.size() && !query.empty()) {
    const size_t amp = query.find('&', pos);
    const std::string part = query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    if (!part.empty()) {
      const size_t eq = part.find('=');
      std::string key, value;
      if (!PercentDecode(part.substr(0, eq), true, &key) ||
          !PercentDecode(eq == std::string::npos ? "" : part.substr(eq + 1), true, &value)) {
        throw Console::RequestError{400, "malformed percent-encoding in the query string"};
      }
      out[key] = value;
    }
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return out;
}

// A decoded path segment that names a table: UTF-8 text.
std::string TableFromPath(const std::string& encoded) {
  std::string name;
  if (encoded.empty() || !PercentDecode(encoded, false, &name)) {
    throw Console::RequestError{400, "malformed table name in the path"};
  }
  if (!IsValidUtf8(name)) throw Console::RequestError{400, "table names are UTF-8 text"};
  return name;
}

Console::BrowseQuery BrowseQueryOf(const std::map<std::string, std::string>& q) {
  Console::BrowseQuery query;
  auto get = [&](const char* key) {
    auto it = q.find(key);
    return it == q.end() ? std::string() : it->second;
  };
  query.start = get("start");
  query.prefix = get("prefix");
  query.cursor = get("cursor");
  // Row keys reach the console through URLs and forms, which carry text.
  if (!IsValidUtf8(query.start) || !IsValidUtf8(query.prefix)) {
    throw Console::RequestError{400, "start row and prefix must be UTF-8 text"};
  }
  const std::string limit = get("limit");
  if (!limit.empty()) {
    size_t used = 0;
    unsigned long v = 0;
    try {
      v = std::stoul(limit, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != limit.size() || v == 0) {
      throw Console::RequestError{400, "limit must be a positive number"};
    }
    query.limit = v;
  }
  const std::string markers = get("markers");
  query.markers_only = markers == "only";
  query.markers = query.markers_only || markers == "1" || markers == "true" || markers == "on";
  return query;
}

// The heat map's bucketing from ?prefix_bytes=&delimiter= (the table page and its JSON).
BucketSpec BucketSpecOf(const std::map<std::string, std::string>& q) {
  auto get = [&](const char* key) {
    auto it = q.find(key);
    return it == q.end() ? std::string() : it->second;
  };
  BucketSpec spec;
  std::string error;
  if (!ParseBucketSpec(get("prefix_bytes"), get("delimiter"), &spec, &error)) {
    throw Console::RequestError{400, error};
  }
  return spec;
}

// What an entry of /tables adds to the HTML page.
size_t TablesPageBytes(const json& entry) {
  if (!entry.contains("families")) return RenderNamespaceEntry(entry).size();
  return RenderTableListRow(entry).size() + RenderTableSection(entry).size();
}

// A body larger than admin_page_bytes is not sent: the documents keep within it by
// construction (lists end early and say so), so this only guards against a page nobody
// foresaw.
HttpReply Bounded(HttpReply reply, bool api, const Nav& nav) {
  const int64_t limit = CurrentLimits().admin_page_bytes;
  if (static_cast<int64_t>(reply.body.size()) <= limit) return reply;
  const std::string message = "this answer would be " + std::to_string(reply.body.size()) +
                              " bytes, over the admin_page_bytes limit (" + std::to_string(limit) +
                              "); --limit admin_page_bytes=N raises it";
  if (api) return {507, kJson, JsonText(json{{"error", message}, {"status", 507}})};
  return {507, kHtml, RenderErrorPage(507, message, nav)};
}

}  // namespace

HttpReply Console::Handle(const std::string& method, const std::string& target) {
  (void)method;  // the HTTP server lets only GET and HEAD through
  const size_t question = target.find('?');
  const std::string path = target.substr(0, question);
  const std::string query_text = question == std::string::npos ? "" : target.substr(question + 1);
  const bool api = StartsWith(path, "/api/");
  const Nav nav = NavOf();
  try {
    return Bounded(Route(path, ParseQuery(query_text)), api, nav);
  } catch (const RequestError& e) {
    if (api) return {e.status, kJson, JsonText(json{{"error", e.message}, {"status", e.status}}, -1)};
    return {e.status, kHtml, RenderErrorPage(e.status, e.message, nav)};
  } catch (const nlohmann::json::exception& e) {
    // A page that does not match its document: a bug, not the request's fault.
    if (api) return {500, kJson, JsonText(json{{"error", e.what()}, {"status", 500}}, -1)};
    return {500, kHtml, RenderErrorPage(500, e.what(), nav)};
  }
}

HttpReply Console::Route(const std::string& path,
                         const std::map<std::string, std::string>& query) const {
  if (path == "/health") return {200, kText, "ok\n"};
  // Serving requests at all means the store is open and both ports listen (main starts the
  // console last).
  if (path == "/ready") return {200, kText, "ready\n"};
  if (path == "/metrics") return {200, "text/plain; version=0.0.4; charset=utf-8", PrometheusText()};
  const Nav nav = NavOf();
  if (path == "/" || path == "/index.html") return {200, kHtml, RenderOverviewPage(Overview(), nav)};
  if (path == "/tables") return {200, kHtml, RenderTablesPage(Tables(TablesPageBytes), nav)};
  if (StartsWith(path, "/table/")) {
    return {200, kHtml,
            RenderTablePage(Table(TableFromPath(path.substr(7)), BucketSpecOf(query)), nav)};
  }
  if (path == "/config") return {200, kHtml, RenderConfigPage(Configuration(), nav)};
  if (StartsWith(path, "/browse/")) {
    const std::string name = TableFromPath(path.substr(8));
    auto it = query.find("format");
    const std::string format = it == query.end() || it->second.empty() ? "text" : it->second;
    if (format != "text" && format != "hex" && format != "long") {
      throw RequestError{400, "format must be text, hex or long"};
    }
    const json rows = Rows(name, BrowseQueryOf(query),
                           [&format](const json& row, const json& cell, bool first) {
                             return RenderBrowseCell(row, cell, first, format).size();
                           });
    return {200, kHtml, RenderBrowsePage(rows, format, nav)};
  }
  if (path == "/calls" || path == "/errors" || path == "/clock" || path == "/faults" ||
      path == "/snapshots") {
    return ControlPage(path, query);
  }
  if (path == "/api/overview") return {200, kJson, JsonText(Overview())};
  if (path == "/api/config") return {200, kJson, JsonText(Configuration())};
  if (path == "/api/tables") return {200, kJson, JsonText(Tables())};
  if (StartsWith(path, "/api/tables/")) {
    std::string rest = path.substr(12);
    const std::string rows_suffix = "/rows";
    if (rest.size() > rows_suffix.size() &&
        rest.compare(rest.size() - rows_suffix.size(), rows_suffix.size(), rows_suffix) == 0) {
      rest.resize(rest.size() - rows_suffix.size());
      return {200, kJson, JsonText(Rows(TableFromPath(rest), BrowseQueryOf(query)))};
    }
    return {200, kJson, JsonText(Table(TableFromPath(rest), BucketSpecOf(query)))};
  }
  throw RequestError{404, "no page at " + path};
}

Nav Console::NavOf() const {
  Nav nav;
  nav.test_controls = static_cast<bool>(sources_.control_get);
  return nav;
}

json Console::ControlGet(const std::string& target) const {
  const HttpReply reply = sources_.control_get(target);
  json doc = json::parse(reply.body, nullptr, false);
  if (reply.status != 200 || doc.is_discarded()) {
    const std::string message = doc.is_object() && doc.contains("error") && doc["error"].is_string()
                                    ? doc["error"].get<std::string>()
                                    : reply.body;
    throw RequestError{reply.status == 200 ? 500 : reply.status, target + ": " + message};
  }
  return doc;
}

HttpReply Console::ControlPage(const std::string& path,
                               const std::map<std::string, std::string>& query) const {
  if (!sources_.control_get) {
    throw RequestError{404, path.substr(1) + " are shown with --test-controls only"};
  }
  const Nav nav = NavOf();
  if (path == "/clock") return {200, kHtml, RenderClockPage(ControlGet("/control/clock"), nav)};
  if (path == "/faults") return {200, kHtml, RenderFaultsPage(ControlGet("/control/faults"), nav)};
  if (path == "/snapshots") {
    return {200, kHtml, RenderSnapshotsPage(ControlGet("/control/snapshots"), nav)};
  }
  auto get = [&](const char* key) {
    auto it = query.find(key);
    return it == query.end() ? std::string() : it->second;
  };
  CallFilter filter;
  filter.table = get("table");
  filter.method = get("method");
  filter.errors_page = path == "/errors";
  const std::string errors = get("errors");
  filter.errors_only = filter.errors_page || errors == "1" || errors == "true" || errors == "on";
  // The newest calls that fit a page; the log itself keeps call_log_calls.
  std::string target = "/control/calls?limit=" + std::to_string(kCallsPerPage);
  if (!filter.table.empty()) target += "&table=" + UrlEncode(filter.table);
  if (!filter.method.empty()) target += "&method=" + UrlEncode(filter.method);
  if (filter.errors_only) target += "&errors=1";
  const json log = ControlGet(target);
  const json faults = ControlGet("/control/faults");
  return {200, kHtml, RenderCallsPage(log, faults, filter, nav)};
}

}  // namespace hbemu::server::admin
