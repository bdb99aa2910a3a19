#pragma once

#include <cstdint>
#include <string_view>

#include "storage/status.h"

namespace hbemu::storage {

// The checks HBase's client-side constructors make, with HBase 2.6.1's texts, in one place:
// Mutation.checkRow (new Put, Delete, Increment, Append, Get), a negative timestamp given to a
// Put or Delete, and TimeRange. Storage applies them to every write and read it is asked for;
// each Thrift door calls them where HBase's Thrift server builds the object, before any table
// is looked up, and turns the Status into the exception HBase's door throws there.

inline constexpr size_t kMaxRowLength = 32767;  // HConstants.MAX_ROW_LENGTH

// "Row length is 0", "Row length N is > 32767".
Status CheckRow(std::string_view row);
// "Timestamp cannot be negative. ts=N".
Status CheckTimestamp(int64_t ts);
// "Timestamp cannot be negative. minStamp:A, maxStamp:B"; then min > max gives
// "maxStamp is smaller than minStamp" (InvalidArgument; callers that answer it as HBase's
// region server does map the code themselves).
Status CheckTimeRange(int64_t min, int64_t max);

}  // namespace hbemu::storage
