#include "server/thrift2/errors.h"

#include "THBaseService_types.h"
#include "server/admin/metrics.h"
#include "server/gateway/java_exceptions.h"

namespace hbemu::server::thrift2_errors {

using storage::Status;

void ThrowTIOError(const std::string& message, bool can_retry) {
  admin::NoteCallFailed();
  thrift2::TIOError e;
  e.__set_message(message);
  e.__set_canRetry(can_retry);
  throw e;
}

void ThrowIfError(const Status& status) {
  if (status.ok()) return;
  admin::NoteCallFailed();
  if (status.code() == Status::Code::kInvalidArgument) throw ApplicationError(status.ToString());
  // Exceptions raised on the region server (a missing family, DoNotRetryIOException) reach the
  // gateway as RemoteException text: class first, which clients search for.
  if (status.code() == Status::Code::kDoNotRetry || RaisedRemotely(status)) {
    ThrowTIOError(std::string(JavaExceptionClass(status)) + ": " + status.message(), false);
  }
  ThrowTIOError(status.message(), CanRetry(status));
}

void ThrowIfMasterError(const Status& status) {
  if (status.ok()) return;
  if (status.code() == Status::Code::kInvalidArgument) throw ApplicationError(status.ToString());
  ThrowTIOError(std::string(JavaExceptionClass(status)) + ": " + status.message(),
                CanRetry(status));
}

}  // namespace hbemu::server::thrift2_errors
