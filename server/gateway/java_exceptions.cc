#include "server/gateway/java_exceptions.h"

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
    case Status::Code::kInvalidFamilyOperation:
      return "org.apache.hadoop.hbase.InvalidFamilyOperationException";
    case Status::Code::kSnapshotExists:
      return "org.apache.hadoop.hbase.snapshot.SnapshotExistsException";
    case Status::Code::kSnapshotNotFound:
      return "org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException";
    case Status::Code::kSnapshotCreation:
      return "org.apache.hadoop.hbase.snapshot.SnapshotCreationException";
    case Status::Code::kResultTooLarge:
      return "org.apache.hadoop.hbase.MultiActionResultTooLarge";
    case Status::Code::kRowTooBig:
      return "org.apache.hadoop.hbase.regionserver.RowTooBigException";
    case Status::Code::kRegionTooBusy: return "org.apache.hadoop.hbase.RegionTooBusyException";
  }
  return "java.io.IOException";
}

bool CanRetry(const Status& status) {
  return status.code() == Status::Code::kIOError || status.code() == Status::Code::kCorruption ||
         status.code() == Status::Code::kRegionTooBusy;
}

bool RaisedRemotely(const Status& status) {
  switch (status.code()) {
    case Status::Code::kNoSuchColumnFamily:
    case Status::Code::kDoNotRetry:
    case Status::Code::kRowTooBig:  // the region server's store scanner
      return true;
    case Status::Code::kTableNotDisabled:  // enableTable's check runs in the client
      return status.message().rfind("Not DISABLED;", 0) == 0;
    default:
      return false;
  }
}

}  // namespace hbemu::server
