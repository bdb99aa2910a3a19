#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "storage/memory_size.h"
#include "storage/status.h"

namespace hbemu::storage {

// HBase's CompareOperator (docs/hbase-semantics.md#comparators-and-operators). The filter language
// spells the first six; NO_OP reaches us only through Thrift2 checkAndMutate's TCompareOp.
enum class CompareOp { kLess, kLessOrEqual, kEqual, kNotEqual, kGreaterOrEqual, kGreater, kNoOp };

// "<", "<=", "=", "!=", ">=", ">" -> the operator. False for anything else.
bool ParseCompareOp(std::string_view text, CompareOp* op);
const char* CompareOpName(CompareOp op);  // LESS, LESS_OR_EQUAL, ...

// A ByteArrayComparable: compares its own operand with a cell's bytes. Immutable and
// thread-safe once built, so one instance is shared by every scan of a parsed filter.
class Comparator {
 public:
  enum class Kind { kBinary, kBinaryPrefix, kRegexString, kSubstring };
  virtual ~Comparator() = default;
  virtual Kind kind() const = 0;
  // HBase's compareTo(cell bytes): negative, zero or positive as the comparator's operand
  // sorts before, equal to or after `cell` (binary kinds); 0 for "matches", 1 otherwise
  // (regex and substring).
  virtual int CompareTo(std::string_view cell) const = 0;
  // "binary:abc" etc., for descriptions and tests.
  virtual std::string ToString() const = 0;
  // Memory it holds (storage/memory_size.h): its object, its operand and a regex's compiled code.
  virtual size_t HeldBytes() const = 0;
};

// Builds a comparator from the unquoted filter-language argument "type:value" (split at the
// first ':'). InvalidArgument-style failures return nullptr with *error set.
std::shared_ptr<const Comparator> MakeComparator(std::string_view spec, std::string* error);

// CompareFilter.compare: true when a cell whose comparison gave `compare_result` is filtered
// OUT. With the comparator's operand first, `cell op operand` holds exactly when this is false.
bool CompareFiltersOut(CompareOp op, int compare_result);

// HRegion.checkAndMutate's test of one column (checkAndPut, checkAndDelete, checkAndMutate of
// both Thrift services). `stored` is the column's newest visible value (nullopt: absent);
// `expected` is the caller's value, where unset and empty mean the same.
//  - An empty expected value: every operator but NOT_EQUAL passes when the column is absent or
//    empty; NOT_EQUAL passes exactly when it holds a non-empty value.
//  - Otherwise an absent column never passes, and a present one passes when
//    `expected op stored` holds, in unsigned byte order (LESS: expected sorts first), the
//    reverse of a filter's reading. NO_OP cannot compare: HBase's region server throws
//    "Unknown Compare op NO_OP" (a RuntimeException its client keeps retrying), here an
//    IOError.
Status CheckValueMatches(CompareOp op, const std::optional<std::string>& expected,
                         const std::optional<std::string_view>& stored, bool* matches);

}  // namespace hbemu::storage
