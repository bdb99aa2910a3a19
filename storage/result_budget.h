#pragma once

#include <cstddef>
#include <cstdint>

#include "storage/cell.h"
#include "storage/status.h"

namespace hbemu::storage {

// The result budget of one multi-get call (Thrift1 getRows*, Thrift2 getMultiple):
// the result_bytes limit of memory for the rows it reads, each charged its bytes and what holding
// it costs (a result and a reply struct per row, a cell and its strings per cell), so a list
// naming one row two million times is bounded as a list naming one big row many times.
//
// HBase bounds these with RowTooBigException (a row past hbase.table.max.rowsize, 1 GB) and
// MultiActionResultTooLarge (a multi-get past the region server's result size); here the call
// fails, before its reply is built, with ResultTooLarge naming the limit (not retriable: a
// retry would fail again). Not reply_bytes: that one ends a scanner fetch early, to go on at
// the next fetch.
class ResultBudget {
 public:
  // What one row and one cell cost beyond their bytes.
  static constexpr size_t kRowOverhead = 512;
  static constexpr size_t kCellOverhead = 160;

  // `limit`: the result_bytes limit in force, handed in by the caller.
  explicit ResultBudget(uint64_t limit) : limit_(limit) {}

  // Charges one row's result; past the limit, the error the call fails with.
  Status Charge(const RowResult& result);
  uint64_t used() const { return used_; }

 private:
  uint64_t limit_;
  uint64_t used_ = 0;
};

}  // namespace hbemu::storage
