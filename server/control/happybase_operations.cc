#include "server/control/happybase_operations.h"

#include <algorithm>

namespace hbemu::server::control {

const std::vector<HappybaseOperation>& HappybaseOperations() {
  // happybase 1.x. Writes go through a Batch: Table.put, Table.delete and Table.counter_set
  // send one mutateRows (mutateRowsTs with a timestamp), so the server cannot tell them apart.
  // Table.scan opens with scannerOpenWithScan (compat "0.90": scannerOpen*), then fetches with
  // scannerGetList and closes.
  static const std::vector<HappybaseOperation> kOperations = [] {
    const std::vector<std::string_view> mutate = {"mutateRows", "mutateRowsTs"};
    const std::vector<std::string_view> increment = {"atomicIncrement"};
    std::vector<HappybaseOperation> ops = {
        {"Batch.send", mutate},
        {"Connection.compact_table", {"compact", "majorCompact"}},
        {"Connection.create_table", {"createTable"}},
        {"Connection.delete_table", {"deleteTable"}},
        {"Connection.disable_table", {"disableTable"}},
        {"Connection.enable_table", {"enableTable"}},
        {"Connection.is_table_enabled", {"isTableEnabled"}},
        {"Connection.tables", {"getTableNames"}},
        {"Table.cells", {"getVer", "getVerTs"}},
        {"Table.counter_dec", increment},
        {"Table.counter_get", increment},
        {"Table.counter_inc", increment},
        {"Table.counter_set", mutate},
        {"Table.delete", mutate},
        {"Table.families", {"getColumnDescriptors"}},
        {"Table.put", mutate},
        {"Table.regions", {"getTableRegions"}},
        {"Table.row", {"getRowWithColumns", "getRowWithColumnsTs"}},
        {"Table.rows", {"getRowsWithColumns", "getRowsWithColumnsTs"}},
        {"Table.scan",
         {"scannerOpenWithScan", "scannerOpen", "scannerOpenTs", "scannerOpenWithStop",
          "scannerOpenWithStopTs", "scannerGetList", "scannerClose"}},
    };
    std::sort(ops.begin(), ops.end(),
              [](const HappybaseOperation& a, const HappybaseOperation& b) { return a.name < b.name; });
    return ops;
  }();
  return kOperations;
}

const HappybaseOperation* FindHappybaseOperation(std::string_view name) {
  const auto& ops = HappybaseOperations();
  auto it = std::lower_bound(ops.begin(), ops.end(), name,
                             [](const HappybaseOperation& op, std::string_view n) { return op.name < n; });
  return it != ops.end() && it->name == name ? &*it : nullptr;
}

}  // namespace hbemu::server::control
