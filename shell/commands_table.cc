// Table commands: create, alter (alter.cc), describe, list, exists, is_enabled, disable, enable, drop,
// truncate, truncate_preserve, get_splits. Thrift1 has no namespaces-aware descriptors, split
// keys or schema changes, so these go through Thrift2, except the lifecycle calls Thrift1
// expresses exactly.

#include <regex>
#include <set>

#include "shell/alter.h"
#include "shell/bytes_text.h"
#include "shell/descriptors.h"
#include "shell/shell.h"
#include "storage/schema.h"

namespace hbemu::shell {

namespace t2 = hbemu::thrift2;

// Table attributes HBase names in TABLE_ATTRIBUTES (TableDescriptorBuilder's reserved keys);
// every other key is METADATA.
const std::set<std::string>& ReservedTableKeys() {
  static const std::set<std::string> kKeys = {
      "MAX_FILESIZE", "READONLY", "COMPACTION_ENABLED", "SPLIT_ENABLED", "MERGE_ENABLED",
      "MEMSTORE_FLUSHSIZE", "DURABILITY", "REGION_REPLICATION", "REGION_MEMSTORE_REPLICATION",
      "NORMALIZATION_ENABLED", "NORMALIZER_TARGET_REGION_COUNT", "NORMALIZER_TARGET_REGION_SIZE_MB",
      "PRIORITY", "FLUSH_POLICY", "SPLIT_POLICY"};
  return kKeys;
}

int RegionCount(CommandContext& ctx, const std::string& table) {
  std::vector<t2::THRegionLocation> locations;
  ctx.connection.Thrift2().getAllRegionLocations(locations, table);
  return locations.empty() ? 1 : static_cast<int>(locations.size());
}

namespace {

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
    const bool family = a.Find("NAME") != nullptr;
    if (family) {
      t2::TColumnFamilyDescriptor f;
      std::vector<std::string> ignored;
      ApplyFamilySpec(a, &f, &ignored);
      for (const auto& k : ignored) {
        if (k == "SPLITS" || k == "NUMREGIONS" || k == "SPLITALGO") continue;
        notes.push_back("Unknown argument ignored for column family " + f.name + ": " + k);
      }
      families.push_back(f);
    } else if (const Value* m = a.Find("METHOD"); m != nullptr && m->ToS() != "table_att") {
      throw ShellError("table_att is currently the only supported method");
    }
    if (const Value* s = a.Find("SPLITS")) {
      if (!s->IsArray()) throw ShellError("SPLITS must be an Array");
      // HBase's shell reads each key with Bytes.toBytesBinary, so '\x00' in single quotes is
      // the byte 0.
      for (const auto& item : s->items) splits.push_back(SplitKeyBytes(item.ToS()));
    }
    if (!family) {
      // What is left of a hash without NAME: table attributes (DURABILITY, METADATA, ...).
      Value rest;
      rest.kind = Value::Kind::kHash;
      for (const auto& [k, v] : a.pairs) {
        const std::string key = k.ToS();
        if (key != "METHOD" && key != "SPLITS" && key != "NUMREGIONS" && key != "SPLITALGO") {
          rest.pairs.emplace_back(k, v);
        }
      }
      for (const auto& key : ApplyTableAttributes(rest, &desc)) {
        notes.push_back("An argument ignored (unknown or overridden): " + key);
      }
    }
    if (const Value* n = a.Find("NUMREGIONS")) {
      const Value* algo = a.Find("SPLITALGO");
      if (algo == nullptr) throw ShellError("NUMREGIONS and SPLITALGO must both be specified");
      splits = ComputeSplits(algo->ToS(), IntOf(*n, "NUMREGIONS"));
    }
  }
  if (families.empty()) throw ShellError("Table must have at least one column family");
  // The Java client checks the name (TableName.valueOf) before any call, with these texts;
  // HBase's Thrift gateway would only answer "Internal error processing createTable".
  storage::TableName parsed;
  storage::Status valid = storage::ParseTableName(table, &parsed);
  if (!valid.ok()) throw ShellError(valid.message());
  desc.__set_columns(families);
  for (const auto& n : notes) ctx.out.Line(n);
  ctx.connection.Thrift2().createTable(desc, splits);
  ctx.out.Line("Created table " + table);
  ctx.out.Return("Hbase::Table - " + table);
}

// "134217728 B (128MB)", as HBase's PrettyPrinter prints a byte size.
std::string ByteSizeText(const std::string& value) {
  long long n = 0;
  try {
    n = std::stoll(value);
  } catch (...) {
    return value;
  }
  static const char* kUnits[] = {"B", "KB", "MB", "GB", "TB"};
  int unit = 0;
  long long v = n;
  while (unit < 4 && v >= 1024 && v % 1024 == 0) {
    v /= 1024;
    ++unit;
  }
  if (unit == 0) return value + " B";
  return value + " B (" + std::to_string(v) + kUnits[unit] + ")";
}

// "t, {TABLE_ATTRIBUTES => {MAX_FILESIZE => '...', METADATA => {'k' => 'v'}}}" or just "t".
std::string DescribeTable(const std::string& table, const t2::TTableDescriptor& desc) {
  std::string reserved;
  std::string metadata;
  for (const auto& [k, v] : desc.attributes) {
    if (k == "IS_META" && v == "false") continue;  // a default, not printed
    if (ReservedTableKeys().count(k)) {
      std::string text = (k == "MAX_FILESIZE" || k == "MEMSTORE_FLUSHSIZE") ? ByteSizeText(v) : v;
      reserved += (reserved.empty() ? "" : ", ") + k + " => '" + text + "'";
    } else {
      metadata += (metadata.empty() ? "" : ", ") + ("'" + k + "' => '" + v + "'");
    }
  }
  if (!metadata.empty()) {
    reserved += (reserved.empty() ? "" : ", ") + ("METADATA => {" + metadata + "}");
  }
  if (reserved.empty()) return table;
  return table + ", {TABLE_ATTRIBUTES => {" + reserved + "}}";
}


void Describe(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  auto& client = ctx.connection.Thrift2();
  t2::TTableName name = TableNameOf(table);
  if (!client.tableExists(name)) throw ShellError("Table " + table + " does not exist.");
  t2::TTableDescriptor desc;
  client.getTableDescriptor(desc, name);
  bool enabled = client.isTableEnabled(name);
  ctx.out.Header("Table " + table + " is " + (enabled ? "ENABLED" : "DISABLED"));
  ctx.out.Row(DescribeTable(table, desc));
  ctx.out.Header("COLUMN FAMILIES DESCRIPTION");
  for (const auto& f : desc.columns) {
    ctx.out.Row(DescribeFamily(f));
    ctx.out.Line("");
  }
  ctx.out.Footer();
  ctx.out.Line("Quota is disabled");  // no quotas here, as in an HBase without hbase.quota.enabled
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
  std::vector<std::string> listed;
  for (const auto& name : TableNames(ctx)) {
    if (std::regex_match(name, re)) {
      ctx.out.Row(name);
      listed.push_back(name);
    }
  }
  ctx.out.Footer();
  ctx.out.Return(InspectList(listed));
}

void Exists(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  bool exists = ctx.connection.Thrift2().tableExists(TableNameOf(table));
  ctx.out.Line("Table " + table + (exists ? " does exist" : " does not exist"));
  ctx.out.Return(exists ? "true" : "false");
}

void IsEnabled(CommandContext& ctx) {
  bool enabled = ctx.connection.Thrift1().isTableEnabled(TableArg(ctx));
  ctx.out.Line(enabled ? "true" : "false");
  ctx.out.Return(enabled ? "true" : "false");
}

void IsDisabled(CommandContext& ctx) {
  bool enabled = ctx.connection.Thrift1().isTableEnabled(TableArg(ctx));
  ctx.out.Line(enabled ? "false" : "true");
  ctx.out.Return(enabled ? "false" : "true");
}

// HBase's shell disables (enables) only a table that is not already so: a repeat is silent.
void Disable(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  if (ctx.connection.Thrift1().isTableEnabled(table)) ctx.connection.Thrift1().disableTable(table);
}

void Enable(CommandContext& ctx) {
  std::string table = TableArg(ctx);
  if (!ctx.connection.Thrift1().isTableEnabled(table)) ctx.connection.Thrift1().enableTable(table);
}

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
  std::vector<std::string> printed;
  for (const auto& s : splits) printed.push_back(ToStringBinary(s));
  for (const auto& s : printed) ctx.out.Line(s);
  ctx.out.Return(InspectList(printed));
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
  bool force = false;
  if (!ctx.args.empty()) {
    const Value* d = ctx.args[0].IsHash() ? ctx.args[0].Find("DROP") : nullptr;
    const Value* f = ctx.args[0].IsHash() ? ctx.args[0].Find("FORCE") : nullptr;
    if (d == nullptr && f == nullptr) {
      throw ShellError("reset takes no arguments but {DROP => true, FORCE => true}");
    }
    drop = d && d->kind == Value::Kind::kBool && d->boolean;
    force = f && f->kind == Value::Kind::kBool && f->boolean;
  }
  // A reset meant for a test server must not empty a real cluster that answers on the port.
  if (!force && !ctx.connection.IsEmulator()) {
    const auto& o = ctx.connection.options();
    throw ShellError("the server at " + o.host + ":" + std::to_string(o.thrift2_port) +
                     " is not hbase-emulator (it serves hbase:meta, as a real HBase does); "
                     "reset refuses to " + (drop ? "drop" : "empty") +
                     " its tables. Use reset FORCE => true to do it anyway.");
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
      "  hbase> reset\n  hbase> reset DROP => true\n"
      "Only against hbase-emulator; FORCE => true also runs it against a real HBase.");
  (*t)["reset"].subject = Subject::kNone;
  (*t)["reset"].group = "hbase-shell";
  add("get_splits", GetSplits,
      "Get the splits of the named table:\n  hbase> get_splits 't1'\n  hbase> get_splits 'ns1:t1'");
  // HBase lists these with the data commands.
  for (const char* name : {"truncate", "truncate_preserve", "get_splits"}) (*t)[name].group = "dml";
}

}  // namespace hbemu::shell
