#include "server/rest/filter_model.h"

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/gateway/filter_arguments.h"
#include "server/rest/base64.h"
#include "server/rest/body_shape.h"
#include "storage/comparators.h"
#include "storage/filters.h"

namespace hbemu::server::rest {

namespace {

using Json = nlohmann::json;
using storage::Filter;
namespace args = filter_arguments;

// The properties Jackson knows on a filter (FilterModel's fields) and on a comparator; any other
// fails the whole body.
const std::set<std::string>& FilterProperties() {
  static const std::set<std::string> kNames = {
      "type", "op", "comparator", "value", "filters", "limit", "offset", "family", "qualifier",
      "ifMissing", "latestVersion", "minColumn", "minColumnInclusive", "maxColumn",
      "maxColumnInclusive", "dropDependentColumn", "chance", "prefixes", "ranges", "timestamps",
      "fuzzyKeys"};
  return kNames;
}

class Builder {
 public:
  explicit Builder(const Limits& limits) : limits_(limits) {}

  bool Build(const Json& j, int64_t depth, std::unique_ptr<Filter>* out) {
    if (!j.is_object()) return Fail("a filter must be a JSON object");
    if (depth > limits_.filter_depth) {
      return Fail("filters nested more than " + std::to_string(limits_.filter_depth) +
                  " levels deep (limit filter_depth)");
    }
    if (++count_ > limits_.filter_count) {
      return Fail("more than " + std::to_string(limits_.filter_count) +
                  " filters (limit filter_count)");
    }
    for (const auto& [key, value] : j.items()) {
      if (FilterProperties().count(key) == 0) return Fail("unrecognized filter field \"" + key + "\"");
    }
    std::string type;
    if (!Text(j, "type", &type)) return false;
    if (type == "FilterList") return BuildList(j, depth, out);
    if (type == "SkipFilter" || type == "WhileMatchFilter") return BuildWrapper(type, j, depth, out);
    if (type == "MultiRowRangeFilter" || type == "RandomRowFilter" || type == "FuzzyRowFilter") {
      return Fail(type + " is not supported by hbase-emulator");
    }
    if (!storage::IsRegisteredFilter(type) || type == "ColumnValueFilter") {
      return Fail("unknown filter type \"" + type + "\"");
    }
    std::vector<std::string> arguments;
    if (!Arguments(type, j, &arguments)) return false;
    std::string error;
    if (!storage::CreateFilterFromArguments(type, arguments, out, &error)) {
      return Fail(type + ": " + error);
    }
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  bool Fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  const Json* Field(const Json& j, const char* name) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) {
      Fail(std::string("missing field \"") + name + "\"");
      return nullptr;
    }
    return &*it;
  }

  bool Text(const Json& j, const char* name, std::string* out) {
    const Json* v = Field(j, name);
    if (v == nullptr) return false;
    if (!v->is_string()) return Fail(std::string("field \"") + name + "\" must be a string");
    *out = v->get<std::string>();
    return true;
  }

  // java.util.Base64's basic decoder: the alphabet, optional padding at the end.
  bool DecodeBase64(const std::string& name, const std::string& text, std::string* out) {
    std::string padded = text;
    while (padded.size() % 4 != 0) padded.push_back('=');
    if (text.find_first_of(" \r\n\t") != std::string::npos || !Base64DecodeStrict(padded, out)) {
      return Fail("field \"" + name + "\" is not valid base64");
    }
    return true;
  }

  bool Bytes(const Json& j, const char* name, std::string* out) {
    std::string text;
    return Text(j, name, &text) && DecodeBase64(name, text, out);
  }

  bool Integer(const Json& j, const char* name, std::string* out) {
    const Json* v = Field(j, name);
    if (v == nullptr) return false;
    if (!v->is_number_integer()) return Fail(std::string("field \"") + name + "\" must be an integer");
    *out = v->dump();
    return true;
  }

  bool Boolean(const Json& j, const char* name, bool fallback, bool required, std::string* out) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) {
      if (required) return Fail(std::string("missing field \"") + name + "\"");
      *out = args::Bool(fallback);
      return true;
    }
    if (!it->is_boolean()) return Fail(std::string("field \"") + name + "\" must be a boolean");
    *out = args::Bool(it->get<bool>());
    return true;
  }

  bool Operator(const Json& j, std::string* out) {
    std::string name;
    if (!Text(j, "op", &name)) return false;
    for (auto op : {storage::CompareOp::kLess, storage::CompareOp::kLessOrEqual,
                    storage::CompareOp::kEqual, storage::CompareOp::kNotEqual,
                    storage::CompareOp::kGreaterOrEqual, storage::CompareOp::kGreater,
                    storage::CompareOp::kNoOp}) {
      if (name != storage::CompareOpName(op)) continue;
      if (!args::OperatorSymbol(op, out)) return Fail("the NO_OP operator is not supported by hbase-emulator");
      return true;
    }
    return Fail("unknown compare operator \"" + name + "\"");
  }

  bool Comparator(const Json& j, std::string* out) {
    const Json* c = Field(j, "comparator");
    if (c == nullptr) return false;
    if (!c->is_object()) return Fail("field \"comparator\" must be an object");
    for (const auto& [key, value] : c->items()) {
      if (key != "type" && key != "value" && key != "op") {
        return Fail("unrecognized comparator field \"" + key + "\"");
      }
    }
    std::string type, spec;
    if (!Text(*c, "type", &type)) return false;
    if (type == "BinaryComparator" || type == "BinaryPrefixComparator") {
      std::string value;
      if (!Bytes(*c, "value", &value)) return false;
      spec = (type == "BinaryComparator" ? "binary:" : "binaryprefix:") + value;
    } else if (type == "RegexStringComparator" || type == "SubstringComparator") {
      std::string value;
      if (!Text(*c, "value", &value)) return false;
      spec = (type == "RegexStringComparator" ? "regexstring:" : "substring:") + value;
    } else if (type == "BitComparator" || type == "NullComparator") {
      return Fail(type + " is not supported by hbase-emulator");
    } else {
      return Fail("unknown comparator type \"" + type + "\"");
    }
    *out = args::Quoted(spec);
    return true;
  }

  bool CompareArgs(const Json& j, std::vector<std::string>* a) {
    std::string op, comparator;
    if (!Operator(j, &op) || !Comparator(j, &comparator)) return false;
    a->push_back(op);
    a->push_back(comparator);
    return true;
  }

  bool Arguments(const std::string& type, const Json& j, std::vector<std::string>* a) {
    std::string s1, s2, s3, s4;
    if (type == "KeyOnlyFilter" || type == "FirstKeyOnlyFilter") return true;
    if (type == "PrefixFilter" || type == "ColumnPrefixFilter" || type == "InclusiveStopFilter") {
      if (!Bytes(j, "value", &s1)) return false;
      a->push_back(args::Quoted(s1));
      return true;
    }
    if (type == "PageFilter") {
      // Long.parseLong of a string (Jackson also takes a number there).
      const Json* v = Field(j, "value");
      if (v == nullptr) return false;
      if (v->is_number_integer()) {
        s1 = v->dump();
      } else if (!Text(j, "value", &s1)) {
        return false;
      }
      a->push_back(s1);
      return true;
    }
    if (type == "ColumnCountGetFilter") {
      if (!Integer(j, "limit", &s1)) return false;
      a->push_back(s1);
      return true;
    }
    if (type == "ColumnPaginationFilter") {
      if (!Integer(j, "limit", &s1) || !Integer(j, "offset", &s2)) return false;
      *a = {s1, s2};
      return true;
    }
    if (type == "MultipleColumnPrefixFilter" || type == "TimestampsFilter") {
      const bool prefixes = type == "MultipleColumnPrefixFilter";
      const char* name = prefixes ? "prefixes" : "timestamps";
      const Json* list = Field(j, name);
      if (list == nullptr) return false;
      if (!list->is_array()) return Fail(std::string("field \"") + name + "\" must be an array");
      for (const Json& item : *list) {
        if (prefixes) {
          if (!item.is_string() || !DecodeBase64(name, item.get<std::string>(), &s1)) {
            return Fail("field \"prefixes\" must hold base64 strings");
          }
          a->push_back(args::Quoted(s1));
        } else {
          if (!item.is_number_integer()) return Fail("field \"timestamps\" must hold integers");
          a->push_back(item.dump());
        }
      }
      return true;
    }
    if (type == "ColumnRangeFilter") {
      if (!Bytes(j, "minColumn", &s1) || !Boolean(j, "minColumnInclusive", false, true, &s2) ||
          !Bytes(j, "maxColumn", &s3) || !Boolean(j, "maxColumnInclusive", false, true, &s4)) {
        return false;
      }
      *a = {args::Quoted(s1), s2, args::Quoted(s3), s4};
      return true;
    }
    if (type == "RowFilter" || type == "FamilyFilter" || type == "QualifierFilter" ||
        type == "ValueFilter") {
      return CompareArgs(j, a);
    }
    if (type == "SingleColumnValueFilter" || type == "SingleColumnValueExcludeFilter") {
      if (!Bytes(j, "family", &s1) || !OptionalBytes(j, "qualifier", &s2)) return false;
      *a = {args::Quoted(s1), args::Quoted(s2)};
      if (!CompareArgs(j, a)) return false;
      // HBase's defaults when the fields are absent: keep rows missing the column, latest
      // version only.
      if (!Boolean(j, "ifMissing", false, false, &s3) || !Boolean(j, "latestVersion", true, false, &s4)) {
        return false;
      }
      a->push_back(s3);
      a->push_back(s4);
      return true;
    }
    if (type == "DependentColumnFilter") {
      if (!Bytes(j, "family", &s1) || !OptionalBytes(j, "qualifier", &s2) ||
          !Boolean(j, "dropDependentColumn", false, true, &s3)) {
        return false;
      }
      *a = {args::Quoted(s1), args::Quoted(s2), s3};
      return CompareArgs(j, a);
    }
    return Fail("unknown filter type \"" + type + "\"");
  }

  bool OptionalBytes(const Json& j, const char* name, std::string* out) {
    out->clear();
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return true;
    return Bytes(j, name, out);
  }

  bool Members(const Json& j, int64_t depth, std::vector<std::unique_ptr<Filter>>* members) {
    const Json* list = Field(j, "filters");
    if (list == nullptr) return false;
    if (!list->is_array()) return Fail("field \"filters\" must be an array");
    if (count_ + static_cast<int64_t>(list->size()) > limits_.filter_count) {
      return Fail("more than " + std::to_string(limits_.filter_count) +
                  " filters (limit filter_count)");
    }
    for (const Json& member : *list) {
      std::unique_ptr<Filter> filter;
      if (!Build(member, depth + 1, &filter)) return false;
      members->push_back(std::move(filter));
    }
    return true;
  }

  bool BuildList(const Json& j, int64_t depth, std::unique_ptr<Filter>* out) {
    std::string op;
    if (!Text(j, "op", &op)) return false;
    if (op != "MUST_PASS_ALL" && op != "MUST_PASS_ONE") {
      return Fail("unknown FilterList operator \"" + op + "\"");
    }
    std::vector<std::unique_ptr<Filter>> members;
    if (!Members(j, depth, &members)) return false;
    *out = std::make_unique<storage::FilterList>(
        op == "MUST_PASS_ALL" ? storage::FilterList::Op::kAnd : storage::FilterList::Op::kOr,
        std::move(members));
    return true;
  }

  // HBase wraps the first of `filters` (and fails when there is none).
  bool BuildWrapper(const std::string& type, const Json& j, int64_t depth,
                    std::unique_ptr<Filter>* out) {
    std::vector<std::unique_ptr<Filter>> members;
    if (!Members(j, depth, &members)) return false;
    if (members.empty()) return Fail(type + " needs a filter in \"filters\"");
    if (type == "SkipFilter") {
      *out = std::make_unique<storage::SkipFilter>(std::move(members[0]));
    } else {
      *out = std::make_unique<storage::WhileMatchFilter>(std::move(members[0]));
    }
    return true;
  }

  const Limits& limits_;
  int64_t count_ = 0;
  std::string error_;
};

}  // namespace

BodyStatus BuildScannerFilter(std::string_view json, std::shared_ptr<const Filter>* out) {
  return BuildScannerFilter(json, CurrentLimits(), out);
}

BodyStatus BuildScannerFilter(std::string_view json, const Limits& limits,
                              std::shared_ptr<const Filter>* out) {
  if (static_cast<int64_t>(json.size()) > limits.filter_string_bytes) {
    return BodyStatus::ResourceBadRequest("filter is " + std::to_string(json.size()) +
                                          " bytes long (limit filter_string_bytes=" +
                                          std::to_string(limits.filter_string_bytes) + ")");
  }
  // Each filter level nests an object and its "filters" array.
  BodyBounds bounds = CurrentBodyBounds();
  bounds.max_depth = 2 * limits.filter_depth + 4;
  bounds.depth_limit = "filter_depth";
  BodyStatus shape = CheckJsonShape(json, bounds);
  if (!shape.ok()) return BodyStatus::ResourceBadRequest("filter " + shape.message());
  Json tree = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (tree.is_discarded()) return BodyStatus::ResourceBadRequest("filter is not valid JSON");
  Builder builder(limits);
  std::unique_ptr<Filter> filter;
  if (!builder.Build(tree, 1, &filter)) return BodyStatus::ResourceBadRequest(builder.error());
  *out = std::move(filter);
  return BodyStatus::Ok();
}

}  // namespace hbemu::server::rest
