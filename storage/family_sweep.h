#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "storage/status.h"

namespace leveldb {
class DB;
}

namespace hbemu::storage {

// Runs before each batch a sweep reads; an error ends the sweep there, as a failed read or
// write would (tests inject failures and pauses with it).
using SweepBatchHook = std::function<Status(uint64_t table_id, std::string_view family)>;

// Deletes every cell of one family of one table, row by row in bounded batches. Used after
// the family left the table's descriptor; the caller keeps the family from being added again
// until the sweep is over (Catalog::FinishFamilyDrop), since a new cell of it would be deleted.
Status SweepFamily(leveldb::DB* db, uint64_t table_id, std::string_view family,
                   const SweepBatchHook& before_batch = nullptr);

}  // namespace hbemu::storage
