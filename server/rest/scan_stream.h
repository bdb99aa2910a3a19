#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/rest/models.h"

namespace hbemu::server::rest {

// HBase's gateway reads a stateless scan's results this many at a time (its default
// hbase.rest.scan.fetchsize) and, in protobuf, writes each read as one chunk.
inline constexpr int32_t kScanFetchSize = 10;

// The protobuf body of a stateless scan: not one CellSet but a stream of chunks, each a 2-byte
// big-endian length then a CellSet of up to `fetch_size` rows. `rows` are the rows the scan
// returned, already cut to `limit`. As HBase does, a limit below the fetch size gives exactly
// one chunk (empty when no row matched), otherwise one chunk per fetch and none for an empty
// scan; the length is the low 16 bits of the CellSet's size, as Java's (short) cast writes it.
std::string EncodeCellSetStream(const std::vector<RowModel>& rows, int64_t limit,
                                int32_t fetch_size = kScanFetchSize);

}  // namespace hbemu::server::rest
