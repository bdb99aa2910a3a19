#pragma once

#include <string>
#include <string_view>

#include "server/net/http_server.h"

namespace hbemu::server::rest {

// The answer HBase's gateway gives when a resource lets an exception through (a stateless scan
// of a missing table, an unparsable filter, a missing namespace): not HBase's text but Jetty's
// error page, "Request failed." with the status, in the form the request's Accept asks for. Jetty
// walks the accepted types by quality: text/html, text/* or */* (or no Accept) gets HTML,
// application/json or text/json JSON, text/plain text; when none of these is accepted the answer
// has no body and no type. `path` is the request's path as sent (still percent-encoded, without
// its query).
HttpResponse JettyError(int status, std::string_view message, std::string_view accept,
                        std::string_view path);

// The page for `request` (its Accept and path): e.g. 404 "Not Found" when no resource matches.
// Only GET, POST and HEAD get one; other methods get the status without a body.
HttpResponse JettyError(const HttpRequest& request, int status, std::string_view message);

// Jetty's 500 "Request failed." for `request`.
HttpResponse RequestFailed(const HttpRequest& request);

// The servlet name Jetty puts in those pages: Jersey's container class and an identity hash.
inline constexpr std::string_view kJettyServletName =
    "org.apache.hbase.thirdparty.org.glassfish.jersey.servlet.ServletContainer-4628b1d3";

}  // namespace hbemu::server::rest
