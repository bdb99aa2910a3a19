#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "storage/schema.h"

namespace hbemu::server {

// HBase 2.6's own tables, hbase:meta and hbase:namespace, as its admin calls describe them.
// The catalog here is not kept in tables, so these are descriptors only: listed where HBase
// lists system tables and described on request, with no cells behind them.
const std::vector<std::shared_ptr<const storage::TableDescriptor>>& SystemTables();
// nullptr unless `full_name` ("hbase:meta", "hbase:namespace") names one of them.
std::shared_ptr<const storage::TableDescriptor> FindSystemTable(std::string_view full_name);

}  // namespace hbemu::server
