#pragma once

#include <cstdint>

#include "storage/schema.h"
#include "storage/status.h"

namespace leveldb {
class DB;
}

namespace hbemu::storage {

class RowLocks;

// HBase's memstore flush, which every region close runs: at disableTable, and when a schema
// change (modifyTable, add/modify/deleteColumnFamily on an enabled table) reopens the regions
// with the old descriptor still in force. Of each column the flush keeps what a read of every
// version would see at that moment (RowReader::ReadForFlush: VERSIONS, family TTL beyond
// MIN_VERSIONS, cell TTL, cells masked by delete markers unless KEEP_DELETED_CELLS) and every
// delete marker; the rest is deleted here. Cells of families `table` does not name are
// left alone (a dropped family has its own sweep).
//
// Deviation, on purpose: HBase flushes only the memstore, so a cell that an earlier flush wrote
// to a store file is judged again only by a later compaction; this prunes every stored cell,
// as a flush followed by a compaction would (COMPATIBILITY.md).
//
// Rows are pruned in groups, each in one LevelDB write under the rows' locks, so a writer
// racing with the prune is never half-seen, and a crash leaves every row either pruned or not:
// both states read the same except for the versions a flush drops. Synchronous; one scan of
// the table, plus a second read of the rows that have something to drop.
Status PruneTable(leveldb::DB* db, RowLocks* row_locks, const TableDescriptor& table,
                  int64_t now_ms, bool sync);

}  // namespace hbemu::storage
