#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storage/comparators.h"
#include "storage/filter.h"

// What the filter-language factories share (filters_simple.cc, filters_compare.cc, filters.cc):
// HBase ParseFilter's argument helpers and the registry's types. Internal to storage/.
namespace hbemu::storage::filter_args {

using Args = std::vector<std::string>;
// Builds one named filter from its arguments; false with the reason in *error.
using Factory = bool (*)(const Args&, std::unique_ptr<Filter>*, std::string*);
using Registry = std::vector<std::pair<std::string, Factory>>;

// Each appends its filters' factories in HBase's registration order; simple ones come first.
void RegisterSimpleFilters(Registry* registry);
void RegisterCompareFilters(Registry* registry);

bool Unquote(const std::string& arg, std::string* out, std::string* error);
bool ToLong(const std::string& arg, int64_t* out, std::string* error);
bool ToInt(const std::string& arg, int32_t* out, std::string* error);
bool ToBool(const std::string& arg, bool* out, std::string* error);
bool ToOp(const std::string& arg, CompareOp* op, std::string* error);
bool ToComparator(const std::string& arg, std::shared_ptr<const Comparator>* out,
                  std::string* error);
bool CheckRegexOps(CompareOp op, const Comparator& c, std::string* error);
bool ArgCount(const std::vector<std::string>& args, std::initializer_list<size_t> allowed,
              std::string* error);

// For ToString: an argument quoted as the filter language writes it, and a boolean.
std::string Quote(std::string_view s);
const char* Bool(bool b);
bool StartsWith(std::string_view s, std::string_view prefix);

}  // namespace hbemu::storage::filter_args
