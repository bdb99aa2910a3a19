#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hbemu::server {

// A door on loopback is still reachable from every web page open in a browser on the same
// machine. Two kinds of request let a page act on it:
//  - a cross-origin "simple" request (a POST whose Content-Type is one a form can send) goes out
//    without a CORS preflight, so the server acts even though the page cannot read the answer;
//  - DNS rebinding: a page's own host name is re-pointed at 127.0.0.1, so its requests are
//    same-origin, may read the answers, and carry `Host: <the page's name>`.
// The checks below are what the HTTP doors (admin console, test controls, Thrift over HTTP)
// apply before they act on a request.

// The names a request's `Host` may carry besides the ones always accepted.
struct HostAllowList {
  // From --allowed-hosts: exact names (lower case), or ".example.com" for every name under it.
  std::vector<std::string> names;
  // The address the door is bound to, when it is a name rather than an address.
  std::string bind_address;
};

// True when a request with this `Host` header value (host, optional :port) may be answered.
// Always accepted: IP literals (a rebinding page cannot use one: the browser's origin would be
// the address itself), "localhost" and names under ".localhost" (browsers resolve those to
// loopback themselves), and single-label names such as a compose service's "hbase" (which a
// public DNS name cannot be). An empty header (HTTP/1.0 without Host) is accepted: browsers
// always send one.
bool HostHeaderAllowed(std::string_view host_header, const HostAllowList& allow);

// The host part of a Host or Origin value: "[::1]:9095" -> "::1", "Example.COM.:80" ->
// "example.com". An Origin's scheme ("http://") is dropped first.
std::string HostOfAuthority(std::string_view authority);

// True for the request Content-Types a page may send cross-origin without a preflight
// (text/plain, application/x-www-form-urlencoded, multipart/form-data; parameters and case
// ignored), the ones a door that changes data must refuse.
bool IsFormContentType(std::string_view content_type);

// Parses --allowed-hosts' comma-separated list; false with *error for an empty or malformed
// entry.
bool ParseAllowedHosts(std::string_view list, std::vector<std::string>* names,
                       std::string* error);

}  // namespace hbemu::server
