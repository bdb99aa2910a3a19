#pragma once

#include <string>

#include "server/gateway/application_error.h"
#include "storage/status.h"

namespace hbemu::server::thrift2_errors {

// The one mapping from storage::Status to what a Thrift2 client of HBase sees.
//
// HBase's Thrift2 handler turns every IOException into TIOError carrying the exception's message
// alone (no class name, no stack trace; for a missing table just the table name) and canRetry =
// "not a DoNotRetryIOException". Runtime exceptions (IllegalArgumentException for an empty row,
// a bad filter string, an empty put...) escape as TApplicationException(INTERNAL_ERROR), and so
// InvalidArgument does here.

// Throws the Thrift2 exception for a non-OK status; does nothing for OK.
void ThrowIfError(const storage::Status& status);

// The same for calls HBase's gateway forwards to the master (DDL, namespaces): the master's
// exception reaches the client wrapped, so the message starts "<exception class>: " (HBase
// then appends the master's stack trace, which is not copied).
void ThrowIfMasterError(const storage::Status& status);

// Builds and throws TIOError{message, can_retry}.
[[noreturn]] void ThrowTIOError(const std::string& message, bool can_retry);

// Builds and throws TIllegalArgument{message}.
//
// Every declared exception a handler throws goes through this file (or ApplicationError), which
// counts the call as failed in /metrics: one built by hand reached the client as an error and
// was counted as outcome="ok".
[[noreturn]] void ThrowTIllegalArgument(const std::string& message);

}  // namespace hbemu::server::thrift2_errors
