#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/filter.h"

namespace hbemu::storage {

// The 19 filters of HBase's ParseFilter registry (docs/hbase-semantics.md#the-19-filters), built
// from a filter language argument list. Each argument is as the parser cut it out: quoted arguments
// still carry their surrounding quotes (doubled quotes already undone), bare ones are the raw
// bytes.
//
// True when `name` is registered (case-sensitive).
bool IsRegisteredFilter(std::string_view name);
// The registered names, in HBase's registration order.
const std::vector<std::string>& RegisteredFilterNames();

// Builds the named filter. False, with *error holding the specific reason, when the arguments
// do not fit (count, quoting, numbers, booleans, operators, comparators, ranges); HBase
// reports all of these as "Incorrect filter string <expression>".
// REQUIRES: IsRegisteredFilter(name).
bool CreateFilterFromArguments(std::string_view name, const std::vector<std::string>& args,
                               std::unique_ptr<Filter>* out, std::string* error);

}  // namespace hbemu::storage
