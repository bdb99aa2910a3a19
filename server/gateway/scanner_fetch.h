#pragma once

#include <cstdint>

#include "server/gateway/scanner_registry.h"
#include "storage/row_batch.h"
#include "storage/scanner.h"
#include "storage/status.h"
#include "storage/store.h"

namespace hbemu::server {

// One scanner fetch of either service (Thrift1 scannerGet/scannerGetList, Thrift2
// getScannerRows and getScannerResults): up to `requested` results appended to *rows, but no
// more than the scanner_rows_per_call limit, and no row added once the fetch holds
// reply_bytes of keys, families, qualifiers and values. That is HBase's max result size rule
// (a fetch that fills it returns fewer rows and the scanner goes on at the next one), so no
// numRows, however large, makes a reply or the memory behind it larger than those limits
// (and one row). REQUIRES: requested >= 0.
storage::Status FetchScannerRows(storage::Scanner* scanner, int64_t requested,
                                 storage::RowBatch* rows);

// The same for a registered scanner, opened from entry->spec first if it is not open yet and
// rows are asked for. HBase's client opens its region scanner at the first fetch that needs
// rows, so a missing table or family fails there (and at every later fetch until one opens
// it), a fetch of 0 rows never fails, and the scanner sees the writes made before that fetch.
// REQUIRES: requested >= 0, entry->mu held.
storage::Status FetchScannerRows(const storage::Store& store, ScannerRegistry::Entry* entry,
                                 int64_t requested, storage::RowBatch* rows);

}  // namespace hbemu::server
