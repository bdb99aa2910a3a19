#pragma once

#include <cstddef>

#include "storage/row_batch.h"

namespace hbemu::server {

// The RowBatch a scan reply (Thrift1 scannerGet/scannerGetList, Thrift2 getScannerRows) is
// built in. One batch is kept per thread across calls (a call runs on one thread from start to
// end), so a warmed-up batch takes a whole reply without an allocation per row; it comes empty,
// and one that grew past kKeepBytes for a huge result is given back when the scope ends, however
// the call ends.
class ReplyBatch {
 public:
  ReplyBatch() : rows_(ThreadBatch()) { rows_.Clear(); }
  ~ReplyBatch() {
    if (rows_.capacity_bytes() > kKeepBytes) rows_ = storage::RowBatch();
  }
  ReplyBatch(const ReplyBatch&) = delete;
  ReplyBatch& operator=(const ReplyBatch&) = delete;

  storage::RowBatch& rows() { return rows_; }

 private:
  static constexpr size_t kKeepBytes = 4u << 20;
  static storage::RowBatch& ThreadBatch() {
    thread_local storage::RowBatch batch;
    return batch;
  }

  storage::RowBatch& rows_;
};

}  // namespace hbemu::server
