#include "storage/result_budget.h"

#include <algorithm>
#include <string>


namespace hbemu::storage {

Status ResultBudget::Charge(const RowResult& result) {
  uint64_t bytes = kRowOverhead + result.row.size();
  for (const Cell& cell : result.cells) {
    bytes += kCellOverhead + cell.family.size() + cell.qualifier.size() + cell.value.size();
  }
  used_ += bytes;
  if (used_ <= limit_) return Status::OK();
  return Status::ResultTooLarge(
      "Max size exceeded: the results of this call would hold more than the result_bytes "
      "limit of " + std::to_string(limit_) +
      " bytes (--limit result_bytes=N raises it); read fewer or smaller rows per call");
}

}  // namespace hbemu::storage
