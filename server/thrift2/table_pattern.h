#pragma once

#include <memory>
#include <string>

#include "storage/status.h"

namespace hbemu::server {

// A table-name pattern as HBase's Admin.listTableDescriptors(Pattern) applies it: a Java regex
// that must match the WHOLE name, tried against "name" and, for the default namespace, also
// "default:name" (other namespaces: "ns:name"). Java's regex dialect is approximated by PCRE2,
// as for the filter language's regexstring comparator.
class TablePattern {
 public:
  // A bad regex is a PatternSyntaxException in HBase, which escapes as a runtime exception.
  static storage::Status Compile(const std::string& regex, std::unique_ptr<TablePattern>* out);
  ~TablePattern();
  TablePattern(const TablePattern&) = delete;
  TablePattern& operator=(const TablePattern&) = delete;

  bool Matches(const std::string& ns, const std::string& qualifier) const;

 private:
  struct Code;
  explicit TablePattern(std::unique_ptr<Code> code);
  bool FullMatch(const std::string& subject) const;
  std::unique_ptr<Code> code_;
};

}  // namespace hbemu::server
