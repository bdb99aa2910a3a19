// The snapshot controls' routes (docs/test-controls.md#snapshots): storage/snapshots.h over JSON.

#include "server/control/snapshot_routes.h"

#include <chrono>

#include "server/gateway/java_exceptions.h"
#include "storage/snapshots.h"
#include "storage/store.h"

namespace hbemu::server::control {
namespace {

using nlohmann::json;
using storage::Status;

// A refused snapshot call: the HTTP status says what kind, the message names the Java exception
// HBase would raise (the shell words its errors from it).
void ThrowIfFailed(const Status& status) {
  if (status.ok()) return;
  int http = 500;
  switch (status.code()) {
    case Status::Code::kInvalidArgument:
    case Status::Code::kSnapshotCreation:
      http = 400;
      break;
    case Status::Code::kSnapshotNotFound:
    case Status::Code::kTableNotFound:
    case Status::Code::kNamespaceNotFound:
      http = 404;
      break;
    case Status::Code::kSnapshotExists:
    case Status::Code::kTableExists:
    case Status::Code::kTableNotDisabled:
      http = 409;
      break;
    default:
      break;
  }
  throw ControlError{http, std::string(JavaExceptionClass(status)) + ": " + status.message()};
}

std::string RequiredName(const ControlRequest& r, const char* key = "name") {
  std::string value = r.String(key);
  if (value.empty()) throw ControlError{400, "\"" + std::string(key) + "\" is required"};
  return value;
}

json InfoJson(const storage::SnapshotInfo& info) {
  return json{{"name", info.name},         {"tables", info.tables},
              {"created_ms", info.created_ms}, {"whole_store", info.whole_store},
              {"cells", info.cells},       {"bytes", info.bytes}};
}

json Describe(storage::Snapshots* snapshots, const std::string& name) {
  for (const storage::SnapshotInfo& info : snapshots->List()) {
    if (info.name == name) return InfoJson(info);
  }
  return json{{"name", name}};
}

double ElapsedMs(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

void RegisterSnapshotRoutes(ControlRoutes* routes, const ControlContext& context) {
  storage::Snapshots* snapshots = context.store->snapshots();
  // {"name": "s", "tables": ["t", "ns:u"]}; no tables (or an empty list): the whole store.
  routes->Add("POST", "/control/snapshot", [snapshots](const ControlRequest& r) {
    const std::string name = RequiredName(r);
    std::vector<std::string> tables;
    if (r.body.contains("tables")) {
      const json& list = r.body["tables"];
      if (!list.is_array()) throw ControlError{400, "\"tables\" is a list of table names"};
      for (const json& t : list) {
        if (!t.is_string()) throw ControlError{400, "\"tables\" is a list of table names"};
        tables.push_back(t.get<std::string>());
      }
    } else if (r.Has("table")) {
      tables.push_back(r.String("table"));
    }
    const auto start = std::chrono::steady_clock::now();
    ThrowIfFailed(snapshots->Take(name, tables));
    json answer = Describe(snapshots, name);
    answer["took_ms"] = ElapsedMs(start);
    return answer;
  });
  // {"name": "s"}; "hbase_rules": true asks HBase's restore_snapshot rule (tables disabled).
  routes->Add("POST", "/control/restore_snapshot", [snapshots](const ControlRequest& r) {
    const std::string name = RequiredName(r);
    storage::RestoreOptions options;
    options.require_disabled = r.Bool("hbase_rules", false);
    const auto start = std::chrono::steady_clock::now();
    ThrowIfFailed(snapshots->Restore(name, options));
    json answer = Describe(snapshots, name);
    answer["took_ms"] = ElapsedMs(start);
    return answer;
  });
  routes->Add("POST", "/control/clone_snapshot", [snapshots](const ControlRequest& r) {
    const std::string name = RequiredName(r);
    const std::string table = RequiredName(r, "table");
    ThrowIfFailed(snapshots->Clone(name, table));
    return json{{"name", name}, {"table", table}};
  });
  routes->Add("POST", "/control/delete_snapshot", [snapshots](const ControlRequest& r) {
    const std::string name = RequiredName(r);
    ThrowIfFailed(snapshots->Delete(name));
    return json{{"name", name}, {"deleted", true}};
  });
  routes->Add("GET", "/control/snapshots", [snapshots](const ControlRequest&) {
    json list = json::array();
    for (const storage::SnapshotInfo& info : snapshots->List()) list.push_back(InfoJson(info));
    return json{{"snapshots", list}};
  });
}

}  // namespace hbemu::server::control
