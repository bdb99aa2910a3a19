// HBase's snapshot commands (snapshot, restore_snapshot, clone_snapshot, list_snapshots,
// delete_snapshot) over hbase-emulator's test controls: the Thrift gateways have no snapshot
// calls, so these need --test-controls on the server and its admin port (--admin-port).

#include <ctime>
#include <regex>

#include "shell/control_client.h"
#include "shell/shell.h"

namespace hbemu::shell {
namespace {

// The Java exception class a control's error names, and the text after it.
struct Failure {
  std::string java_class;
  std::string text;
};

Failure Split(const ControlFailure& e) {
  const std::string message = e.what();
  const size_t colon = message.find(": ");
  const bool named = message.rfind("java.", 0) == 0 || message.rfind("org.", 0) == 0;
  if (!named || colon == std::string::npos) return {"", message};
  return {message.substr(0, colon), message.substr(colon + 2)};
}

bool Is(const Failure& f, const char* simple_name) {
  return f.java_class.size() >= std::char_traits<char>::length(simple_name) &&
         f.java_class.compare(f.java_class.size() - std::char_traits<char>::length(simple_name),
                              std::string::npos, simple_name) == 0;
}

// What HBase's shell prints for the failures every snapshot command shares.
[[noreturn]] void Rethrow(const ControlFailure& e) {
  const Failure f = Split(e);
  if (Is(f, "IllegalArgumentException")) throw ShellError(f.text);
  throw ShellError(f.java_class.empty() ? f.text : f.java_class + ": " + f.text);
}

nlohmann::json Call(CommandContext& ctx, const char* method, const char* path,
                    const nlohmann::json& body = nullptr) {
  return ControlCall(ctx.connection.options(), method, path, body);
}

void Snapshot(CommandContext& ctx) {
  const Value& tables = Arg(ctx, 0, "table");
  nlohmann::json body{{"name", StringArg(ctx, 1, "snapshot name")}};
  body["tables"] = nlohmann::json::array();
  if (tables.IsArray()) {
    // Beyond HBase: several tables in one snapshot.
    for (const Value& t : tables.items) body["tables"].push_back(t.ToS());
  } else {
    body["tables"].push_back(StringArg(ctx, 0, "table"));
  }
  try {
    Call(ctx, "POST", "/control/snapshot", body);
  } catch (const ControlFailure& e) {
    Rethrow(e);
  }
}

void RestoreSnapshot(CommandContext& ctx) {
  const std::string name = StringArg(ctx, 0, "snapshot name");
  try {
    // HBase's rule: the table must be disabled, and stays so.
    Call(ctx, "POST", "/control/restore_snapshot", {{"name", name}, {"hbase_rules", true}});
  } catch (const ControlFailure& e) {
    const Failure f = Split(e);
    if (Is(f, "TableNotDisabledException")) throw ShellError("Table " + f.text + " should be disabled!");
    if (Is(f, "SnapshotDoesNotExistException")) {
      throw ShellError("Unable to find the table name for snapshot=" + name);
    }
    Rethrow(e);
  }
}

void CloneSnapshot(CommandContext& ctx) {
  const std::string name = StringArg(ctx, 0, "snapshot name");
  const std::string table = StringArg(ctx, 1, "table");
  try {
    Call(ctx, "POST", "/control/clone_snapshot", {{"name", name}, {"table", table}});
  } catch (const ControlFailure& e) {
    const Failure f = Split(e);
    if (Is(f, "SnapshotDoesNotExistException")) throw ShellError("Unknown snapshot " + name + "!");
    if (Is(f, "TableExistsException")) throw ShellError("Table already exists: " + table + "!");
    if (Is(f, "NamespaceNotFoundException")) {
      throw ShellError("Unknown namespace: " + table.substr(0, table.find(':')) + "!");
    }
    Rethrow(e);
  }
}

void DeleteSnapshot(CommandContext& ctx) {
  const std::string name = StringArg(ctx, 0, "snapshot name");
  try {
    Call(ctx, "POST", "/control/delete_snapshot", {{"name", name}});
  } catch (const ControlFailure& e) {
    if (Is(Split(e), "SnapshotDoesNotExistException")) {
      throw ShellError("Unknown snapshot " + name + "!");
    }
    Rethrow(e);
  }
}

// "2026-11-26 09:05:59 +0000": HBase's shell prints creation times in local time.
std::string LocalTime(int64_t ms) {
  const time_t seconds = static_cast<time_t>(ms / 1000);
  struct tm local;
  localtime_r(&seconds, &local);
  char text[64];
  strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S %z", &local);
  return text;
}

void ListSnapshots(CommandContext& ctx) {
  const std::string pattern = ctx.args.empty() ? ".*" : ctx.args[0].ToS();
  std::regex re;
  try {
    re = std::regex(pattern);
  } catch (const std::regex_error& e) {
    throw ShellError("Illegal regular expression " + pattern + ": " + e.what());
  }
  nlohmann::json answer;
  try {
    answer = Call(ctx, "GET", "/control/snapshots");
  } catch (const ControlFailure& e) {
    Rethrow(e);
  }
  ctx.out.Header("SNAPSHOT", "TABLE + CREATION TIME + TTL(Sec)");
  for (const auto& s : answer.value("snapshots", nlohmann::json::array())) {
    const std::string name = s.value("name", "");
    if (!std::regex_match(name, re)) continue;
    std::string tables;
    for (const auto& t : s.value("tables", nlohmann::json::array())) {
      tables += (tables.empty() ? "" : ",") + t.get<std::string>();
    }
    ctx.out.Row(name, tables + " (" + LocalTime(s.value("created_ms", int64_t{0})) + ") FOREVER");
  }
  ctx.out.Footer();
}

}  // namespace

void AddSnapshotCommands(CommandTable* t) {
  auto add = [t](const char* name, std::function<void(CommandContext&)> run, const char* help) {
    CommandSpec spec;
    spec.group = "snapshots";
    spec.help = help;
    spec.run = std::move(run);
    (*t)[name] = std::move(spec);
  };
  add("snapshot", Snapshot,
      "Take a snapshot of specified table. Examples:\n"
      "  hbase> snapshot 'sourceTable', 'snapshotName'\n"
      "hbase-emulator: needs the server's --test-controls (and --admin-port here if not 9095);\n"
      "a list of tables takes one snapshot of them all:\n"
      "  hbase> snapshot ['t1', 'ns:t2'], 'snapshotName'");
  add("restore_snapshot", RestoreSnapshot,
      "Restore a specified snapshot.\n"
      "The restore will replace the content of the original table,\n"
      "bringing back the content to the snapshot state.\n"
      "The table must be disabled.\n"
      "  hbase> restore_snapshot 'snapshotName'");
  add("clone_snapshot", CloneSnapshot,
      "Create a new table by cloning the snapshot content.\n"
      "There're no copies of data involved.\n"
      "And writing on the newly created table will not influence the snapshot data.\n"
      "  hbase> clone_snapshot 'snapshotName', 'tableName'\n"
      "  hbase> clone_snapshot 'snapshotName', 'namespace:tableName'");
  add("list_snapshots", ListSnapshots,
      "List all snapshots taken (by printing the names and relative information).\n"
      "Optional regular expression parameter could be used to filter the output\n"
      "by snapshot name.\n"
      "  hbase> list_snapshots\n  hbase> list_snapshots 'abc.*'");
  add("delete_snapshot", DeleteSnapshot,
      "Delete a specified snapshot.\n  hbase> delete_snapshot 'snapshotName'");
}

}  // namespace hbemu::shell
