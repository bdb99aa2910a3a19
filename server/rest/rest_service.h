#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "server/net/http_server.h"
#include "server/rest/models.h"
#include "server/rest/bodies.h"
#include "server/rest/representation.h"
#include "server/rest/router.h"
#include "server/rest/row_spec.h"
#include "storage/mutation.h"
#include "storage/status.h"

namespace hbemu::storage {
class Store;
}

namespace hbemu::server::rest {

class RestScanners;

struct RestServiceOptions {
  std::string server_name = "localhost";  // the "region server" of /status/cluster, /T/regions
  uint16_t server_port = 16020;            // ... and its port
  int64_t start_code = 0;
  std::string emulator_version;            // shown in /version's JVM field
  // A scanner unused this long is forgotten (404): HBase's REST scanner cache,
  // hbase.rest.scannercache.expire.time (1 h).
  int64_t scanner_timeout_ms = 3600000;
};

// HBase 2.6.1's REST resources over the store: each request is translated into store calls
// and the answer into HBase's status, headers and body. Only translation lives here; what a
// read or a mutation means is the store's. Thread-safe.
class RestService {
 public:
  RestService(storage::Store* store, RestServiceOptions options);
  ~RestService();
  RestService(const RestService&) = delete;
  RestService& operator=(const RestService&) = delete;

  // `route` is ParseTarget(request.target). The request has passed the door's checks (Host,
  // web pages).
  HttpResponse Handle(const HttpRequest& request, const Route& route);

  // Scanners open now.
  size_t open_scanners() const;

 private:
  // metadata_handlers.cc
  HttpResponse Version(const HttpRequest& request);
  HttpResponse ClusterVersion(const HttpRequest& request);
  HttpResponse ClusterStatus(const HttpRequest& request);
  HttpResponse Tables(const HttpRequest& request);
  HttpResponse Namespaces(const HttpRequest& request);
  HttpResponse Namespace(const HttpRequest& request, const Route& route);
  HttpResponse NamespaceTables(const HttpRequest& request, const Route& route);
  HttpResponse Schema(const HttpRequest& request, const Route& route);
  HttpResponse PutSchema(const HttpRequest& request, const Route& route);
  HttpResponse Regions(const HttpRequest& request, const Route& route);
  HttpResponse Exists(const HttpRequest& request, const Route& route);
  // row_handlers.cc
  HttpResponse Row(const HttpRequest& request, const Route& route);
  HttpResponse GetRow(const HttpRequest& request, const Route& route);
  HttpResponse PutRow(const HttpRequest& request, const Route& route);
  HttpResponse DeleteRow(const HttpRequest& request, const Route& route);
  HttpResponse Multiget(const HttpRequest& request, const Route& route);
  HttpResponse CheckAndPut(const CellSetModel& model, const Route& route);
  HttpResponse CheckAndDelete(const RowSpec& spec, const CellSetModel& model, const Route& route);
  HttpResponse ApplyCheck(const Route& route, const std::string& row, const std::string& family,
                          const std::string& qualifier, const std::string& value,
                          const storage::RowMutation& mutation);
  HttpResponse ReadModifyWrite(const std::string& kind, const HttpRequest& request,
                               const RowSpec& spec, const CellSetModel& model, const Route& route);
  static void AppendDeletes(const RowSpec& spec, storage::RowMutation* mutation);
  // scan_handlers.cc
  HttpResponse TableScan(const HttpRequest& request, const Route& route);
  // scanner_handlers.cc
  HttpResponse OpenScanner(const HttpRequest& request, const Route& route);
  HttpResponse Scanner(const HttpRequest& request, const Route& route);

  storage::Store* const store_;
  const RestServiceOptions options_;
  std::unique_ptr<RestScanners> scanners_;
};

// ---- Answers shared by the handlers (rest_service.cc).

// HBase's plain-text error bodies: "Not found\r\n", "Bad request\r\n", "Unavailable\r\n".
HttpResponse NotFound(const std::string& detail = std::string());
HttpResponse BadRequest(const std::string& detail = std::string());
HttpResponse Unavailable(const std::string& detail = std::string());
HttpResponse Plain(int status, std::string body);
// A Java exception as HBase's resources answer one they catch: TableNotFoundException and
// NoSuchColumnFamilyException 404 "Not found", a RuntimeException (IllegalArgumentException...)
// 400 "Bad request", any other 503 "Unavailable", each followed by "<class>: <message>".
HttpResponse JavaExceptionAnswer(const std::string& java_class, const std::string& message);
// 503 for a read whose rows pass the result_bytes limit, naming it.
HttpResponse PastResultBytes();
// Jersey's refusals before a resource runs. 405 (with the resource's Allow list) and 406 are
// written by Jetty's error handler, a page in the form the request's Accept picks (JettyError);
// 415 has no body.
HttpResponse MethodNotAllowed(const HttpRequest& request, const std::string& allow);
HttpResponse NotAcceptable(const HttpRequest& request);
HttpResponse UnsupportedMediaType();
// A storage failure as the gateway's resources answer it (404 for a missing table or family,
// 400 for a bad argument, 503 for any other IOException such as a missing namespace, 500 else).
HttpResponse FromStatus(const storage::Status& status);
// 200 with `body` of `content_type`.
HttpResponse Ok(std::string content_type, std::string body);

// Jersey's choice of the response type among what a resource `produces`, from the request's
// Accept header, or its refusal (406) when nothing fits. Handlers unpack it:
//   auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
//   if (refusal) return *refusal;
struct ResponseChoice {
  std::string type;  // the Content-Type to answer with
  Representation rep = Representation::kText;
  std::optional<HttpResponse> refusal;
};
ResponseChoice Negotiate(const HttpRequest& request,
                         const std::vector<std::string_view>& produces);
// What a CellSet answer can be (multiget, the stateless scan): ProducesCells without the
// single-value octet-stream.
const std::vector<std::string_view>& CellSetTypes();
// The answer to a request body HBase cannot use (`status` not ok): its entity reader's 400 or
// 500 without a body, its resource's 400 "Bad request" with the exception, or Jersey's 415.
HttpResponse BodyRefusal(const BodyStatus& status);
// The representation of the request body; false with *refusal set to 415 (what Jersey answers
// for a type the resource does not consume).
bool ChooseRequest(const HttpRequest& request, Representation* rep, HttpResponse* refusal);

}  // namespace hbemu::server::rest
