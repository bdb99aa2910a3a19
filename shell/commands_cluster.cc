// list_enabled_tables / list_disabled_tables, and the cluster commands (balancer, move,
// replication, quotas, security, ...) that a single-process emulator has nothing to act on:
// each answers with one line saying so, instead of reading as a typo (Ruby's NameError).
// Registered before the other groups, so a branch that implements one of them replaces it.

#include <algorithm>

#include "shell/descriptors.h"
#include "shell/shell.h"

namespace hbemu::shell {
namespace {

namespace t2 = hbemu::thrift2;

void ListByState(CommandContext& ctx, bool enabled) {
  auto& client = ctx.connection.Thrift2();
  std::vector<t2::TTableDescriptor> descs;
  client.getTableDescriptorsByPattern(descs, ".*", false);
  std::vector<std::string> names;
  for (const auto& d : descs) {
    std::string ns = d.tableName.__isset.ns ? d.tableName.ns : "";
    std::string name =
        (ns.empty() || ns == "default") ? d.tableName.qualifier : ns + ":" + d.tableName.qualifier;
    if (client.isTableEnabled(d.tableName) == enabled) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  ctx.out.Header("TABLE");
  for (const auto& n : names) ctx.out.Row(n);
  ctx.out.Footer();
  ctx.out.Return(InspectList(names));
}

struct ClusterGroup {
  const char* group;
  const char* lacks;  // what the emulator does not have
  std::vector<const char*> commands;
};

const std::vector<ClusterGroup>& ClusterGroups() {
  static const std::vector<ClusterGroup> kGroups = {
      {"general", "no task monitor", {"processlist"}},
      {"tools",
       "no region servers to assign, move, split, merge or balance, and no background chores",
       {"assign", "balancer", "balance_switch", "balancer_enabled", "normalize",
        "normalizer_switch", "normalizer_enabled", "is_in_maintenance_mode",
        "clear_slowlog_responses", "close_region", "compaction_switch", "flush_master_store",
        "get_balancer_decisions", "get_balancer_rejections", "get_slowlog_responses",
        "get_largelog_responses", "move", "split", "merge_region", "unassign", "zk_dump",
        "wal_roll", "hlog_roll", "hbck_chore_run", "catalogjanitor_run", "catalogjanitor_switch",
        "catalogjanitor_enabled", "cleaner_chore_run", "cleaner_chore_switch",
        "cleaner_chore_enabled", "compact_rs", "compaction_state", "trace",
        "splitormerge_switch", "splitormerge_enabled", "clear_compaction_queues",
        "list_deadservers", "list_liveservers", "list_unknownservers", "clear_deadservers",
        "clear_block_cache", "stop_master", "stop_regionserver", "regioninfo", "rit",
        "list_decommissioned_regionservers", "decommission_regionservers",
        "recommission_regionserver", "truncate_region"}},
      {"replication", "no replication",
       {"add_peer", "remove_peer", "list_peers", "enable_peer", "disable_peer",
        "set_peer_replicate_all", "set_peer_serial", "set_peer_namespaces",
        "append_peer_namespaces", "remove_peer_namespaces", "set_peer_exclude_namespaces",
        "append_peer_exclude_namespaces", "remove_peer_exclude_namespaces",
        "show_peer_tableCFs", "set_peer_tableCFs", "set_peer_exclude_tableCFs",
        "append_peer_exclude_tableCFs", "remove_peer_exclude_tableCFs", "set_peer_bandwidth",
        "list_replicated_tables", "append_peer_tableCFs", "remove_peer_tableCFs",
        "enable_table_replication", "disable_table_replication", "get_peer_config",
        "list_peer_configs", "update_peer_config", "peer_modification_enabled",
        "peer_modification_switch"}},
      {"configuration", "no online configuration",
       {"update_config", "update_all_config", "update_rsgroup_config"}},
      {"quotas", "no quotas",
       {"set_quota", "list_quotas", "list_quota_table_sizes", "list_quota_snapshots",
        "list_snapshot_sizes", "enable_rpc_throttle", "disable_rpc_throttle",
        "enable_exceed_throttle_quota", "disable_exceed_throttle_quota"}},
      {"security", "no access control (no AccessController, no users)",
       {"list_security_capabilities", "grant", "revoke", "user_permission"}},
      {"procedures", "no master procedures or locks", {"list_procedures", "list_locks"}},
      {"visibility labels", "no visibility labels (no VisibilityController)",
       {"add_labels", "list_labels", "set_auths", "get_auths", "clear_auths",
        "set_visibility"}},
      {"rsgroup", "no region server groups",
       {"list_rsgroups", "get_rsgroup", "add_rsgroup", "remove_rsgroup", "balance_rsgroup",
        "move_servers_rsgroup", "move_tables_rsgroup", "move_namespaces_rsgroup",
        "move_servers_tables_rsgroup", "move_servers_namespaces_rsgroup",
        "get_server_rsgroup", "get_table_rsgroup", "remove_servers_rsgroup", "rename_rsgroup",
        "alter_rsgroup_config", "show_rsgroup_config", "get_namespace_rsgroup"}},
      {"storefiletracker", "no store file trackers", {"change_sft", "change_sft_all"}},
  };
  return kGroups;
}

}  // namespace

void AddClusterCommands(CommandTable* t) {
  for (const auto& g : ClusterGroups()) {
    for (const char* name : g.commands) {
      CommandSpec spec;
      spec.group = g.group;
      std::string line = std::string(name) + ": hbase-emulator is a single process with " +
                         g.lacks + "; nothing done";
      spec.help = "An HBase cluster command. " + line + ".";
      spec.run = [line](CommandContext& ctx) { ctx.out.Line(line); };
      (*t)[name] = std::move(spec);
    }
  }
  CommandSpec enabled;
  enabled.group = "ddl";
  enabled.help = "List all enabled tables.\n  hbase> list_enabled_tables";
  enabled.run = [](CommandContext& ctx) { ListByState(ctx, true); };
  (*t)["list_enabled_tables"] = enabled;
  CommandSpec disabled;
  disabled.group = "ddl";
  disabled.help = "List all disabled tables.\n  hbase> list_disabled_tables";
  disabled.run = [](CommandContext& ctx) { ListByState(ctx, false); };
  (*t)["list_disabled_tables"] = disabled;
}

}  // namespace hbemu::shell
