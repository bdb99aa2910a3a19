#include "storage/request_checks.h"

#include <string>

namespace hbemu::storage {

Status CheckRow(std::string_view row) {
  if (row.empty()) return Status::InvalidArgument("Row length is 0");
  if (row.size() > kMaxRowLength) {
    return Status::InvalidArgument("Row length " + std::to_string(row.size()) + " is > " +
                                   std::to_string(kMaxRowLength));
  }
  return Status::OK();
}

Status CheckTimestamp(int64_t ts) {
  if (ts >= 0) return Status::OK();
  return Status::InvalidArgument("Timestamp cannot be negative. ts=" + std::to_string(ts));
}

Status CheckTimeRange(int64_t min, int64_t max) {
  if (min < 0 || max < 0) {
    return Status::InvalidArgument("Timestamp cannot be negative. minStamp:" +
                                   std::to_string(min) + ", maxStamp:" + std::to_string(max));
  }
  if (max < min) return Status::InvalidArgument("maxStamp is smaller than minStamp");
  return Status::OK();
}

}  // namespace hbemu::storage
