#pragma once

#include <cstdint>
#include <string_view>

#include "storage/status.h"

namespace leveldb {
class DB;
}

namespace hbemu::storage {

// Deletes every cell of one family of one table, row by row in bounded batches. Used after
// the family left the table's descriptor, so no new cell of it can appear meanwhile.
Status SweepFamily(leveldb::DB* db, uint64_t table_id, std::string_view family);

}  // namespace hbemu::storage
