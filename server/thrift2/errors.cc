#include "server/thrift2/errors.h"

#include "THBaseService_types.h"
#include "server/admin/metrics.h"
#include "server/gateway/failure_reason.h"
#include "server/gateway/java_exceptions.h"

namespace hbemu::server::thrift2_errors {

using storage::Status;

namespace {

// "java.lang.ClassNotFoundException: ...", "org.apache.hadoop.hbase.exceptions....: ...": a
// Java class name up to the first ": ".
bool NamesJavaCause(const std::string& message) {
  if (message.rfind("java.", 0) != 0 && message.rfind("org.apache.", 0) != 0) return false;
  const size_t colon = message.find(": ");
  return colon != std::string::npos && message.find(' ') > colon;
}

}  // namespace

void ThrowTIOError(const std::string& message, bool can_retry) {
  admin::NoteCallFailed();
  thrift2::TIOError e;
  e.__set_message(message);
  e.__set_canRetry(can_retry);
  throw e;
}

void ThrowTIllegalArgument(const std::string& message) {
  admin::NoteCallFailed();
  thrift2::TIllegalArgument e;
  e.__set_message(message);
  throw e;
}

void ThrowIfError(const Status& status) {
  if (status.ok()) return;
  admin::NoteCallFailed();
  NoteFailureReason(std::string(JavaExceptionClass(status)) + ": " + status.message());
  if (status.code() == Status::Code::kInvalidArgument) throw ApplicationError(status.ToString());
  // Exceptions raised on the region server (a missing family, DoNotRetryIOException) reach the
  // gateway as RemoteException text: class first, which clients search for. A
  // DoNotRetryIOException the gateway raises itself around a cause (a filterBytes it cannot
  // decode) carries the cause's text, which names the cause's class already.
  if (status.code() == Status::Code::kDoNotRetry || RaisedRemotely(status)) {
    const std::string& message = status.message();
    ThrowTIOError(status.code() == Status::Code::kDoNotRetry && NamesJavaCause(message)
                      ? message
                      : std::string(JavaExceptionClass(status)) + ": " + message,
                  false);
  }
  ThrowTIOError(status.message(), CanRetry(status));
}

void ThrowIfMasterError(const Status& status) {
  if (status.ok()) return;
  NoteFailureReason(std::string(JavaExceptionClass(status)) + ": " + status.message());
  if (status.code() == Status::Code::kInvalidArgument) throw ApplicationError(status.ToString());
  ThrowTIOError(std::string(JavaExceptionClass(status)) + ": " + status.message(),
                CanRetry(status));
}

}  // namespace hbemu::server::thrift2_errors
