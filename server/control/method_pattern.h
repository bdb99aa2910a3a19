#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hbemu::server::control {

// Which calls a fault rule or a call-log query names: a Thrift method ("mutateRows") or a REST
// call ("GET /table/row"), a glob over them ("getRow*", "* /table/row"), or a happybase operation ("Table.put", a Thrift1 operation that stands
// for the methods it calls; server/control/happybase_operations.h). A name that is none of
// these, or a glob that matches no method of the service, is refused with the close names, so
// a misspelt rule cannot wait forever for a call that never comes.
class MethodPattern {
 public:
  // `service` is the rule's service pattern ("", "*", "thrift1", "thrift2" or a glob);
  // `text` "" or "*" stands for every method. False with *error (naming close names) when
  // `text` names nothing the service declares.
  static bool Parse(const std::string& service, const std::string& text, MethodPattern* out,
                    std::string* error);

  bool Matches(const std::string& service, const std::string& method) const;
  // The Thrift methods of a happybase operation; empty for a method name or glob.
  const std::vector<std::string>& operation_methods() const { return methods_; }

 private:
  std::string glob_ = "*";
  std::vector<std::string> methods_;  // set for an operation (Thrift1 only)
};

// False with *error unless `service` ("" and "*" for any) names thrift1, thrift2 or rest.
bool ValidServicePattern(const std::string& service, std::string* error);

// The names among `candidates` closest to `name` (best first, at most `max`), as difflib's
// get_close_matches would offer them: case is ignored, and a name must be similar enough
// (an edit distance of at most 40% of the longer name) to be offered at all.
std::vector<std::string> CloseNames(std::string_view name,
                                    const std::vector<std::string>& candidates, size_t max = 5);

}  // namespace hbemu::server::control
