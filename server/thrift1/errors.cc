#include "server/thrift1/errors.h"

#include "Hbase_types.h"

namespace hbemu::server {

using storage::Status;

const char* JavaExceptionClass(const Status& status) {
  switch (status.code()) {
    case Status::Code::kOk: return "";
    case Status::Code::kInvalidArgument: return "java.lang.IllegalArgumentException";
    case Status::Code::kTableNotFound: return "org.apache.hadoop.hbase.TableNotFoundException";
    case Status::Code::kTableExists: return "org.apache.hadoop.hbase.TableExistsException";
    case Status::Code::kTableNotEnabled: return "org.apache.hadoop.hbase.TableNotEnabledException";
    case Status::Code::kTableNotDisabled:
      return "org.apache.hadoop.hbase.TableNotDisabledException";
    case Status::Code::kNamespaceNotFound:
      return "org.apache.hadoop.hbase.NamespaceNotFoundException";
    case Status::Code::kNamespaceExists: return "org.apache.hadoop.hbase.NamespaceExistException";
    case Status::Code::kConstraint:
      return "org.apache.hadoop.hbase.constraint.ConstraintException";
    case Status::Code::kNoSuchColumnFamily:
      return "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException";
    case Status::Code::kDoNotRetry: return "org.apache.hadoop.hbase.DoNotRetryIOException";
    case Status::Code::kCorruption:
    case Status::Code::kIOError: return "java.io.IOException";
    case Status::Code::kIncompatibleFilter:
      return "org.apache.hadoop.hbase.filter.IncompatibleFilterException";
  }
  return "java.io.IOException";
}

void ThrowIOError(const std::string& java_class, const std::string& message, bool can_retry) {
  thrift::IOError e;
  e.message = java_class + ": " + message;
  e.canRetry = can_retry;
  e.__isset.message = true;
  e.__isset.canRetry = true;
  throw e;
}

void ThrowIfError(const Status& status, InvalidArgumentAs invalid_argument) {
  if (status.ok()) return;
  switch (status.code()) {
    case Status::Code::kInvalidArgument:
      if (invalid_argument == InvalidArgumentAs::kIllegalArgument) {
        thrift::IllegalArgument e;
        e.message = std::string(JavaExceptionClass(status)) + ": " + status.message();
        e.__isset.message = true;
        throw e;
      }
      throw ApplicationError(status.ToString());
    case Status::Code::kTableExists: {
      thrift::AlreadyExists e;
      e.message = "table name already in use";
      e.__isset.message = true;
      throw e;
    }
    case Status::Code::kIOError:
    case Status::Code::kCorruption:
      // Plain IOExceptions are the retryable kind in HBase (DoNotRetryIOException is not).
      ThrowIOError(JavaExceptionClass(status), status.message(), true);
    default:
      ThrowIOError(JavaExceptionClass(status), status.message(), false);
  }
}

}  // namespace hbemu::server
