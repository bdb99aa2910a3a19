#pragma once

#include <stdexcept>

namespace hbemu::server {

// Thrown by either handler for failures HBase reports as TApplicationException(INTERNAL_ERROR,
// "Internal error processing <method>"): a Java runtime exception escaping HBase's handler. The
// generated processor turns it into an undeclared-exception reply, which WireSession rewrites to
// exactly HBase's. `what()` is logged on the server only.
class ApplicationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hbemu::server
