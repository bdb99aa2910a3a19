#pragma once

#include <cstdint>

#include <thrift/protocol/TProtocol.h>

#include "storage/row_batch.h"

namespace hbemu::server {

// Writes scanned rows as the list<TResult> of a getScannerRows reply: exactly the bytes that
// thrift2_convert::ToTResult (convert.h) of each row followed by the generated write would
// give, without building the TResult and TColumnValue structs, through the wire session's
// reply protocols directly (wire_writer.h). Returns the bytes written.
uint32_t WriteTResultList(const storage::RowBatch& rows, apache::thrift::protocol::TProtocol* out);

}  // namespace hbemu::server
