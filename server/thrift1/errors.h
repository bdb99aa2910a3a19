#pragma once

#include <stdexcept>
#include <string>

#include "server/gateway/application_error.h"
#include "server/gateway/java_exceptions.h"
#include "storage/status.h"

namespace hbemu::server {

// The one mapping from storage::Status to what a Thrift1 client of HBase sees.
//
// HBase reports most failures as IOError whose message starts with the Java exception class
// ("org.apache.hadoop.hbase.TableNotFoundException: t") because clients match on it. Which methods
// turn IllegalArgumentException into the declared IllegalArgument depends on each method's catch
// block in HBase (docs/thrift-api.md#thrift1-errors); everywhere else it escapes as a
// TApplicationException, and so it does here.
enum class InvalidArgumentAs {
  kApplicationError,  // most methods
  kIllegalArgument,   // createTable, mutateRow(s)(Ts), checkAndPut
};

// Throws the Thrift exception for a non-OK status; does nothing for OK.
void ThrowIfError(const storage::Status& status,
                  InvalidArgumentAs invalid_argument = InvalidArgumentAs::kApplicationError);

// Builds and throws IOError{"<java class>: <message>", can_retry}.
[[noreturn]] void ThrowIOError(const std::string& java_class, const std::string& message,
                               bool can_retry);

// Builds and throws IllegalArgument{message} (the message as the client reads it).
//
// Every declared exception a handler throws goes through this file (or ApplicationError), which
// counts the call as failed in /metrics: one built by hand reached the client as an error and
// was counted as outcome="ok".
[[noreturn]] void ThrowIllegalArgument(const std::string& message);

}  // namespace hbemu::server
