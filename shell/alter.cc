#include "shell/alter.h"

#include <algorithm>
#include <regex>

#include "shell/descriptors.h"

namespace hbemu::shell {
namespace {

namespace t2 = hbemu::thrift2;

bool IsTrueOrFalse(const Value& v) {
  if (v.kind == Value::Kind::kBool) return true;
  std::string s = v.ToS();
  std::transform(s.begin(), s.end(), s.begin(), ::tolower);
  return s == "true" || s == "false";
}

// A hash argument without the keys already dealt with; what is left is reported as ignored.
Value Without(const Value& hash, std::initializer_list<const char*> keys) {
  Value rest;
  rest.kind = Value::Kind::kHash;
  for (const auto& [k, v] : hash.pairs) {
    bool drop = false;
    for (const char* key : keys) drop = drop || k.ToS() == key;
    if (!drop) rest.pairs.emplace_back(k, v);
  }
  return rest;
}

std::vector<std::string> Names(const Value& v) {
  std::vector<std::string> names;
  if (v.IsArray()) {
    for (const auto& item : v.items) names.push_back(item.ToS());
  } else {
    names.push_back(v.ToS());
  }
  return names;
}

t2::TColumnFamilyDescriptor* FindFamily(t2::TTableDescriptor* desc, const std::string& name) {
  for (auto& f : desc->columns) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// One argument of `alter`, applied to the descriptor the statement builds (HBase's three cases).
void ApplyArgument(const Value& raw, t2::TTableDescriptor* desc, std::vector<std::string>* notes) {
  Value arg;
  if (raw.IsString()) {  // alter 't', 'f': a family spec with only its name
    arg.kind = Value::Kind::kHash;
    arg.pairs.emplace_back(Value::String("NAME"), raw);
  } else if (raw.IsHash()) {
    arg = raw;
  } else {
    throw ShellError("Don't know how to handle " + raw.Inspect());
  }
  if (const Value* d = arg.Find("delete")) {  // 'delete' => 'f'
    Value normal;
    normal.kind = Value::Kind::kHash;
    normal.pairs.emplace_back(Value::String("METHOD"), Value::String("delete"));
    normal.pairs.emplace_back(Value::String("NAME"), *d);
    arg = normal;
  }
  if (const Value* reopen = arg.Find("REOPEN_REGIONS")) {
    // Whether regions reopen is the server's business; an emulator has no regions to reopen.
    if (!IsTrueOrFalse(*reopen)) throw ShellError("Invalid 'REOPEN_REGIONS' for non-boolean value.");
    arg = Without(arg, {"REOPEN_REGIONS"});
  }
  const Value* method_value = arg.Find("METHOD");
  const std::string method = method_value ? method_value->ToS() : "";
  const Value* name = arg.Find("NAME");

  // 1) A family spec: NAME and no METHOD. Adds the family or changes the one there.
  if (!method_value && name) {
    t2::TColumnFamilyDescriptor family;
    family.name = name->ToS();
    if (t2::TColumnFamilyDescriptor* existing = FindFamily(desc, family.name)) family = *existing;
    std::vector<std::string> ignored;
    ApplyFamilySpec(arg, &family, &ignored);
    for (const auto& k : ignored) {
      notes->push_back("Unknown argument ignored for column family " + family.name + ": " + k);
    }
    if (t2::TColumnFamilyDescriptor* existing = FindFamily(desc, family.name)) {
      *existing = family;
    } else {
      desc->columns.push_back(family);
    }
    return;
  }

  // 2) A METHOD other than table_att.
  if (method_value && method != "table_att") {
    if (method == "delete") {
      if (!name) throw ShellError("NAME parameter missing for delete method");
      // Removing a family the table does not have changes nothing, as in HBase.
      auto& cols = desc->columns;
      const std::string family = name->ToS();
      cols.erase(std::remove_if(cols.begin(), cols.end(),
                                [&](const t2::TColumnFamilyDescriptor& f) { return f.name == family; }),
                 cols.end());
    } else if (method == "table_att_unset" || method == "table_conf_unset") {
      // HBase 2 keeps a table's CONFIGURATION among its attributes: both unset the same map.
      const bool conf = method == "table_conf_unset";
      if (!name) throw ShellError("NAME parameter missing for " + method + " method");
      for (const auto& key : Names(*name)) {
        if (desc->attributes.erase(key) == 0) {
          throw ShellError(std::string("Could not find ") + (conf ? "configuration: " : "attribute: ") + key);
        }
      }
      desc->__isset.attributes = true;
    } else if (method == "table_remove_coprocessor") {
      if (!arg.Find("CLASSNAME")) {
        throw ShellError("CLASSNAME parameter missing for table_remove_coprocessor method");
      }
      // No table here can hold a coprocessor (see below): removing one changes nothing.
      arg = Without(arg, {"CLASSNAME"});
    } else {
      throw ShellError("Unknown method: " + method);
    }
    for (const auto& [k, v] : Without(arg, {"METHOD", "NAME"}).pairs) {
      notes->push_back("Unknown argument ignored: " + k.ToS());
    }
    return;
  }

  // 3) Table attributes, with or without METHOD => 'table_att'.
  for (const auto& key : ApplyTableAttributes(Without(arg, {"METHOD"}), desc)) {
    notes->push_back("Unknown argument ignored: " + key);
  }
}

}  // namespace

std::vector<std::string> ApplyTableAttributes(const Value& arg, t2::TTableDescriptor* desc) {
  static const std::regex kCoprocessor("coprocessor", std::regex::icase);
  std::vector<std::string> ignored;
  for (const auto& [k, v] : arg.pairs) {
    const std::string key = k.ToS();
    if (key == "METADATA" || key == "CONFIGURATION") {
      if (!v.IsHash()) throw ShellError(key + " must be a Hash type");
      for (const auto& [mk, mv] : v.pairs) desc->attributes[mk.ToS()] = mv.ToS();
    } else if (ReservedTableKeys().count(key)) {
      desc->attributes[key] = v.ToS();
    } else if (std::regex_search(key, kCoprocessor)) {
      // A spec is "path|class|priority|args". HBase's master refuses a class it cannot load;
      // hbase-emulator loads none, so it refuses every one with HBase's words.
      std::string spec = v.ToS();
      size_t a = spec.find('|');
      std::string cls = a == std::string::npos ? spec : spec.substr(a + 1, spec.find('|', a + 1) - a - 1);
      throw ShellError("org.apache.hadoop.hbase.DoNotRetryIOException: Class " + cls +
                       " cannot be loaded (hbase-emulator runs no coprocessors)");
    } else {
      ignored.push_back(key);
    }
  }
  desc->__isset.attributes = true;
  return ignored;
}

void Alter(CommandContext& ctx) {
  const std::string table = StringArg(ctx, 0, "table");
  auto& client = ctx.connection.Thrift2();
  const t2::TTableName name = TableNameOf(table);
  if (!client.tableExists(name)) throw ShellError("Can't find a table: " + table);
  if (ctx.args.size() < 2) throw ShellError("There should be at least one argument but the table name");
  t2::TTableDescriptor before;
  client.getTableDescriptor(before, name);
  t2::TTableDescriptor after = before;
  std::vector<std::string> notes;
  for (size_t i = 1; i < ctx.args.size(); ++i) ApplyArgument(ctx.args[i], &after, &notes);
  if (after.columns.empty()) {
    // HBase's master checks this before it changes anything.
    throw ShellError("org.apache.hadoop.hbase.DoNotRetryIOException: Table should have at least "
                     "one column family. Set hbase.table.sanity.checks to false at conf or table "
                     "descriptor if you want to bypass sanity checks");
  }
  for (const auto& n : notes) ctx.out.Line(n);
  // Write the difference: families first (Thrift2 has a call for each), then the attributes.
  for (const auto& f : before.columns) {
    if (!FindFamily(&after, f.name)) client.deleteColumnFamily(name, f.name);
  }
  for (const auto& f : after.columns) {
    const t2::TColumnFamilyDescriptor* old = FindFamily(&before, f.name);
    if (old == nullptr) {
      client.addColumnFamily(name, f);
    } else if (!(*old == f)) {
      client.modifyColumnFamily(name, f);
    }
  }
  if (after.attributes != before.attributes) {
    t2::TTableDescriptor now;
    client.getTableDescriptor(now, name);
    now.attributes = after.attributes;
    now.__isset.attributes = true;
    client.modifyTable(ForWriting(now));
  }
  const int regions = RegionCount(ctx, table);
  ctx.out.Line("Updating all regions with the new schema...");
  ctx.out.Line(std::to_string(regions) + "/" + std::to_string(regions) + " regions updated.");
  ctx.out.Line("Done.");
}

}  // namespace hbemu::shell
