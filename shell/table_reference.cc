#include "shell/table_reference.h"

#include <map>
#include <regex>

namespace hbemu::shell {

ReferenceStatement ParseReferenceStatement(const std::string& text) {
  // A local variable, then `=` (not `==` or `=>`) or `.method` with an optional ? or !.
  static const std::regex kAssign(R"(^\s*([a-z_][A-Za-z0-9_]*)\s*=(?![=>~])\s*([\s\S]*)$)");
  static const std::regex kMethod(R"(^\s*([a-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*[?!]?)([\s\S]*)$)");
  ReferenceStatement s;
  std::smatch m;
  if (std::regex_match(text, m, kAssign)) {
    s.kind = ReferenceStatement::Kind::kAssign;
    s.variable = m[1];
    s.rest = m[2];
  } else if (std::regex_match(text, m, kMethod)) {
    s.kind = ReferenceStatement::Kind::kMethod;
    s.variable = m[1];
    s.method = m[2];
    s.rest = m[3];
  }
  return s;
}

TableMethod LookUpTableMethod(const std::string& method) {
  // HBase 2.6.1: the data commands register themselves on Hbase::Table, the admin utilities
  // enable, disable, flush, drop, describe and snapshot are added by name; truncate, exists?
  // and the rest are not table methods there.
  static const std::map<std::string, TableMethod> kMethods = {
      {"put", TableMethod::kCommand},      {"get", TableMethod::kCommand},
      {"scan", TableMethod::kCommand},     {"count", TableMethod::kCommand},
      {"delete", TableMethod::kCommand},   {"deleteall", TableMethod::kCommand},
      {"incr", TableMethod::kCommand},     {"append", TableMethod::kCommand},
      {"get_counter", TableMethod::kCommand}, {"get_splits", TableMethod::kCommand},
      {"enable", TableMethod::kCommand},   {"disable", TableMethod::kCommand},
      {"flush", TableMethod::kCommand},    {"drop", TableMethod::kCommand},
      {"describe", TableMethod::kCommand}, {"snapshot", TableMethod::kCommand},
      {"help", TableMethod::kHelp},        {"close", TableMethod::kClose},
      {"get_all_columns", TableMethod::kAllColumns},
      {"to_s", TableMethod::kInspect},     {"inspect", TableMethod::kInspect},
  };
  auto it = kMethods.find(method);
  return it == kMethods.end() ? TableMethod::kUnknown : it->second;
}

std::string InspectTable(const std::string& table) { return "Hbase::Table - " + table; }

}  // namespace hbemu::shell
