#include "server/rest/rest_service.h"

#include "server/rest/jetty_error.h"

#include <utility>

#include "server/gateway/java_exceptions.h"
#include "server/rest/rest_scanners.h"
#include "server/limits.h"
#include "storage/store.h"

namespace hbemu::server::rest {
namespace {

constexpr const char* kCrLf = "\r\n";

bool IsRead(const std::string& method) { return method == "GET" || method == "HEAD"; }

}  // namespace

HttpResponse Plain(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  // HBase's empty answers carry no type.
  if (!body.empty()) response.content_type = "text/plain";
  response.body = std::move(body);
  return response;
}

HttpResponse NotFound(const std::string& detail) {
  return Plain(404, std::string("Not found") + kCrLf + detail);
}

HttpResponse BadRequest(const std::string& detail) {
  return Plain(400, std::string("Bad request") + kCrLf + detail);
}

HttpResponse Unavailable(const std::string& detail) {
  return Plain(503, std::string("Unavailable") + kCrLf + detail);
}

HttpResponse JavaExceptionAnswer(const std::string& java_class, const std::string& message) {
  const std::string detail = java_class + ": " + message + kCrLf;
  auto named = [&](std::string_view simple) {
    return java_class == simple ||
           (java_class.size() > simple.size() &&
            java_class.compare(java_class.size() - simple.size() - 1, std::string::npos,
                               "." + std::string(simple)) == 0);
  };
  if (named("TableNotFoundException") || named("NoSuchColumnFamilyException")) {
    return NotFound(detail);
  }
  for (std::string_view runtime :
       {"IllegalArgumentException", "IllegalStateException", "RuntimeException",
        "NullPointerException", "UnsupportedOperationException", "NumberFormatException"}) {
    if (named(runtime)) return BadRequest(detail);
  }
  return Unavailable(detail);
}

HttpResponse PastResultBytes() {
  return Unavailable("the rows found exceed the result_bytes limit of " +
                     std::to_string(CurrentLimits().result_bytes) +
                     " bytes (--limit result_bytes=N raises it)" + kCrLf);
}

HttpResponse MethodNotAllowed(const HttpRequest& request, const std::string& allow) {
  HttpResponse response = JettyError(request, 405, "Method Not Allowed");
  response.headers.emplace_back("Allow", allow);
  return response;
}

HttpResponse NotAcceptable(const HttpRequest& request) {
  return JettyError(request, 406, "Not Acceptable");
}

HttpResponse UnsupportedMediaType() {
  HttpResponse response;
  response.status = 415;
  return response;
}

HttpResponse Ok(std::string content_type, std::string body) {
  HttpResponse response;
  response.content_type = std::move(content_type);
  response.body = std::move(body);
  return response;
}

HttpResponse FromStatus(const storage::Status& status) {
  using Code = storage::Status::Code;
  const std::string detail =
      std::string(JavaExceptionClass(status)) + ": " + status.message() + kCrLf;
  switch (status.code()) {
    // Only these two: a NamespaceNotFoundException (creating a table in a missing namespace) is
    // one more IOException, 503.
    case Code::kTableNotFound:
    case Code::kNoSuchColumnFamily:
      return NotFound(detail);
    case Code::kInvalidArgument:
    case Code::kIncompatibleFilter:
    case Code::kInvalidFamilyOperation:
    case Code::kConstraint:
    case Code::kTableExists:
    case Code::kNamespaceExists:
      return BadRequest(detail);
    // Any other IOException (a DoNotRetryIOException such as "Field is not a long") is 503.
    case Code::kDoNotRetry:
    case Code::kNamespaceNotFound:
    case Code::kTableNotEnabled:
    case Code::kRegionTooBusy:
    case Code::kResultTooLarge:
    case Code::kRowTooBig:
      return Unavailable(detail);
    default:
      break;
  }
  return Plain(500, detail);
}

ResponseChoice Negotiate(const HttpRequest& request,
                         const std::vector<std::string_view>& produces) {
  ResponseChoice choice;
  auto chosen = NegotiateAccept(request.Header("Accept"), produces);
  if (!chosen) {
    choice.refusal = NotAcceptable(request);
    return choice;
  }
  choice.type = std::move(chosen->content_type);
  choice.rep = chosen->representation;
  return choice;
}

const std::vector<std::string_view>& CellSetTypes() {
  static const std::vector<std::string_view> types = {kTextXml, kJson, kProtobuf, kProtobufAlias};
  return types;
}

HttpResponse BodyRefusal(const BodyStatus& status) {
  if (status.http_status() == 415) return UnsupportedMediaType();
  if (status.answered_by_resource()) return BadRequest(status.message() + kCrLf);
  return Plain(status.http_status(), "");
}

bool ChooseRequest(const HttpRequest& request, Representation* rep, HttpResponse* refusal) {
  auto parsed = RepresentationOf(request.Header("Content-Type"));
  if (!parsed || *parsed == Representation::kText) {
    *refusal = UnsupportedMediaType();
    return false;
  }
  *rep = *parsed;
  return true;
}

RestService::RestService(storage::Store* store, RestServiceOptions options)
    : store_(store),
      options_(std::move(options)),
      scanners_(std::make_unique<RestScanners>(
          store->clock(), options_.scanner_timeout_ms,
          static_cast<size_t>(CurrentLimits().open_scanners))) {}

size_t RestService::open_scanners() const { return scanners_->size(); }

RestService::~RestService() = default;

HttpResponse RestService::Handle(const HttpRequest& request, const Route& route) {
  const std::string& method = request.method;
  // Resources that only answer GET: Jersey lists GET and OPTIONS as allowed.
  auto read_only = [&](auto&& handler) -> HttpResponse {
    if (!IsRead(method)) return MethodNotAllowed(request, "GET,OPTIONS");
    return handler();
  };
  switch (route.endpoint) {
    case Endpoint::kVersion:
      return read_only([&] { return Version(request); });
    case Endpoint::kClusterVersion:
      return read_only([&] { return ClusterVersion(request); });
    case Endpoint::kClusterStatus:
      return read_only([&] { return ClusterStatus(request); });
    case Endpoint::kTables:
      return read_only([&] { return Tables(request); });
    case Endpoint::kNamespaces:
      return read_only([&] { return Namespaces(request); });
    case Endpoint::kNamespace:
      return Namespace(request, route);
    case Endpoint::kNamespaceTables:
      return read_only([&] { return NamespaceTables(request, route); });
    case Endpoint::kSchema:
      return Schema(request, route);
    case Endpoint::kRegions:
      return read_only([&] { return Regions(request, route); });
    case Endpoint::kExists:
      return read_only([&] { return Exists(request, route); });
    case Endpoint::kRow:
      return Row(request, route);
    case Endpoint::kMultiget:
      return read_only([&] { return Multiget(request, route); });
    case Endpoint::kTableScan:
      return read_only([&] { return TableScan(request, route); });
    case Endpoint::kScanners:
      if (method != "PUT" && method != "POST") return MethodNotAllowed(request, "POST,OPTIONS,PUT");
      return OpenScanner(request, route);
    case Endpoint::kScanner:
      return Scanner(request, route);
    case Endpoint::kUnknown:
      break;
  }
  // No resource matched: Jersey's 404, written by the container.
  return JettyError(request, 404, "Not Found");
}

}  // namespace hbemu::server::rest
