#include "storage/filters.h"

#include "storage/filter_args.h"

namespace hbemu::storage {
namespace {

using filter_args::Factory;

// HBase's registration order (ParseFilter's static block).
const filter_args::Registry& Registry() {
  static const auto* registry = [] {
    auto* r = new filter_args::Registry();
    filter_args::RegisterSimpleFilters(r);
    filter_args::RegisterCompareFilters(r);
    return r;
  }();
  return *registry;
}

Factory FindFactory(std::string_view name) {
  for (const auto& [n, f] : Registry()) {
    if (n == name) return f;
  }
  return nullptr;
}

}  // namespace

bool IsRegisteredFilter(std::string_view name) { return FindFactory(name) != nullptr; }

const std::vector<std::string>& RegisteredFilterNames() {
  static const auto* names = [] {
    auto* v = new std::vector<std::string>();
    for (const auto& entry : Registry()) v->push_back(entry.first);
    return v;
  }();
  return *names;
}

bool CreateFilterFromArguments(std::string_view name, const std::vector<std::string>& args,
                               std::unique_ptr<Filter>* out, std::string* error) {
  const Factory factory = FindFactory(name);
  if (factory == nullptr) {
    *error = "Filter Name " + std::string(name) + " not supported";
    return false;
  }
  return factory(args, out, error);
}

}  // namespace hbemu::storage
