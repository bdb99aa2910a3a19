#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "server/net/message_skimmer.h"

namespace hbemu::server::control {

// What the call log records of a call's arguments, and what fault rules match on. Strings are
// the raw bytes (row keys are binary), cut to kKeptBytes; lists keep their first kKeptItems.
struct DecodedCall {
  static constexpr size_t kKeptBytes = 1024;
  static constexpr size_t kKeptItems = 16;

  bool decoded = false;  // false: not a readable call; only what was read is set
  std::string method;
  int32_t seqid = 0;
  std::string table;
  std::string row;         // the row, or a scan's start row
  std::string stop_row;    // a scan's stop row
  std::vector<std::string> rows;  // a batch's rows (first kKeptItems)
  int64_t row_count = 0;   // a batch's rows in all
  std::string filter;
  int64_t caching = -1;
  int64_t batch_size = -1;
  int64_t scanner_id = -1;
  int64_t num_rows = -1;   // rows a scanner fetch asks for
  std::vector<std::string> columns;  // "family:qualifier" or "family"

  // The rows a fault's row prefix is matched against: the row or start row, and a batch's rows.
  std::vector<const std::string*> MatchRows() const;
};

// Reads the method name and the arguments of one call message of `service` ("thrift1" or
// "thrift2") from its bytes, without touching them. Knows the argument layout of both IDLs
// (Hbase.thrift, THBaseService.thrift): the table is argument 1, the row or request struct
// argument 2, and so on.
DecodedCall DecodeCall(const std::string& service, const uint8_t* message, size_t length,
                       WireProtocol protocol);

// The outcome a reply carries: ok, or an error with its message (a declared exception's
// message, or a TApplicationException's).
struct DecodedReply {
  bool error = false;
  std::string error_class;  // the Java class when the message names it (Thrift1 IOError)
  std::string message;
  std::string exception;    // the Thrift exception type: "IOError", "TApplicationException"...
  int64_t success_int = -1; // an integer result (a scanner open's id), else -1
};

DecodedReply DecodeReply(const std::string& service, const uint8_t* reply, size_t length,
                         WireProtocol protocol);

}  // namespace hbemu::server::control
