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

// True when HBase raises this failure on the region server or master rather than in its client
// (a missing family, "Field is not a long", a sanity check, deleting an enabled table), so the
// client sees a RemoteException whose message repeats the class.
bool RaisedRemotely(const storage::Status& status);

}  // namespace hbemu::server
