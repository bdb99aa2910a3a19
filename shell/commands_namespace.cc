// Namespace commands, all through Thrift2 (Thrift1 has no namespace calls).

#include <regex>

#include "shell/descriptors.h"
#include "shell/shell.h"
#include "storage/schema.h"

namespace hbemu::shell {
namespace {

namespace t2 = hbemu::thrift2;

void CreateNamespace(CommandContext& ctx) {
  t2::TNamespaceDescriptor desc;
  desc.name = StringArg(ctx, 0, "namespace");
  // Checked in the client, as HBase's admin does before the master call (which HBase's Thrift2
  // gateway would retry for minutes); the real shell prints the wrapping IOException and cause.
  storage::Status valid = storage::ValidateNamespaceName(desc.name);
  if (!valid.ok()) {
    throw ShellError("java.io.IOException: " + valid.message() +
                     "\nCaused by: java.lang.IllegalArgumentException: " + valid.message());
  }
  if (ctx.args.size() > 1 && ctx.args[1].IsHash()) {
    std::map<std::string, std::string> conf;
    for (const auto& [k, v] : ctx.args[1].pairs) conf[k.ToS()] = v.ToS();
    desc.__set_configuration(conf);
  }
  ctx.connection.Thrift2().createNamespace(desc);
}

void DropNamespace(CommandContext& ctx) {
  ctx.connection.Thrift2().deleteNamespace(StringArg(ctx, 0, "namespace"));
}

void DescribeNamespace(CommandContext& ctx) {
  t2::TNamespaceDescriptor desc;
  ctx.connection.Thrift2().getNamespaceDescriptor(desc, StringArg(ctx, 0, "namespace"));
  std::string text = "{NAME => '" + desc.name + "'";
  for (const auto& [k, v] : desc.configuration) text += ", " + k + " => '" + v + "'";
  text += "}";
  ctx.out.Header("DESCRIPTION");
  ctx.out.Row(text);
  ctx.out.Line("Quota is disabled");
}

void ListNamespace(CommandContext& ctx) {
  std::string pattern = ctx.args.empty() ? ".*" : ctx.args[0].ToS();
  std::regex re(pattern);
  std::vector<std::string> names;
  ctx.connection.Thrift2().listNamespaces(names);
  std::sort(names.begin(), names.end());
  ctx.out.Header("NAMESPACE");
  for (const auto& n : names) {
    if (std::regex_match(n, re)) ctx.out.Row(n);
  }
  ctx.out.Footer();
}

void ListNamespaceTables(CommandContext& ctx) {
  std::vector<t2::TTableName> names;
  ctx.connection.Thrift2().getTableNamesByNamespace(names, StringArg(ctx, 0, "namespace"));
  std::vector<std::string> qualifiers;
  for (const auto& n : names) qualifiers.push_back(n.qualifier);
  std::sort(qualifiers.begin(), qualifiers.end());
  ctx.out.Header("TABLE");
  for (const auto& q : qualifiers) ctx.out.Row(q);
  ctx.out.Footer();
  ctx.out.Return(InspectList(qualifiers));
}

}  // namespace

void AddNamespaceCommands(CommandTable* t) {
  auto add = [t](const char* name, std::function<void(CommandContext&)> run, const char* help) {
    CommandSpec spec;
    spec.group = "namespace";
    spec.subject = Subject::kNamespace;
    spec.help = help;
    spec.run = std::move(run);
    (*t)[name] = std::move(spec);
  };
  add("create_namespace", CreateNamespace,
      "Create namespace; pass namespace name, and optionally a dictionary of namespace\n"
      "configuration.\n  hbase> create_namespace 'ns1'\n"
      "  hbase> create_namespace 'ns1', {'PROPERTY_NAME'=>'PROPERTY_VALUE'}");
  add("drop_namespace", DropNamespace,
      "Drop the named namespace. The namespace must be empty.\n  hbase> drop_namespace 'ns1'");
  add("describe_namespace", DescribeNamespace,
      "Describe the named namespace.\n  hbase> describe_namespace 'ns1'");
  add("list_namespace", ListNamespace,
      "List all namespaces in hbase. Optional regular expression parameter could be used to\n"
      "filter the output.\n  hbase> list_namespace\n  hbase> list_namespace 'abc.*'");
  (*t)["list_namespace"].subject = Subject::kNone;
  add("list_namespace_tables", ListNamespaceTables,
      "List all tables that are members of the namespace.\n"
      "  hbase> list_namespace_tables 'ns1'");
}

}  // namespace hbemu::shell
