// Table commands: create, alter, describe, list, exists, is_enabled, disable, enable, drop,
// truncate, truncate_preserve, get_splits. Thrift1 has no namespaces-aware descriptors, split
// keys or schema changes, so these go through Thrift2, except the lifecycle calls Thrift1
// expresses exactly.

#include <regex>

#include "shell/bytes_text.h"
#include "shell/descriptors.h"
#include "shell/shell.h"

namespace hbemu::shell {
namespace {

namespace t2 = hbemu::thrift2;

std::string TableArg(CommandContext& ctx) { return StringArg(ctx, 0, "table"); }

void Create(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  t2::TTableDescriptor desc;
  desc.tableName = TableNameOf(table);
  std::vector<t2::TColumnFamilyDescriptor> families;
  std::vector<std::string> splits;
  std::vector<std::string> notes;
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    const Value& a = ctx.args[i];
    if (a.IsString()) {
      t2::TColumnFamilyDescriptor f;
      f.name = a.text;
      families.push_back(f);
      continue;
    }
    if (!a.IsHash()) throw ShellError("Don't know how to handle " + a.Inspect());
    if (a.Find("NAME")) {
      t2::TColumnFamilyDescriptor f;
      std::vector<std::string> ignored;
      ApplyFamilySpec(a, &f, &ignored);
      for (const auto& k : ignored) {
        if (k == "SPLITS" || k == "NUMREGIONS" || k == "SPLITALGO") continue;
        notes.push_back("Unknown argument ignored for column family " + f.name + ": " + k);
      }
      families.push_back(f);
    }
    if (const Value* s = a.Find("SPLITS")) {
      if (!s->IsArray()) throw ShellError("SPLITS must be an Array");
      for (const auto& item : s->items) splits.push_back(item.ToS());
    }
    if (const Value* n = a.Find("NUMREGIONS")) {
      const Value* algo = a.Find("SPLITALGO");
      if (algo == nullptr) throw ShellError("NUMREGIONS and SPLITALGO must both be specified");
      splits = ComputeSplits(algo->ToS(), IntOf(*n, "NUMREGIONS"));
    }
  }
  if (families.empty()) throw ShellError("Table must have at least one column family");
  desc.__set_columns(families);
  for (const auto& n : notes) ctx.out.Line(n);
  ctx.connection.Thrift2().createTable(desc, splits);
  ctx.out.Line("Created table " + table);
}

int RegionCount(CommandContext& ctx, const std::string& table) {
  std::vector<t2::THRegionLocation> locations;
  ctx.connection.Thrift2().getAllRegionLocations(locations, table);
  return locations.empty() ? 1 : static_cast<int>(locations.size());
}

void Alter(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  auto& client = ctx.connection.Thrift2();
  t2::TTableName name = TableNameOf(table);
  if (ctx.args.size() < 2) throw ShellError("There should be at least one argument but the table name");
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    const Value& a = ctx.args[i];
    t2::TTableDescriptor desc;
    client.getTableDescriptor(desc, name);
    std::string family_name;
    bool remove = false;
    if (a.IsString()) {
      family_name = a.text;  // alter 't', 'f': add the family with defaults
    } else if (a.IsHash()) {
      if (const Value* d = a.Find("delete")) {
        family_name = d->ToS();
        remove = true;
      } else if (const Value* n = a.Find("NAME")) {
        family_name = n->ToS();
        const Value* method = a.Find("METHOD");
        remove = method && method->ToS() == "delete";
      } else {
        throw ShellError("Table-level attributes cannot be changed over Thrift: " + a.Inspect());
      }
    } else {
      throw ShellError("Don't know how to handle " + a.Inspect());
    }
    if (remove) {
      client.deleteColumnFamily(name, family_name);
      continue;
    }
    t2::TColumnFamilyDescriptor family;
    family.name = family_name;
    bool exists = false;
    for (const auto& f : desc.columns) {
      if (f.name == family_name) {
        family = f;  // modify: keep what the statement does not mention
        exists = true;
      }
    }
    if (a.IsHash()) {
      std::vector<std::string> ignored;
      ApplyFamilySpec(a, &family, &ignored);
      for (const auto& k : ignored) {
        ctx.out.Line("Unknown argument ignored for column family " + family_name + ": " + k);
      }
    }
    if (exists) {
      client.modifyColumnFamily(name, family);
    } else {
      client.addColumnFamily(name, family);
    }
  }
  int regions = RegionCount(ctx, table);
  ctx.out.Line("Updating all regions with the new schema...");
  ctx.out.Line(std::to_string(regions) + "/" + std::to_string(regions) + " regions updated.");
  ctx.out.Line("Done.");
}

void Describe(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  auto& client = ctx.connection.Thrift2();
  t2::TTableName name = TableNameOf(table);
  t2::TTableDescriptor desc;
  client.getTableDescriptor(desc, name);
  bool enabled = client.isTableEnabled(name);
  ctx.out.Header("Table " + table + " is " + (enabled ? "ENABLED" : "DISABLED"));
  ctx.out.Row(table);
  ctx.out.Header("COLUMN FAMILIES DESCRIPTION");
  for (const auto& f : desc.columns) {
    ctx.out.Row(DescribeFamily(f));
    ctx.out.Line("");
  }
  ctx.out.Footer();
}

// Table names as HBase's list shows them: default-namespace tables without a prefix.
std::vector<std::string> TableNames(CommandContext& ctx) {
  std::vector<std::string> names;
  ctx.connection.Thrift1().getTableNames(names);
  std::sort(names.begin(), names.end());
  return names;
}

void List(CommandContext& ctx) {
  std::string pattern = ctx.args.empty() ? ".*" : ctx.args[0].ToS();
  std::regex re;
  try {
    re = std::regex(pattern);
  } catch (const std::regex_error& e) {
    throw ShellError("Illegal regular expression " + pattern + ": " + e.what());
  }
  ctx.out.Header("TABLE");
  for (const auto& name : TableNames(ctx)) {
    if (std::regex_match(name, re)) ctx.out.Row(name);
  }
  ctx.out.Footer();
}

void Exists(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  bool exists = ctx.connection.Thrift2().tableExists(TableNameOf(table));
  ctx.out.Line("Table " + table + (exists ? " does exist" : " does not exist"));
}

void IsEnabled(CommandContext& ctx) {
  bool enabled = ctx.connection.Thrift1().isTableEnabled(TableArg(ctx));
  ctx.out.Line(enabled ? "true" : "false");
}

void IsDisabled(CommandContext& ctx) {
  bool enabled = ctx.connection.Thrift1().isTableEnabled(TableArg(ctx));
  ctx.out.Line(enabled ? "false" : "true");
}

void Disable(CommandContext& ctx) { ctx.connection.Thrift1().disableTable(TableArg(ctx)); }

void Enable(CommandContext& ctx) { ctx.connection.Thrift1().enableTable(TableArg(ctx)); }

void Drop(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  if (ctx.connection.Thrift1().isTableEnabled(table)) {
    throw ShellError("Table " + table + " is enabled. Disable it first.");
  }
  ctx.connection.Thrift1().deleteTable(table);
}

void Truncate(CommandContext& ctx, bool preserve_splits) {
  std::string table = TableArg(ctx);
  auto& client = ctx.connection.Thrift2();
  t2::TTableName name = TableNameOf(table);
  ctx.out.Line("Truncating '" + table + "' table (it may take a while):");
  if (client.isTableEnabled(name)) {
    ctx.out.Line("Disabling table...");
    client.disableTable(name);
  }
  ctx.out.Line("Truncating table...");
  client.truncateTable(name, preserve_splits);
}

void GetSplits(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  std::vector<t2::THRegionLocation> locations;
  ctx.connection.Thrift2().getAllRegionLocations(locations, table);
  std::vector<std::string> splits;
  for (const auto& l : locations) {
    if (!l.regionInfo.startKey.empty()) splits.push_back(l.regionInfo.startKey);
  }
  std::sort(splits.begin(), splits.end());
  ctx.out.Line("Total number of splits = " + std::to_string(splits.size() + 1));
  if (splits.empty()) ctx.out.Line("");  // Ruby's `puts []` prints an empty line
  for (const auto& s : splits) ctx.out.Line(ToStringBinary(s));
}

// Every user table as "ns:t" (or "t" in the default namespace), sorted.
std::vector<std::string> UserTables(CommandContext& ctx) {
  std::vector<t2::TTableName> names;
  ctx.connection.Thrift2().getTableNamesByPattern(names, ".*", false);
  std::vector<std::string> out;
  for (const auto& n : names) {
    std::string ns = n.__isset.ns ? n.ns : "";
    if (ns == "hbase") continue;
    out.push_back(ns.empty() || ns == "default" ? n.qualifier : ns + ":" + n.qualifier);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Not an HBase shell command: empties every user table between tests, keeping schemas and
// splits (truncate_preserve each, as HBase has no faster public call), or with DROP => true
// drops every table and every namespace but default and hbase.
void Reset(CommandContext& ctx) {
  bool drop = false;
  if (!ctx.args.empty()) {
    const Value* d = ctx.args[0].IsHash() ? ctx.args[0].Find("DROP") : nullptr;
    if (d == nullptr) throw ShellError("reset takes no arguments but {DROP => true}");
    drop = d->kind == Value::Kind::kBool && d->boolean;
  }
  auto& client = ctx.connection.Thrift2();
  std::vector<std::string> tables = UserTables(ctx);
  for (const auto& table : tables) {
    t2::TTableName name = TableNameOf(table);
    if (client.isTableEnabled(name)) client.disableTable(name);
    if (drop) {
      client.deleteTable(name);
    } else {
      client.truncateTable(name, true);
      if (!client.isTableEnabled(name)) client.enableTable(name);
    }
  }
  long namespaces = 0;
  if (drop) {
    std::vector<std::string> names;
    client.listNamespaces(names);
    for (const auto& ns : names) {
      if (ns == "default" || ns == "hbase") continue;
      client.deleteNamespace(ns);
      ++namespaces;
    }
  }
  ctx.out.Line(drop ? "Dropped " + std::to_string(tables.size()) + " table(s) and " +
                          std::to_string(namespaces) + " namespace(s)"
                    : "Emptied " + std::to_string(tables.size()) + " table(s)");
}

}  // namespace

void AddTableCommands(CommandTable* t) {
  auto add = [t](const char* name, std::function<void(CommandContext&)> run, const char* help) {
    CommandSpec spec;
    spec.group = "ddl";
    spec.subject = Subject::kTable;
    spec.help = help;
    spec.run = std::move(run);
    (*t)[name] = std::move(spec);
  };
  add("create", Create,
      "Creates a table. Pass a table name, and a set of column family specifications (at least\n"
      "one), and, optionally, table configuration.\n"
      "  hbase> create 'ns1:t1', {NAME => 'f1', VERSIONS => 5}\n"
      "  hbase> create 't1', {NAME => 'f1'}, {NAME => 'f2'}, {NAME => 'f3'}\n"
      "  hbase> create 't1', 'f1', 'f2', 'f3'\n"
      "  hbase> create 't1', {NAME => 'f1', VERSIONS => 1, TTL => 2592000, BLOCKCACHE => true}\n"
      "  hbase> create 't1', 'f1', SPLITS => ['10', '20', '30', '40']\n"
      "  hbase> create 't1', 'f1', {NUMREGIONS => 15, SPLITALGO => 'HexStringSplit'}");
  add("alter", Alter,
      "Alter a table's column families: add, modify or delete.\n"
      "  hbase> alter 't1', NAME => 'f1', VERSIONS => 5\n"
      "  hbase> alter 't1', 'f1', {NAME => 'f2', IN_MEMORY => true}, {NAME => 'f3', VERSIONS => 5}\n"
      "  hbase> alter 'ns1:t1', NAME => 'f1', METHOD => 'delete'\n"
      "  hbase> alter 'ns1:t1', 'delete' => 'f1'");
  add("describe", Describe,
      "Describe the named table.\n  hbase> describe 't1'\n  hbase> describe 'ns1:t1'");
  (*t)["list"] = (*t)["describe"];
  (*t)["list"].subject = Subject::kNone;
  (*t)["list"].run = List;
  (*t)["list"].help =
      "List all user tables in hbase. Optional regular expression parameter could be used to\n"
      "filter the output.\n  hbase> list\n  hbase> list 'abc.*'\n  hbase> list 'ns:abc.*'";
  add("exists", Exists, "Does the named table exist?\n  hbase> exists 't1'");
  add("is_enabled", IsEnabled, "Is named table enabled?\n  hbase> is_enabled 't1'");
  add("is_disabled", IsDisabled, "Is named table disabled?\n  hbase> is_disabled 't1'");
  add("disable", Disable, "Start disable of named table:\n  hbase> disable 't1'");
  add("enable", Enable, "Start enable of named table:\n  hbase> enable 't1'");
  add("drop", Drop, "Drop the named table. Table must first be disabled:\n  hbase> drop 't1'");
  add("truncate", [](CommandContext& c) { Truncate(c, false); },
      "Disables, drops and recreates the specified table.\n  hbase> truncate 't1'");
  add("truncate_preserve", [](CommandContext& c) { Truncate(c, true); },
      "Disables, drops and recreates the specified table while still maintaining the previous\n"
      "region boundaries.\n  hbase> truncate_preserve 't1'");
  add("reset", Reset,
      "Not in HBase's shell: empty every user table, keeping schemas and splits; with\n"
      "DROP => true drop every table and every namespace but default and hbase.\n"
      "  hbase> reset\n  hbase> reset DROP => true");
  (*t)["reset"].subject = Subject::kNone;
  add("get_splits", GetSplits,
      "Get the splits of the named table:\n  hbase> get_splits 't1'\n  hbase> get_splits 'ns1:t1'");
}

}  // namespace hbemu::shell
