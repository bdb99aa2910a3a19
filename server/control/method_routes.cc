#include "server/control/method_routes.h"

#include "server/admin/known_methods.h"
#include "server/control/happybase_operations.h"

namespace hbemu::server::control {

void RegisterMethodRoutes(ControlRoutes* routes, const ControlContext&) {
  routes->Add("GET", "/control/methods", [](const ControlRequest&) {
    nlohmann::json operations = nlohmann::json::object();
    for (const HappybaseOperation& op : HappybaseOperations()) {
      nlohmann::json methods = nlohmann::json::array();
      for (std::string_view m : op.methods) methods.push_back(std::string(m));
      operations[std::string(op.name)] = methods;
    }
    nlohmann::json out{{"happybase", operations}};
    for (const char* service : {"thrift1", "thrift2", "rest"}) {
      nlohmann::json methods = nlohmann::json::array();
      for (std::string_view m : admin::KnownMethods(service)) methods.push_back(std::string(m));
      out[service] = methods;
    }
    return out;
  });
}

}  // namespace hbemu::server::control
