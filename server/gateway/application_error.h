#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "server/admin/metrics.h"
#include "storage/schema.h"

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

// HBase's gateways make a TableName of a call's table ("t" or "ns:t") before anything else; an
// illegal name (empty, "bad name!", ".t", "a:b:c"...) throws IllegalArgumentException there,
// which reaches the client as INTERNAL_ERROR. Calls that look the table up in the store get
// this from the lookup; calls that do not (a scanner opened lazily, an availability question)
// check here first.
inline void ThrowIfIllegalTableName(std::string_view full_name) {
  storage::TableName parsed;
  const storage::Status valid = storage::ParseTableName(full_name, &parsed);
  if (!valid.ok()) throw ApplicationError(valid.ToString());
}

}  // namespace hbemu::server
