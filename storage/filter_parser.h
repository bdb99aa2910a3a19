#pragma once

#include <memory>
#include <string_view>

#include "storage/filter.h"
#include "storage/status.h"
#include "storage/store_limits.h"

namespace hbemu::storage {

// Parses HBase's filter language (Thrift TScan.filterString;
// docs/hbase-semantics.md#the-filter-language) into an immutable filter prototype; each read
// Clone()s its own stateful instance from it.
//
// Follows ParseFilter's byte-level operator-precedence parser, quirks included: keywords are
// recognised only next to a space or parenthesis, AND binds tighter than OR, SKIP/WHILE bind to
// the next operand, a chain of one operator becomes one list, and a pending higher-precedence
// operator inside parentheses ("(A OR B AND C)") fails as "Mismatched parenthesis".
// Every failure is InvalidArgument carrying HBase's IllegalArgumentException message; HBase
// clients see it as TApplicationException. A pure function; thread-safe.
//
// The limits filter_string_bytes, filter_depth and filter_count (FilterLimits) are checked
// as the input is read, before any deep or wide structure exists; past one the same
// InvalidArgument names the limit and its flag. Depth counts each open parenthesis and each
// pending SKIP/WHILE as the text is read, and each AND/OR/SKIP/WHILE level of the tree built.
// Time and memory are linear in the input.
Status ParseFilterString(std::string_view text, const FilterLimits& limits,
                         std::shared_ptr<const Filter>* out);
// The same under the default limits (tests and tools; the server hands in the ones in force).
Status ParseFilterString(std::string_view text, std::shared_ptr<const Filter>* out);

}  // namespace hbemu::storage
