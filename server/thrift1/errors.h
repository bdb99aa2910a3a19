#pragma once

#include <stdexcept>
#include <string>

#include "storage/status.h"

namespace hbemu::server {

// The one mapping from storage::Status to what a Thrift1 client of HBase sees.
//
// HBase reports most failures as IOError whose message starts with the Java exception class
// ("org.apache.hadoop.hbase.TableNotFoundException: t") because clients match on it. Which
// methods turn IllegalArgumentException into the declared IllegalArgument depends on each
// method's catch block in HBase (THRIFT_API.md 2.1.2); everywhere else it escapes as a
// TApplicationException, and so it does here.
enum class InvalidArgumentAs {
  kApplicationError,  // most methods
  kIllegalArgument,   // createTable, mutateRow(s)(Ts), checkAndPut
};

// Thrown for failures HBase reports as TApplicationException(INTERNAL_ERROR, "Internal error
// processing <method>"): an undeclared exception, which ThriftServer rewrites to exactly that.
// `what()` is logged on the server only.
class ApplicationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Java class name of the exception HBase raises for this status (for messages and tests).
const char* JavaExceptionClass(const storage::Status& status);

// Throws the Thrift exception for a non-OK status; does nothing for OK.
void ThrowIfError(const storage::Status& status,
                  InvalidArgumentAs invalid_argument = InvalidArgumentAs::kApplicationError);

// Builds and throws IOError{"<java class>: <message>", can_retry}.
[[noreturn]] void ThrowIOError(const std::string& java_class, const std::string& message,
                               bool can_retry);

}  // namespace hbemu::server
