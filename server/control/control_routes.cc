#include "server/control/control_routes.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "server/admin/console.h"

namespace hbemu::server::control {
namespace {

using nlohmann::json;

constexpr char kJson[] = "application/json";

admin::HttpReply ErrorReply(int status, const std::string& message) {
  return {status, kJson, ControlJson(json{{"error", message}, {"status", status}})};
}

std::map<std::string, std::string> ParseQuery(const std::string& query) {
  std::map<std::string, std::string> out;
  size_t pos = 0;
  while (!query.empty() && pos <= query.size()) {
    const size_t amp = query.find('&', pos);
    const std::string part = query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    if (!part.empty()) {
      const size_t eq = part.find('=');
      std::string key, value;
      if (!admin::PercentDecode(part.substr(0, eq), true, &key) ||
          !admin::PercentDecode(eq == std::string::npos ? "" : part.substr(eq + 1), true, &value)) {
        throw ControlError{400, "malformed percent-encoding in the query string"};
      }
      out[key] = value;
    }
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return out;
}

const json* Field(const ControlRequest& r, const char* key) {
  if (r.body.is_object()) {
    auto it = r.body.find(key);
    if (it != r.body.end() && !it->is_null()) return &*it;
  }
  return nullptr;
}

const std::string* QueryField(const ControlRequest& r, const char* key) {
  auto it = r.query.find(key);
  return it == r.query.end() ? nullptr : &it->second;
}

[[noreturn]] void BadField(const char* key, const char* want) {
  throw ControlError{400, std::string("\"") + key + "\" must be " + want};
}

}  // namespace

std::string ControlJson(const json& doc) { return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }

bool ControlRequest::Has(const char* key) const {
  return Field(*this, key) != nullptr || QueryField(*this, key) != nullptr;
}

std::string ControlRequest::String(const char* key, const std::string& fallback) const {
  if (const json* v = Field(*this, key)) {
    if (!v->is_string()) BadField(key, "a string");
    return v->get<std::string>();
  }
  if (const std::string* q = QueryField(*this, key)) return *q;
  return fallback;
}

double ControlRequest::Number(const char* key, double fallback) const {
  if (const json* v = Field(*this, key)) {
    if (!v->is_number()) BadField(key, "a number");
    return v->get<double>();
  }
  if (const std::string* q = QueryField(*this, key)) {
    try {
      size_t used = 0;
      const double d = std::stod(*q, &used);
      if (used == q->size() && std::isfinite(d)) return d;
    } catch (const std::exception&) {
    }
    BadField(key, "a number");
  }
  return fallback;
}

int64_t ControlRequest::Int(const char* key, int64_t fallback) const {
  if (!Has(key)) return fallback;
  // JSON and query integers are read exactly: through a double, 2^53 + 1 would be another time.
  if (const json* v = Field(*this, key)) {
    if (v->is_number_unsigned()) {
      if (v->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) BadField(key, "a whole number below 2^63");
      return static_cast<int64_t>(v->get<uint64_t>());
    }
    if (v->is_number_integer()) return v->get<int64_t>();
  } else if (const std::string* q = QueryField(*this, key)) {
    errno = 0;
    char* end = nullptr;
    const long long n = std::strtoll(q->c_str(), &end, 10);
    if (!q->empty() && end == q->c_str() + q->size()) {
      if (errno == ERANGE) BadField(key, "a whole number below 2^63");
      return n;
    }
  }
  // 1e3 or 5.0: whole, and well inside int64 (a double near 2^63 does not convert exactly).
  const double d = Number(key, 0);
  if (d != std::floor(d) || std::fabs(d) > 9.0e18) BadField(key, "a whole number");
  return static_cast<int64_t>(d);
}

bool ControlRequest::Bool(const char* key, bool fallback) const {
  if (const json* v = Field(*this, key)) {
    if (!v->is_boolean()) BadField(key, "true or false");
    return v->get<bool>();
  }
  if (const std::string* q = QueryField(*this, key)) {
    if (*q == "1" || *q == "true") return true;
    if (*q == "0" || *q == "false") return false;
    BadField(key, "true or false");
  }
  return fallback;
}

void ControlRoutes::Add(const std::string& method, const std::string& path, ControlHandler handler) {
  Route route{method, path, false, std::move(handler)};
  if (path.size() >= 2 && path.compare(path.size() - 2, 2, "/*") == 0) {
    route.path.resize(path.size() - 1);  // keeps the slash: "/control/x/" matches below it
    route.prefix = true;
  }
  routes_.push_back(std::move(route));
}

std::vector<std::string> ControlRoutes::List() const {
  std::vector<std::string> out;
  for (const Route& r : routes_) out.push_back(r.method + " " + r.path + (r.prefix ? "*" : ""));
  return out;
}

admin::HttpReply ControlRoutes::Handle(const std::string& method, const std::string& target,
                                       const std::string& body, bool loopback_peer,
                                       bool allow_remote) const {
  if (!loopback_peer && !allow_remote) {
    return ErrorReply(403, "the test controls answer callers on this machine only "
                           "(--test-controls-remote lifts this)");
  }
  if (method != "GET" && method != "POST") {
    return ErrorReply(405, "the test controls take GET (read) and POST (change)");
  }
  const size_t question = target.find('?');
  ControlRequest request;
  request.method = method;
  request.path = target.substr(0, question);
  try {
    request.query = ParseQuery(question == std::string::npos ? "" : target.substr(question + 1));
    if (!body.empty()) {
      request.body = json::parse(body, nullptr, false);
      if (request.body.is_discarded() || !request.body.is_object()) {
        return ErrorReply(400, "the body must be a JSON object");
      }
    } else {
      request.body = json::object();
    }
    if (request.path == "/control" || request.path == "/control/") {
      if (method != "GET") return ErrorReply(405, "GET /control/ lists the routes");
      return {200, kJson, ControlJson(json{{"routes", List()}})};
    }
    bool path_known = false;
    for (const Route& r : routes_) {
      const bool match = r.prefix ? request.path.compare(0, r.path.size(), r.path) == 0
                                  : request.path == r.path;
      if (!match) continue;
      path_known = true;
      if (r.method != method) continue;
      return {200, kJson, ControlJson(r.handler(request))};
    }
    if (path_known) return ErrorReply(405, method + " is not a method of " + request.path);
    return ErrorReply(404, "no control at " + request.path + " (GET /control/ lists them)");
  } catch (const ControlError& e) {
    return ErrorReply(e.status, e.message);
  } catch (const json::exception& e) {
    return ErrorReply(400, e.what());
  }
}

}  // namespace hbemu::server::control
