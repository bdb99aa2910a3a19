#pragma once

#include <string>
#include <string_view>

#include "storage/comparators.h"

namespace hbemu::server::filter_arguments {

// What a door writes to build a filter through the filter language's factories
// (storage::CreateFilterFromArguments) from a structured form (Thrift2's filterBytes, REST's JSON
// filter tree): the argument spellings those factories read. Header-only so each door's library
// can use it without linking the other's.

// A byte-string argument: surrounding quotes, nothing escaped inside (the factories strip
// exactly one quote at each end).
inline std::string Quoted(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + 2);
  out.push_back('\'');
  out.append(bytes);
  out.push_back('\'');
  return out;
}

inline const char* Bool(bool b) { return b ? "true" : "false"; }

// The language's spelling of an operator. False for NO_OP, which the language lacks.
inline bool OperatorSymbol(storage::CompareOp op, std::string* out) {
  switch (op) {
    case storage::CompareOp::kLess: *out = "<"; return true;
    case storage::CompareOp::kLessOrEqual: *out = "<="; return true;
    case storage::CompareOp::kEqual: *out = "="; return true;
    case storage::CompareOp::kNotEqual: *out = "!="; return true;
    case storage::CompareOp::kGreaterOrEqual: *out = ">="; return true;
    case storage::CompareOp::kGreater: *out = ">"; return true;
    case storage::CompareOp::kNoOp: return false;
  }
  return false;
}

}  // namespace hbemu::server::filter_arguments
