#pragma once

#include <cstddef>
#include <cstdint>

#include <thrift/protocol/TProtocol.h>

#include "storage/row_batch.h"

namespace hbemu::server {

// Writes scanned rows as Thrift1 TRowResults: exactly the bytes that ToTRowResult (convert.h)
// of each row followed by the generated TRowResult::write would give, without building those
// structs (their map nodes and string copies cost more than reading the cells from LevelDB).
// `sorted_columns` chooses the sortedColumns list (every cell, in order) over the columns map
// (the newest version of each column). Each returns the bytes written.
//
// The wire session's own protocols (TBinaryProtocolT and TCompactProtocolT over TMemoryBuffer)
// are recognised once per call and written through their concrete types, so the protocol
// calls of a row are inline and values go from the batch into the reply buffer without a
// string copy; any other protocol is written through TProtocol's virtual calls.

// One row: rows.row_key(row) and its cells.
uint32_t WriteTRowResult(const storage::RowBatch& rows, size_t row, bool sorted_columns,
                         apache::thrift::protocol::TProtocol* out);

// Every row as list<TRowResult>: the success value of scannerGet / scannerGetList.
uint32_t WriteTRowResultList(const storage::RowBatch& rows, bool sorted_columns,
                             apache::thrift::protocol::TProtocol* out);

}  // namespace hbemu::server
