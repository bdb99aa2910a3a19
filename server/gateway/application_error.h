#pragma once

#include <stdexcept>
#include <string>

#include "server/admin/metrics.h"

namespace hbemu::server {

// Thrown by either handler for failures HBase reports as TApplicationException(INTERNAL_ERROR,
// "Internal error processing <method>"): a Java runtime exception escaping HBase's handler. The
// generated processor turns it into an undeclared-exception reply, which WireSession rewrites to
// exactly HBase's. `what()` is logged on the server only.
class ApplicationError : public std::runtime_error {
 public:
  // Counted as a failed call by the admin metrics.
  explicit ApplicationError(const std::string& what) : std::runtime_error(what) {
    admin::NoteCallFailed();
  }
};

}  // namespace hbemu::server
