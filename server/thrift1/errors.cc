#include "server/thrift1/errors.h"

#include "Hbase_types.h"
#include "server/admin/metrics.h"

namespace hbemu::server {

using storage::Status;

void ThrowIOError(const std::string& java_class, const std::string& message, bool can_retry) {
  admin::NoteCallFailed();
  thrift::IOError e;
  e.message = java_class + ": " + message;
  e.canRetry = can_retry;
  e.__isset.message = true;
  e.__isset.canRetry = true;
  throw e;
}

void ThrowIllegalArgument(const std::string& message) {
  admin::NoteCallFailed();
  thrift::IllegalArgument e;
  e.__set_message(message);
  throw e;
}

void ThrowIfError(const Status& status, InvalidArgumentAs invalid_argument) {
  if (status.ok()) return;
  admin::NoteCallFailed();
  switch (status.code()) {
    case Status::Code::kInvalidArgument:
      if (invalid_argument == InvalidArgumentAs::kIllegalArgument) {
        ThrowIllegalArgument(std::string(JavaExceptionClass(status)) + ": " + status.message());
      }
      throw ApplicationError(status.ToString());
    case Status::Code::kTableExists: {
      thrift::AlreadyExists e;
      e.message = "table name already in use";
      e.__isset.message = true;
      throw e;
    }
    case Status::Code::kNoSuchColumnFamily:
    case Status::Code::kDoNotRetry:
    case Status::Code::kTableNotDisabled:
    case Status::Code::kRowTooBig:
      if (RaisedRemotely(status)) {
        // Raised on the region server or master: the client's RemoteException already reads
        // "<class>: <message>", and the handler prints the class once more in front.
        const std::string java_class = JavaExceptionClass(status);
        ThrowIOError(java_class, java_class + ": " + status.message(), CanRetry(status));
      }
      [[fallthrough]];
    default:
      ThrowIOError(JavaExceptionClass(status), status.message(), CanRetry(status));
  }
}

}  // namespace hbemu::server
