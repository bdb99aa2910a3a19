#pragma once

#include <string>

namespace hbemu::shell {

// The table-reference style of HBase's shell (`t = get_table 't'`, `t.put 'r', 'f:q', 'v'`):
// the few Ruby statement forms it needs, recognised before a line is parsed as a command.
struct ReferenceStatement {
  enum class Kind {
    kNone,    // an ordinary command
    kAssign,  // `t = create 't', 'f'`: `rest` is the command whose value `variable` keeps
    kMethod,  // `t.scan LIMIT => 1`: `method` of `variable`, `rest` its arguments as written
  };
  Kind kind = Kind::kNone;
  std::string variable;
  std::string method;
  std::string rest;
};
ReferenceStatement ParseReferenceStatement(const std::string& text);

// What a method of HBase 2.6.1's Hbase::Table does (its class defines these and no others).
enum class TableMethod {
  kUnknown,  // NoMethodError
  kCommand,  // runs the shell command of the same name with the table as first argument
  kHelp,     // table_help, or one command's help
  kClose,    // nothing to close over Thrift
  kAllColumns,  // get_all_columns: the families as "f:"
  kInspect,  // to_s / inspect: "Hbase::Table - t"
};
TableMethod LookUpTableMethod(const std::string& method);

// How irb shows a table reference: "Hbase::Table - t".
std::string InspectTable(const std::string& table);

}  // namespace hbemu::shell
