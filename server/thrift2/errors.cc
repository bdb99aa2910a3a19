#include "server/thrift2/errors.h"

#include "THBaseService_types.h"
#include "server/gateway/java_exceptions.h"

namespace hbemu::server::thrift2_errors {

using storage::Status;

void ThrowTIOError(const std::string& message, bool can_retry) {
  thrift2::TIOError e;
  e.__set_message(message);
  e.__set_canRetry(can_retry);
  throw e;
}

void ThrowIfError(const Status& status) {
  if (status.ok()) return;
  if (status.code() == Status::Code::kInvalidArgument) throw ApplicationError(status.ToString());
  ThrowTIOError(status.message(), CanRetry(status));
}

void ThrowIfMasterError(const Status& status) {
  if (status.ok()) return;
  if (status.code() == Status::Code::kInvalidArgument) throw ApplicationError(status.ToString());
  ThrowTIOError(std::string(JavaExceptionClass(status)) + ": " + status.message(),
                CanRetry(status));
}

}  // namespace hbemu::server::thrift2_errors
