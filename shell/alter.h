#pragma once

#include <set>
#include <string>
#include <vector>

#include "THBaseService_types.h"
#include "shell/shell.h"
#include "shell/value.h"

namespace hbemu::shell {

// `alter`: every form HBase 2.6.1's shell takes. Family specs ('f', NAME => 'f', ...) add or
// change a family; 'delete' => 'f' and METHOD => 'delete' remove one; table attributes
// (MAX_FILESIZE => ..., METADATA, CONFIGURATION, METHOD => 'table_att'), METHOD =>
// 'table_att_unset' / 'table_conf_unset' and the coprocessor forms touch the table only, never
// a family. As in HBase, the whole statement is checked before anything is written.
void Alter(CommandContext& ctx);

// Applies a hash of table attributes (MAX_FILESIZE => ..., DURABILITY => ..., METADATA => {...},
// CONFIGURATION => {...}; HBase 2 keeps a table's configuration among its values) onto `desc`,
// as `alter` and `create` do. Returns the keys it does not know, for the caller's note.
std::vector<std::string> ApplyTableAttributes(const Value& arg, hbemu::thrift2::TTableDescriptor* desc);

// Table attributes HBase names in TABLE_ATTRIBUTES (TableDescriptorBuilder's reserved keys);
// every other key is METADATA.
const std::set<std::string>& ReservedTableKeys();

// The table's region count (1 when the server lists none).
int RegionCount(CommandContext& ctx, const std::string& table);

}  // namespace hbemu::shell
