#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace hbemu::storage {

// The outcome of a storage operation. Storage never throws; the server turns a Status into a Thrift
// exception at the handler edge (server/thrift1/errors.h, server/thrift2/errors.h), so each code
// names one HBase failure that clients can tell apart.
class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kInvalidArgument,      // bad client input (empty row, negative timestamp, bad name, ...)
    kTableNotFound,        // TableNotFoundException
    kTableExists,          // TableExistsException
    kTableNotEnabled,      // TableNotEnabledException: data call on a disabled table
    kTableNotDisabled,     // TableNotDisabledException: delete/enable of an enabled table
    kNamespaceNotFound,    // NamespaceNotFoundException
    kNamespaceExists,      // NamespaceExistException
    kConstraint,           // ConstraintException (e.g. non-empty namespace removal)
    kNoSuchColumnFamily,   // NoSuchColumnFamilyException
    kDoNotRetry,           // DoNotRetryIOException (e.g. "Field is not a long")
    kCorruption,           // on-disk data we cannot decode
    kIOError,              // LevelDB or environment failure
    kIncompatibleFilter,   // IncompatibleFilterException: row-level filter + batch splitting a row
    kInvalidFamilyOperation,  // InvalidFamilyOperationException: add/modify/delete family
    kSnapshotExists,       // SnapshotExistsException: a snapshot of that name is kept
    kSnapshotNotFound,     // SnapshotDoesNotExistException
    kSnapshotCreation,     // SnapshotCreationException (e.g. a table that does not exist)
    kResultTooLarge,       // MultiActionResultTooLarge: a call's results past result_bytes
    kRowTooBig,            // RowTooBigException: one row's read past result_bytes
    kRegionTooBusy,        // RegionTooBusyException: memory past a limit, retry later
  };

  Status() = default;
  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status TableNotFound(std::string msg) { return Status(Code::kTableNotFound, std::move(msg)); }
  static Status TableExists(std::string msg) { return Status(Code::kTableExists, std::move(msg)); }
  static Status TableNotEnabled(std::string msg) { return Status(Code::kTableNotEnabled, std::move(msg)); }
  static Status TableNotDisabled(std::string msg) { return Status(Code::kTableNotDisabled, std::move(msg)); }
  static Status NamespaceNotFound(std::string msg) { return Status(Code::kNamespaceNotFound, std::move(msg)); }
  static Status NamespaceExists(std::string msg) { return Status(Code::kNamespaceExists, std::move(msg)); }
  static Status Constraint(std::string msg) { return Status(Code::kConstraint, std::move(msg)); }
  static Status NoSuchColumnFamily(std::string msg) { return Status(Code::kNoSuchColumnFamily, std::move(msg)); }
  static Status DoNotRetry(std::string msg) { return Status(Code::kDoNotRetry, std::move(msg)); }
  static Status Corruption(std::string msg) { return Status(Code::kCorruption, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status IncompatibleFilter(std::string msg) { return Status(Code::kIncompatibleFilter, std::move(msg)); }
  static Status InvalidFamilyOperation(std::string msg) { return Status(Code::kInvalidFamilyOperation, std::move(msg)); }
  static Status SnapshotExists(std::string msg) { return Status(Code::kSnapshotExists, std::move(msg)); }
  static Status SnapshotNotFound(std::string msg) { return Status(Code::kSnapshotNotFound, std::move(msg)); }
  static Status SnapshotCreation(std::string msg) { return Status(Code::kSnapshotCreation, std::move(msg)); }
  static Status ResultTooLarge(std::string msg) { return Status(Code::kResultTooLarge, std::move(msg)); }
  static Status RowTooBig(std::string msg) { return Status(Code::kRowTooBig, std::move(msg)); }
  static Status RegionTooBusy(std::string msg) { return Status(Code::kRegionTooBusy, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // "<code name>: <message>", for logs and test failure output.
  std::string ToString() const;

 private:
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace hbemu::storage

// Returns from the enclosing function when `expr` yields a non-OK Status.
#define HBEMU_RETURN_IF_ERROR(expr)           \
  do {                                        \
    ::hbemu::storage::Status _st = (expr);    \
    if (!_st.ok()) return _st;                \
  } while (0)
