#include "server/gateway/scanner_fetch.h"

#include <algorithm>

#include "server/limits.h"

namespace hbemu::server {

storage::Status FetchScannerRows(storage::Scanner* scanner, int64_t requested,
                                 storage::RowBatch* rows) {
  const Limits& limits = CurrentLimits();
  const size_t max_results =
      static_cast<size_t>(std::min(requested, limits.scanner_rows_per_call));
  const size_t max_bytes = static_cast<size_t>(limits.reply_bytes);
  const size_t first = rows->size();
  const size_t first_bytes = rows->data_bytes();
  // One result at a time, so the byte bound is checked after every row: Scanner::Next costs
  // the same per row either way.
  while (rows->size() - first < max_results && rows->data_bytes() - first_bytes < max_bytes) {
    const size_t before = rows->size();
    HBEMU_RETURN_IF_ERROR(scanner->Next(1, rows));
    if (rows->size() == before) break;  // exhausted
  }
  return storage::Status::OK();
}

storage::Status FetchScannerRows(const storage::Store& store, ScannerRegistry::Entry* entry,
                                 int64_t requested, storage::RowBatch* rows) {
  if (requested == 0) return storage::Status::OK();
  if (entry->scanner == nullptr) {
    HBEMU_RETURN_IF_ERROR(store.OpenScanner(entry->table, entry->spec, &entry->scanner));
    entry->spec = storage::ScanSpec();  // the scanner keeps its own copy
  }
  const storage::Status status = FetchScannerRows(entry->scanner.get(), requested, rows);
  ScannerRegistry::Recount(entry);
  return status;
}

}  // namespace hbemu::server
