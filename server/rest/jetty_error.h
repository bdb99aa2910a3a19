#pragma once

#include <string>

#include "server/net/http_server.h"

namespace hbemu::server::rest {

// The error page HBase's servlet container (Jetty) writes when a request fails before or outside
// a resource: Jersey found no resource (404 "Not Found"), or building one threw (500 "Request
// failed."). Its form follows the Accept header as Jetty's error handler does: JSON for
// application/json or text/json, plain text for text/plain, HTML for text/html, */* or no
// Accept, and no body for anything else. `url` is the request path.
HttpResponse JettyError(const HttpRequest& request, int status, const std::string& message);

}  // namespace hbemu::server::rest
