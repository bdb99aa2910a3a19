// General commands: status, version, help, exit.

#include <set>

#include "shell/shell.h"
#include "shell/version.h"

namespace hbemu::shell {
namespace {

void Status(CommandContext& ctx) {
  // Thrift has no cluster-status call: count region servers and regions from the region
  // locations of every table, as HBase's summary line reports them.
  auto& client = ctx.connection.Thrift1();
  std::vector<std::string> tables;
  client.getTableNames(tables);
  std::set<std::string> servers;
  long regions = 0;
  for (const auto& t : tables) {
    std::vector<hbemu::thrift::TRegionInfo> infos;
    client.getTableRegions(infos, t);
    for (const auto& r : infos) {
      servers.insert(r.serverName + ":" + std::to_string(r.port));
      ++regions;
    }
  }
  size_t n = std::max<size_t>(servers.size(), 1);
  char load[32];
  std::snprintf(load, sizeof(load), "%.4f", static_cast<double>(regions) / n);
  ctx.out.Line("1 active master, 0 backup masters, " + std::to_string(n) + " servers, 0 dead, " +
               load + " average load");
  std::string format = ctx.args.empty() ? "summary" : ctx.args[0].ToS();
  if (format != "summary") {
    // 'simple', 'detailed', 'replication', 'tasks' list per-server metrics HBase's master
    // collects; Thrift carries none of them.
    ctx.out.Line("status '" + format +
                 "': hbase-emulator reports no per-server metrics over Thrift; the summary above "
                 "is all there is");
  }
}

void Version(CommandContext& ctx) {
  ctx.out.Line(std::string(kShellVersion) + ", hbase-emulator shell (HBase 2.6 shell syntax)");
}

}  // namespace

void AddGeneralCommands(CommandTable* t) {
  CommandSpec status;
  status.group = "general";
  status.help = "Show cluster status (regions and region servers seen through Thrift).\n"
                "  hbase> status\n  hbase> status 'simple'  (this shell has no per-server metrics)";
  status.run = Status;
  (*t)["status"] = status;

  CommandSpec version;
  version.group = "general";
  version.help = "Output the shell's version.\n  hbase> version";
  version.run = Version;
  (*t)["version"] = version;

  CommandSpec exit;
  exit.group = "hbase-shell";
  exit.help = "Leave the shell.\n  hbase> exit";
  exit.timed = false;
  exit.run = [](CommandContext&) {};
  (*t)["exit"] = exit;

  CommandSpec help;
  help.group = "hbase-shell";
  help.help = "Show help: all commands, or one command's usage.\n  hbase> help\n"
              "  hbase> help 'get'";
  help.timed = false;
  // The table is complete by the time help runs, so it can describe every command.
  help.run = [t](CommandContext& ctx) {
    if (!ctx.args.empty()) {
      std::string name = ctx.args[0].ToS();
      auto it = t->find(name);
      if (it == t->end()) {
        // help 'ddl': every command of a group, as HBase's shell prints a group.
        bool found = false;
        for (const auto& [command, spec] : *t) {
          if (spec.group != name) continue;
          ctx.out.Line("Command: " + command);
          ctx.out.Line(spec.help);
          ctx.out.Line("");
          found = true;
        }
        if (!found) throw ShellError("Unknown command '" + name + "'");
        return;
      }
      ctx.out.Line(it->second.help);
      return;
    }
    ctx.out.Line("HBase Shell (hbase-emulator " + std::string(kShellVersion) +
                 "), HBase's shell syntax over Thrift.");
    ctx.out.Line("Type 'help \"COMMAND\"' for help on a specific command.");
    ctx.out.Line("");
    ctx.out.Line("COMMAND GROUPS:");
    std::map<std::string, std::vector<std::string>> groups;
    for (const auto& [name, spec] : *t) groups[spec.group].push_back(name);
    // HBase's group order; "hbase-shell" holds what only this shell has (exit, help, reset).
    for (const char* g : {"general", "ddl", "namespace", "dml", "tools", "replication",
                          "snapshots", "configuration", "quotas", "security", "procedures",
                          "visibility labels", "rsgroup", "storefiletracker", "hbase-shell",
                          "test controls (hbase-emulator --test-controls)"}) {
      if (groups[g].empty()) continue;
      std::string line = "  Group name: " + std::string(g) + "\n  Commands: ";
      for (size_t i = 0; i < groups[g].size(); ++i) line += (i ? ", " : "") + groups[g][i];
      ctx.out.Line(line);
      ctx.out.Line("");
    }
  };
  (*t)["help"] = help;
}

}  // namespace hbemu::shell
