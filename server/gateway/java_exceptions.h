#pragma once

#include "storage/status.h"

namespace hbemu::server {

// What both Thrift services tell a client about a storage failure: the Java exception class
// HBase raises for it, and whether HBase's client would retry it. Thrift1 prefixes the class to
// its IOError message, Thrift2 sends the message alone; both report the same canRetry.

// Java class name of the exception HBase raises for this status.
const char* JavaExceptionClass(const storage::Status& status);

// False for DoNotRetryIOException and its subclasses (missing tables, families, bad values...),
// true for plain IOExceptions.
bool CanRetry(const storage::Status& status);

}  // namespace hbemu::server
