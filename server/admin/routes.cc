// Console::Handle: which URL shows what, and how bad requests are answered.

#include <map>

#include "server/admin/console.h"
#include "server/admin/pages.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

constexpr char kJson[] = "application/json";
constexpr char kText[] = "text/plain; charset=utf-8";

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
  query.markers = markers == "1" || markers == "true" || markers == "on";
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

}  // namespace

HttpReply Console::Handle(const std::string& method, const std::string& target) {
  (void)method;  // the HTTP server lets only GET and HEAD through
  const size_t question = target.find('?');
  const std::string path = target.substr(0, question);
  const std::string query_text = question == std::string::npos ? "" : target.substr(question + 1);
  const bool api = StartsWith(path, "/api/");
  try {
    const auto query = ParseQuery(query_text);
    if (path == "/health") return {200, kText, "ok\n"};
    // Serving requests at all means the store is open and both ports listen (main starts the
    // console last).
    if (path == "/ready") return {200, kText, "ready\n"};
    if (path == "/metrics") {
      return {200, "text/plain; version=0.0.4; charset=utf-8", PrometheusText()};
    }
    if (path == "/" || path == "/index.html") return {200, "text/html; charset=utf-8", RenderOverviewPage(Overview())};
    if (path == "/tables") return {200, "text/html; charset=utf-8", RenderTablesPage(Tables())};
    if (StartsWith(path, "/table/")) {
      return {200, "text/html; charset=utf-8", RenderTablePage(Table(TableFromPath(path.substr(7)), BucketSpecOf(query)))};
    }
    if (StartsWith(path, "/browse/")) {
      const std::string name = TableFromPath(path.substr(8));
      auto it = query.find("format");
      const std::string format = it == query.end() || it->second.empty() ? "text" : it->second;
      if (format != "text" && format != "hex" && format != "long") {
        throw RequestError{400, "format must be text, hex or long"};
      }
      return {200, "text/html; charset=utf-8", RenderBrowsePage(Rows(name, BrowseQueryOf(query)), format)};
    }
    if (path == "/api/overview") return {200, kJson, Overview().dump(2)};
    if (path == "/api/tables") return {200, kJson, Tables().dump(2)};
    if (StartsWith(path, "/api/tables/")) {
      std::string rest = path.substr(12);
      const std::string rows_suffix = "/rows";
      if (rest.size() > rows_suffix.size() &&
          rest.compare(rest.size() - rows_suffix.size(), rows_suffix.size(), rows_suffix) == 0) {
        rest.resize(rest.size() - rows_suffix.size());
        return {200, kJson, Rows(TableFromPath(rest), BrowseQueryOf(query)).dump(2)};
      }
      return {200, kJson, Table(TableFromPath(rest), BucketSpecOf(query)).dump(2)};
    }
    throw RequestError{404, "no page at " + path};
  } catch (const RequestError& e) {
    if (api) return {e.status, kJson, json{{"error", e.message}, {"status", e.status}}.dump()};
    return {e.status, "text/html; charset=utf-8", RenderErrorPage(e.status, e.message)};
  } catch (const nlohmann::json::exception& e) {
    // A document that cannot be serialised (bytes that are not UTF-8 in a name).
    return {500, "text/html; charset=utf-8", RenderErrorPage(500, e.what())};
  }
}

}  // namespace hbemu::server::admin
