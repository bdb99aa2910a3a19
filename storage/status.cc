#include "storage/status.h"

namespace hbemu::storage {

std::string Status::ToString() const {
  const char* name = "OK";
  switch (code_) {
    case Code::kOk: return "OK";
    case Code::kInvalidArgument: name = "InvalidArgument"; break;
    case Code::kTableNotFound: name = "TableNotFound"; break;
    case Code::kTableExists: name = "TableExists"; break;
    case Code::kTableNotEnabled: name = "TableNotEnabled"; break;
    case Code::kTableNotDisabled: name = "TableNotDisabled"; break;
    case Code::kNamespaceNotFound: name = "NamespaceNotFound"; break;
    case Code::kNamespaceExists: name = "NamespaceExists"; break;
    case Code::kConstraint: name = "Constraint"; break;
    case Code::kNoSuchColumnFamily: name = "NoSuchColumnFamily"; break;
    case Code::kDoNotRetry: name = "DoNotRetry"; break;
    case Code::kCorruption: name = "Corruption"; break;
    case Code::kIOError: name = "IOError"; break;
    case Code::kIncompatibleFilter: name = "IncompatibleFilter"; break;
    case Code::kInvalidFamilyOperation: name = "InvalidFamilyOperation"; break;
    case Code::kSnapshotExists: name = "SnapshotExists"; break;
    case Code::kSnapshotNotFound: name = "SnapshotNotFound"; break;
    case Code::kSnapshotCreation: name = "SnapshotCreation"; break;
    case Code::kResultTooLarge: name = "ResultTooLarge"; break;
    case Code::kRowTooBig: name = "RowTooBig"; break;
    case Code::kRegionTooBusy: name = "RegionTooBusy"; break;
  }
  return std::string(name) + ": " + message_;
}

}  // namespace hbemu::storage
