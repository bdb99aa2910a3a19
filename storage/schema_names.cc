#include "storage/schema_names.h"

namespace hbemu::storage {

const char* KeepDeletedCellsName(KeepDeletedCells k) {
  switch (k) {
    case KeepDeletedCells::kFalse: return "FALSE";
    case KeepDeletedCells::kTrue: return "TRUE";
    case KeepDeletedCells::kTtl: return "TTL";
  }
  return "FALSE";
}

const char* DurabilityName(Durability d) {
  switch (d) {
    case Durability::kUseDefault: return "USE_DEFAULT";
    case Durability::kSkipWal: return "SKIP_WAL";
    case Durability::kAsyncWal: return "ASYNC_WAL";
    case Durability::kSyncWal: return "SYNC_WAL";
    case Durability::kFsyncWal: return "FSYNC_WAL";
  }
  return "USE_DEFAULT";
}

}  // namespace hbemu::storage
