#include "server/rest/rest_server.h"

#include <utility>

#include <glog/logging.h>

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

}  // namespace

struct RestServer::Impl {
  std::string bind_address;
  uint16_t port = 0;
  RestService* service = nullptr;
  RestCounters* counters = nullptr;
  HostAllowList allowed_hosts;
  std::unique_ptr<HttpServer> server;

  HttpResponse Handle(const HttpRequest& request) {
    const Route route = ParseTarget(request.target);
    HttpResponse response = Answer(request, route);
    if (counters != nullptr) {
      counters->Record(static_cast<size_t>(route.endpoint), response.status);
    }
    return response;
  }

  HttpResponse Answer(const HttpRequest& request, const Route& route) {
    const std::string host = request.Header("Host");
    if (!HostHeaderAllowed(host, allowed_hosts)) {
      return Plain(403, "Host '" + host + "' is not a name of this server\r\n");
    }
    if (Changes(request.method)) {
      if (request.HasHeader("Origin")) {
        const std::string origin = request.Header("Origin");
        if (origin == "null" || !HostHeaderAllowed(HostOfAuthority(origin), allowed_hosts)) {
          return Plain(403, "Forbidden\r\n");
        }
      }
      if (IsFormContentType(request.Header("Content-Type"))) return UnsupportedMediaType();
    }
    return service->Handle(request, route);
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
