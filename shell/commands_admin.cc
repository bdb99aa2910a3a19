// Admin commands beyond create/alter/drop: whoami, alter_async, alter_status, alter_namespace,
// clone_table_schema, list_regions, locate_region, flush, compact, major_compact, the *_all
// commands, show_filters, get_table and table_help, with HBase 2.6.1's output.

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <regex>

#include "shell/bytes_text.h"
#include "shell/descriptors.h"
#include "shell/shell.h"

namespace hbemu::shell {
namespace {

namespace t1 = hbemu::thrift;
namespace t2 = hbemu::thrift2;

std::string TableArg(CommandContext& ctx) { return StringArg(ctx, 0, "table"); }

void WhoAmI(CommandContext& ctx) {
  // HBase's User.getCurrent is the client process's OS user (SIMPLE auth); so is ours.
  uid_t uid = geteuid();
  passwd* pw = getpwuid(uid);
  std::string user = pw ? pw->pw_name : std::to_string(uid);
  ctx.out.Line(user + " (auth:SIMPLE)");
  int n = 64;
  std::vector<gid_t> groups(n);
  if (pw && getgrouplist(pw->pw_name, pw->pw_gid, groups.data(), &n) >= 0 && n > 0) {
    std::string names;
    for (int i = 0; i < n; ++i) {
      group* g = getgrgid(groups[i]);
      names += (i ? ", " : "") + (g ? std::string(g->gr_name) : std::to_string(groups[i]));
    }
    ctx.out.Line("    groups: " + names);
  }
}

std::vector<t1::TRegionInfo> Regions(CommandContext& ctx, const std::string& table) {
  std::vector<t1::TRegionInfo> regions;
  ctx.connection.Thrift1().getTableRegions(regions, table);
  return regions;
}

void AlterStatus(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  if (!ctx.connection.Thrift2().tableExists(TableNameOf(table))) {
    throw ShellError("Table " + table + " does not exist");
  }
  // Schema changes here are applied before the call returns: every region is updated.
  size_t n = std::max<size_t>(Regions(ctx, table).size(), 1);
  ctx.out.Line(std::to_string(n) + "/" + std::to_string(n) + " regions updated.");
  ctx.out.Line("Done.");
}

void AlterNamespace(CommandContext& ctx) {
  std::string ns = StringArg(ctx, 0, "namespace");
  const Value& spec = Arg(ctx, 1, "arguments");
  if (!spec.IsHash()) throw ShellError("Only hash type parameters are supported");
  const Value* method = spec.Find("METHOD");
  if (method == nullptr) throw ShellError("Method should be specified.");
  auto& client = ctx.connection.Thrift2();
  t2::TNamespaceDescriptor desc;
  client.getNamespaceDescriptor(desc, ns);
  std::map<std::string, std::string> conf = desc.configuration;
  if (method->ToS() == "set") {
    for (const auto& [k, v] : spec.pairs) {
      if (k.ToS() != "METHOD") conf[k.ToS()] = v.ToS();
    }
  } else if (method->ToS() == "unset") {
    const Value* name = spec.Find("NAME");
    if (name == nullptr) throw ShellError("NAME parameter missing for unset method");
    conf.erase(name->ToS());
  } else {
    throw ShellError("Unknown method " + method->ToS());
  }
  desc.__set_configuration(conf);
  client.modifyNamespace(desc);
}

void CloneTableSchema(CommandContext& ctx) {
  std::string from = TableArg(ctx);
  std::string to = StringArg(ctx, 1, "new table");
  bool preserve_splits = ctx.args.size() < 3 || ctx.args[2].kind != Value::Kind::kBool ||
                         ctx.args[2].boolean;
  auto& client = ctx.connection.Thrift2();
  t2::TTableDescriptor desc;
  client.getTableDescriptor(desc, TableNameOf(from));
  desc.tableName = TableNameOf(to);
  std::vector<std::string> splits;
  if (preserve_splits) {
    for (const auto& r : Regions(ctx, from)) {
      if (!r.startKey.empty()) splits.push_back(r.startKey);
    }
  }
  client.createTable(ForWriting(desc), splits);
}

void ListRegions(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  if (!ctx.connection.Thrift1().isTableEnabled(table)) {
    throw ShellError("Table " + table + " must be enabled.");
  }
  std::vector<t2::THRegionLocation> locations;
  ctx.connection.Thrift2().getAllRegionLocations(locations, table);
  std::map<std::string, std::string> names;  // start key -> region name
  for (const auto& r : Regions(ctx, table)) names[r.startKey] = r.name;
  static const char* kColumns[] = {"SERVER_NAME", "REGION_NAME", "START_KEY", "END_KEY",
                                   "SIZE",        "REQ",         "LOCALITY"};
  std::vector<size_t> width = {12, 12, 10, 10, 5, 5, 10};
  std::vector<std::vector<std::string>> rows;
  for (const auto& l : locations) {
    std::string name = names[l.regionInfo.startKey];
    // Thrift carries no region metrics (size, requests, locality): HBase prints the same line
    // and leaves those cells empty when the master has no load report for a region.
    ctx.out.Line("Can not find all details for region: " + name +
                 " , it may be disabled or in transition");
    std::string server = l.serverName.hostName + "," + std::to_string(l.serverName.port) + "," +
                         std::to_string(l.serverName.startCode);
    rows.push_back({server, name, ToStringBinary(l.regionInfo.startKey),
                    ToStringBinary(l.regionInfo.endKey), "", "", ""});
  }
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t i = 0; i < cells.size(); ++i) {
      out += " " + std::string(width[i] - std::min(width[i], cells[i].size()), ' ') + cells[i] + " |";
    }
    ctx.out.Line(out);
  };
  line(std::vector<std::string>(std::begin(kColumns), std::end(kColumns)));
  std::vector<std::string> dashes;
  for (size_t w : width) dashes.push_back(std::string(w, '-'));
  line(dashes);
  for (const auto& row : rows) line(row);
  ctx.out.Line(" " + std::to_string(rows.size()) + " rows");
}

void LocateRegion(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  std::string row = StringArg(ctx, 1, "row");
  t2::THRegionLocation l;
  ctx.connection.Thrift2().getRegionLocation(l, table, row, false);
  std::string name;
  for (const auto& r : Regions(ctx, table)) {
    if (r.startKey == l.regionInfo.startKey) name = r.name;
  }
  // "t,start,id.ENCODED." -> ENCODED
  std::string encoded;
  if (name.size() > 2 && name.back() == '.') {
    size_t dot = name.rfind('.', name.size() - 2);
    if (dot != std::string::npos) encoded = name.substr(dot + 1, name.size() - dot - 2);
  }
  ctx.out.Header("HOST", "REGION");
  ctx.out.Row(l.serverName.hostName + ":" + std::to_string(l.serverName.port),
              "{ENCODED => " + encoded + ", NAME => '" + ToStringBinary(name) + "', STARTKEY => '" +
                  ToStringBinary(l.regionInfo.startKey) + "', ENDKEY => '" +
                  ToStringBinary(l.regionInfo.endKey) + "'}");
  ctx.out.Footer(1);
  ctx.out.Return("#<Java::OrgApacheHadoopHbase::HRegionLocation:0x00000000>");
}

// flush, compact, major_compact 'table' (or a region name).
void Compact(CommandContext& ctx, bool major) {
  std::string target = TableArg(ctx);
  if (major) {
    ctx.connection.Thrift1().majorCompact(target);
  } else {
    ctx.connection.Thrift1().compact(target);
  }
}

// disable_all / enable_all / drop_all 'regex': list, ask, then act on each table.
void ForAll(CommandContext& ctx, const std::string& verb, const std::string& done) {
  std::string pattern = StringArg(ctx, 0, "regex");
  std::regex re(pattern);
  std::vector<std::string> tables;
  std::vector<t2::TTableDescriptor> descs;
  ctx.connection.Thrift2().getTableDescriptorsByPattern(descs, pattern, false);
  for (const auto& d : descs) {
    std::string ns = d.tableName.__isset.ns ? d.tableName.ns : "";
    std::string name = (ns.empty() || ns == "default") ? d.tableName.qualifier : ns + ":" + d.tableName.qualifier;
    if (std::regex_match(name, re)) tables.push_back(name);
  }
  std::sort(tables.begin(), tables.end());
  for (const auto& t : tables) ctx.out.Row(t);
  if (tables.empty()) {
    ctx.out.Line("No tables matched the regex " + pattern);
    return;
  }
  std::string capital = verb;
  capital[0] = static_cast<char>(std::toupper(capital[0]));
  ctx.out.Line("\n" + capital + " the above " + std::to_string(tables.size()) + " tables (y/n)?");
  ctx.out.stream().flush();
  std::string answer;
  if (!std::getline(std::cin, answer)) throw ShellError("undefined method `chomp' for nil:NilClass");
  if (answer.empty() || (answer[0] != 'y' && answer[0] != 'Y')) return;
  std::vector<std::string> failed;
  for (const auto& t : tables) {
    try {
      if (verb == "disable") {
        ctx.connection.Thrift1().disableTable(t);
      } else if (verb == "enable") {
        ctx.connection.Thrift1().enableTable(t);
      } else {
        ctx.connection.Thrift1().deleteTable(t);
      }
    } catch (const std::exception&) {
      failed.push_back(t);
    }
  }
  ctx.out.Line(std::to_string(tables.size() - failed.size()) + " tables successfully " + done);
  if (!failed.empty()) {
    std::string list;
    for (const auto& f : failed) list += (list.empty() ? "" : ",") + f;
    ctx.out.Line(std::to_string(failed.size()) + " tables not " + done +
                 " due to an exception: " + list);
  }
}

void ShowFilters(CommandContext& ctx) {
  // ParseFilter's registry, in the order HBase 2.6.1 prints it (a HashMap's key order).
  static const char* kFilters[] = {
      "DependentColumnFilter",  "KeyOnlyFilter",          "ColumnCountGetFilter",
      "SingleColumnValueFilter", "PrefixFilter",          "SingleColumnValueExcludeFilter",
      "FirstKeyOnlyFilter",     "ColumnRangeFilter",      "ColumnValueFilter",
      "TimestampsFilter",       "FamilyFilter",           "QualifierFilter",
      "ColumnPrefixFilter",     "RowFilter",              "MultipleColumnPrefixFilter",
      "InclusiveStopFilter",    "PageFilter",             "ValueFilter",
      "ColumnPaginationFilter"};
  std::vector<std::string> names;
  for (const char* f : kFilters) {
    ctx.out.Row(f);
    names.push_back(f);
  }
  ctx.out.Return("#<Java::JavaUtil::HashMap::KeySet: " + InspectList(names) + ">");
}

}  // namespace

void AddAdminCommands(CommandTable* t) {
  auto add = [t](const char* name, const char* group, Subject subject,
                 std::function<void(CommandContext&)> run, const char* help) {
    CommandSpec spec;
    spec.group = group;
    spec.subject = subject;
    spec.help = help;
    spec.run = std::move(run);
    (*t)[name] = std::move(spec);
  };
  add("whoami", "general", Subject::kNone, WhoAmI,
      "Show the current hbase user.\n  hbase> whoami");
  add("alter_async", "ddl", Subject::kTable,
      [t](CommandContext& ctx) {
        // The same change as alter, without its progress lines (HBase does not wait).
        std::ostringstream discard;
        Formatter quiet(discard, 0);
        CommandContext inner{ctx.args, ctx.connection, quiet};
        t->at("alter").run(inner);
      },
      "Alter column family schema, does not wait for all regions to receive the schema change.\n"
      "  hbase> alter_async 't1', NAME => 'f1', VERSIONS => 5\n"
      "  hbase> alter_async 't1', 'delete' => 'f1'");
  add("alter_status", "ddl", Subject::kTable, AlterStatus,
      "Get the status of the alter command.\n  hbase> alter_status 't1'");
  add("alter_namespace", "namespace", Subject::kNamespace, AlterNamespace,
      "Alter namespace properties.\n"
      "  hbase> alter_namespace 'ns1', {METHOD => 'set', 'PROPERTY_NAME' => 'PROPERTY_VALUE'}\n"
      "  hbase> alter_namespace 'ns1', {METHOD => 'unset', NAME=>'PROPERTY_NAME'}");
  add("clone_table_schema", "ddl", Subject::kTable, CloneTableSchema,
      "Create a new table with the schema (and, unless false is passed, the split keys) of an\n"
      "existing one.\n"
      "  hbase> clone_table_schema 'table_name', 'new_table_name'\n"
      "  hbase> clone_table_schema 'table_name', 'new_table_name', false");
  add("list_regions", "ddl", Subject::kTable, ListRegions,
      "List the regions of a table with their server, name and keys.\n"
      "  hbase> list_regions 'table_name'");
  add("locate_region", "ddl", Subject::kTable, LocateRegion,
      "Locate the region of a given table and row key.\n  hbase> locate_region 'tableName', 'key0'");
  add("flush", "tools", Subject::kTable, [](CommandContext& ctx) { Compact(ctx, false); },
      "Flush all regions of a table (here: writes are durable at once; the table's key range is\n"
      "compacted, as compact does).\n  hbase> flush 'TABLENAME'");
  add("compact", "tools", Subject::kTable, [](CommandContext& ctx) { Compact(ctx, false); },
      "Compact all regions of a table.\n  hbase> compact 't1'");
  add("major_compact", "tools", Subject::kTable, [](CommandContext& ctx) { Compact(ctx, true); },
      "Run a major compaction on all regions of a table.\n  hbase> major_compact 't1'");
  add("disable_all", "ddl", Subject::kNone,
      [](CommandContext& ctx) { ForAll(ctx, "disable", "disabled"); },
      "Disable all of tables matching the given regex (after a y/n question).\n"
      "  hbase> disable_all 't.*'");
  add("enable_all", "ddl", Subject::kNone,
      [](CommandContext& ctx) { ForAll(ctx, "enable", "enabled"); },
      "Enable all of the tables matching the given regex (after a y/n question).\n"
      "  hbase> enable_all 't.*'");
  add("drop_all", "ddl", Subject::kNone, [](CommandContext& ctx) { ForAll(ctx, "drop", "dropped"); },
      "Drop all of the tables matching the given regex (after a y/n question).\n"
      "  hbase> drop_all 't.*'");
  add("show_filters", "ddl", Subject::kNone, ShowFilters,
      "Show all the filters in hbase.\n  hbase> show_filters");
  add("get_table", "ddl", Subject::kTable,
      [](CommandContext& ctx) { ctx.out.Return("Hbase::Table - " + TableArg(ctx)); },
      "A reference to a table, to keep in a variable and call commands on:\n"
      "  hbase> t = get_table 't1'\n  hbase> t.scan");
  add("table_help", "general", Subject::kNone,
      [](CommandContext& ctx) {
        ctx.out.Line("Table references: keep a table in a variable and call commands on it.");
        ctx.out.Line("");
        ctx.out.Line("  hbase> t = create 't', 'cf'      (or, for a table that exists: t = get_table 't')");
        ctx.out.Line("  hbase> t.put 'r', 'cf:q', 'v'");
        ctx.out.Line("  hbase> t.get 'r'");
        ctx.out.Line("  hbase> t.scan LIMIT => 10");
        ctx.out.Line("");
        ctx.out.Line("A reference takes the commands that take a table name first, without it: put,");
        ctx.out.Line("get, scan, count, delete, deleteall, incr, append, get_counter, get_splits, and");
        ctx.out.Line("the admin commands enable, disable, flush, drop, describe and snapshot. Also");
        ctx.out.Line("t.get_all_columns (the families), t.help and t.help 'scan' (one command's help).");
        ctx.out.Line("After t.drop the reference names a table that no longer exists.");
      },
      "Help for table-reference commands.\n  hbase> table_help");
}

}  // namespace hbemu::shell
