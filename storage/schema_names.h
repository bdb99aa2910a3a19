#pragma once

#include "storage/schema.h"

namespace hbemu::storage {

// The names HBase gives these settings in descriptors and shells ("TTL", "ASYNC_WAL", ...).
const char* KeepDeletedCellsName(KeepDeletedCells k);
const char* DurabilityName(Durability d);

}  // namespace hbemu::storage
