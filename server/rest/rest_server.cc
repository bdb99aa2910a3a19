#include "server/rest/rest_server.h"

#include <utility>

#include <glog/logging.h>

#include "server/admin/metrics.h"
#include "server/gateway/call_gate.h"
#include "server/gateway/rest_counters.h"
#include "server/net/browser_requests.h"
#include "server/rest/rest_service.h"
#include "server/rest/router.h"
#include "server/limits.h"

namespace hbemu::server::rest {
namespace {


// The limit a refused request passed, named so that its client can tell what to change.
std::string PastLimit(const char* what, const char* name, int64_t value) {
  return std::string("the request's ") + what + " is past the " + name + " limit of " +
         std::to_string(value) + " bytes (--limit " + name + "=N raises it)\r\n";
}

HttpResponse FaultAnswer(HttpFault fault) {
  const Limits& limits = CurrentLimits();
  switch (fault) {
    case HttpFault::kHeaderTooLarge:
      return Plain(431, "Request Header Fields Too Large\r\n" +
                            PastLimit("header", "http_header_bytes", limits.http_header_bytes));
    case HttpFault::kBodyTooLarge:
      return Plain(413, "Payload Too Large\r\n" +
                            PastLimit("body", "message_bytes", limits.message_bytes));
    case HttpFault::kMalformed: return BadRequest();
    case HttpFault::kHandlerFailed: break;
  }
  return Plain(500, "");
}

bool Changes(const std::string& method) {
  return method == "PUT" || method == "POST" || method == "DELETE";
}

// The row a path names (the first segment of a row path; a stateless scan's prefix).
std::string PathRow(const Route& route) {
  std::string_view spec = route.row_spec;
  if (route.endpoint == Endpoint::kTableScan && !spec.empty()) spec.remove_suffix(1);
  spec = spec.substr(0, spec.find('/'));
  spec = spec.substr(0, spec.find(','));
  std::string row;
  if (!PercentDecode(spec, false, &row)) return std::string(spec);
  return row;
}

GateCall DescribeCall(std::string method, const Route& route) {
  GateCall call;
  call.method = std::move(method);
  call.table = route.table;
  if (route.endpoint == Endpoint::kRow || route.endpoint == Endpoint::kTableScan) {
    call.row = PathRow(route);
  }
  if (const std::string* start = route.Param("startrow")) call.row = *start;
  if (const std::string* stop = route.Param("endrow")) call.stop_row = *stop;
  if (route.endpoint == Endpoint::kMultiget) {
    call.rows = route.Params("row");
    call.row_count = static_cast<int64_t>(call.rows.size());
  }
  if (const std::string* filter = route.Param("filter")) call.filter = *filter;
  call.columns = route.Params("column");
  return call;
}

// How an answer reads in the call log: an error's body, and the Java class it names.
GateOutcome OutcomeOf(const HttpResponse& response) {
  GateOutcome outcome;
  outcome.status = response.status;
  outcome.error = response.status >= 400;
  if (!outcome.error) return outcome;
  outcome.message = response.body.substr(0, 4096);
  // "Unavailable\r\norg.apache...Exception: message": the class on the second line.
  const size_t line = response.body.find("\r\n");
  if (line != std::string::npos) {
    const std::string_view rest = std::string_view(response.body).substr(line + 2);
    const std::string_view first = rest.substr(0, rest.find_first_of(": \r\n"));
    if (first.find('.') != std::string_view::npos && first.find("Exception") != std::string_view::npos) {
      outcome.error_class = std::string(first);
    }
  }
  return outcome;
}

}  // namespace

struct RestServer::Impl {
  std::string bind_address;
  uint16_t port = 0;
  RestService* service = nullptr;
  RestCounters* counters = nullptr;
  CallGate* gate = nullptr;
  admin::Metrics* metrics = nullptr;
  HostAllowList allowed_hosts;
  std::unique_ptr<HttpServer> server;

  HttpResponse Handle(const HttpRequest& request) {
    const Route route = ParseTarget(request.target);
    HttpResponse response;
    if (Admitted(request, &response)) response = Call(request, route);
    if (counters != nullptr) {
      counters->Record(static_cast<size_t>(route.endpoint), response.status);
    }
    return response;
  }

  // A request the door's rules let through is a call: gated, counted, run.
  HttpResponse Call(const HttpRequest& request, const Route& route) {
    std::string method = RestMethodName(request.method, route.endpoint);
    std::unique_ptr<GatedCall> gated;
    if (gate != nullptr && gate->active()) gated = gate->Before(DescribeCall(method, route), request.peer);
    HttpResponse response;
    if (gated && gated->action() == GatedCall::Action::kCloseBefore) {
      response.close_without_reply = true;
      gated->Finish(GateOutcome());
      return response;
    }
    if (gated && gated->action() == GatedCall::Action::kFail) {
      response = JavaExceptionAnswer(gated->fault_class(), gated->fault_message());
    } else {
      admin::CallScope scope(metrics, "rest", method);
      response = service->Handle(request, route);
      if (response.status >= 400) scope.Failed();
    }
    if (gated) {
      gated->Finish(OutcomeOf(response));
      if (gated->close_after()) response.close_without_reply = true;
    }
    return response;
  }

  // False with *refusal set when the door's rules refuse the request before any resource.
  bool Admitted(const HttpRequest& request, HttpResponse* refusal) {
    const std::string host = request.Header("Host");
    if (!HostHeaderAllowed(host, allowed_hosts)) {
      *refusal = Plain(403, "Host '" + host + "' is not a name of this server\r\n");
      return false;
    }
    if (Changes(request.method)) {
      if (request.HasHeader("Origin")) {
        const std::string origin = request.Header("Origin");
        if (origin == "null" || !HostHeaderAllowed(HostOfAuthority(origin), allowed_hosts)) {
          *refusal = Plain(403, "Forbidden\r\n");
          return false;
        }
      }
      if (IsFormContentType(request.Header("Content-Type"))) {
        *refusal = UnsupportedMediaType();
        return false;
      }
    }
    return true;
  }
};

RestServer::RestServer(std::string bind_address, uint16_t port, RestService* service,
                       RestCounters* counters, std::vector<std::string> allowed_hosts)
    : impl_(std::make_unique<Impl>()) {
  impl_->bind_address = std::move(bind_address);
  impl_->port = port;
  impl_->service = service;
  impl_->counters = counters;
  impl_->allowed_hosts.names = std::move(allowed_hosts);
  impl_->allowed_hosts.bind_address = impl_->bind_address;
}

RestServer::~RestServer() { Stop(); }

void RestServer::SetCallGate(CallGate* gate) { impl_->gate = gate; }

void RestServer::SetMetrics(admin::Metrics* metrics) { impl_->metrics = metrics; }

bool RestServer::Start(std::string* error) {
  HttpServerOptions options;
  options.log_name = "rest";
  options.header_limit = static_cast<size_t>(CurrentLimits().http_header_bytes);
  options.body_limit = static_cast<size_t>(CurrentLimits().message_bytes);
  options.idle_timeout = std::chrono::milliseconds(CurrentLimits().message_timeout_ms);
  // Calls run on these threads; a slow scan holds one of them, not the door.
  options.threads = 4;
  options.max_connections = CurrentLimits().connections;
  Impl* impl = impl_.get();
  impl_->server = std::make_unique<HttpServer>(
      impl_->bind_address, impl_->port, options,
      [impl](const HttpRequest& request) { return impl->Handle(request); }, FaultAnswer);
  if (!impl_->server->Start(error)) return false;
  LOG(INFO) << "[rest] REST gateway on http://" << impl_->bind_address << ":"
            << impl_->server->port() << "/";
  return true;
}

uint16_t RestServer::port() const { return impl_->server ? impl_->server->port() : 0; }

uint64_t RestServer::refused_connections() const {
  return impl_->server ? impl_->server->refused_connections() : 0;
}

void RestServer::Stop() {
  if (impl_->server) impl_->server->Stop();
}

HttpResponse RestServer::Handle(const HttpRequest& request) { return impl_->Handle(request); }

std::unique_ptr<RestCounters> MakeRestCounters() {
  std::vector<std::string> names;
  for (int i = 0; i < kEndpointCount; ++i) names.push_back(EndpointName(static_cast<Endpoint>(i)));
  return std::make_unique<RestCounters>(std::move(names));
}

}  // namespace hbemu::server::rest
