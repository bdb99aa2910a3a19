#pragma once

#include <set>
#include <string>

#include "shell/shell.h"

namespace hbemu::shell {

// `alter`: every form HBase 2.6.1's shell takes. Family specs ('f', NAME => 'f', ...) add or
// change a family; 'delete' => 'f' and METHOD => 'delete' remove one; table attributes
// (MAX_FILESIZE => ..., METADATA, CONFIGURATION, METHOD => 'table_att'), METHOD =>
// 'table_att_unset' / 'table_conf_unset' and the coprocessor forms touch the table only, never
// a family. As in HBase, the whole statement is checked before anything is written.
void Alter(CommandContext& ctx);

// Table attributes HBase names in TABLE_ATTRIBUTES (TableDescriptorBuilder's reserved keys);
// every other key is METADATA.
const std::set<std::string>& ReservedTableKeys();

// The table's region count (1 when the server lists none).
int RegionCount(CommandContext& ctx, const std::string& table);

}  // namespace hbemu::shell
