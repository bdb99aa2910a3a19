#pragma once

#include <string_view>
#include <vector>

namespace hbemu::server::control {

// A happybase method as a test names it ("Table.put") and the Thrift1 methods that carry it
// out. Only the calls that do the operation's own work are listed: the look-ups some variants
// make first (Table.delete without columns asks getColumnDescriptors for the families) belong
// to the operation that does that work (Table.families), so a fault on one does not hit the
// other. docs/happybase-calls.md lists every call, look-ups included; a test runs each happybase
// method against the server and checks both against the call log.
struct HappybaseOperation {
  std::string_view name;
  std::vector<std::string_view> methods;
};

// Every operation, sorted by name.
const std::vector<HappybaseOperation>& HappybaseOperations();
// nullptr for a name that is not an operation.
const HappybaseOperation* FindHappybaseOperation(std::string_view name);

}  // namespace hbemu::server::control
