#include "storage/filter_args.h"

#include <algorithm>

namespace hbemu::storage::filter_args {

// ParseFilter's helpers: removeQuotesFromByteArray, convertByteArrayToLong/Int/Boolean,
// createCompareOperator, createComparator.

bool Unquote(const std::string& arg, std::string* out, std::string* error) {
  if (arg.size() < 2 || arg.front() != '\'' || arg.back() != '\'') {
    *error = "removeQuotesFromByteArray needs a quoted byte array";
    return false;
  }
  *out = arg.substr(1, arg.size() - 2);
  return true;
}

// Java's loop: optional '-', then digits; it notices overflow only when the running value
// turns negative.
bool ToLong(const std::string& arg, int64_t* out, std::string* error) {
  size_t i = 0;
  bool negative = false;
  if (!arg.empty() && arg[0] == '-') {
    negative = true;
    i = 1;
  }
  uint64_t result = 0;
  for (; i < arg.size(); ++i) {
    if (arg[i] < '0' || arg[i] > '9') {
      *error = "Byte Array should only contain digits";
      return false;
    }
    result = result * 10 + static_cast<uint64_t>(arg[i] - '0');
    if (static_cast<int64_t>(result) < 0) {
      *error = "Long Argument too large";
      return false;
    }
  }
  *out = negative ? -static_cast<int64_t>(result) : static_cast<int64_t>(result);
  return true;
}

bool ToInt(const std::string& arg, int32_t* out, std::string* error) {
  int64_t v = 0;
  if (!ToLong(arg, &v, error)) return false;
  if (v > INT32_MAX) {
    *error = "Integer Argument too large";
    return false;
  }
  if (v < INT32_MIN) {
    *error = "Integer Argument too small";
    return false;
  }
  *out = static_cast<int32_t>(v);
  return true;
}

bool ToBool(const std::string& arg, bool* out, std::string* error) {
  std::string lower = arg;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; });
  if (lower == "true") *out = true;
  else if (lower == "false") *out = false;
  else {
    *error = "Incorrect Boolean Expression";
    return false;
  }
  return true;
}

bool ToOp(const std::string& arg, CompareOp* op, std::string* error) {
  if (ParseCompareOp(arg, op)) return true;
  *error = "Invalid compare operator";
  return false;
}

bool ToComparator(const std::string& arg, std::shared_ptr<const Comparator>* out,
                  std::string* error) {
  std::string spec;
  if (!Unquote(arg, &spec, error)) return false;
  *out = MakeComparator(spec, error);
  return *out != nullptr;
}

bool CheckRegexOps(CompareOp op, const Comparator& c, std::string* error) {
  if ((c.kind() == Comparator::Kind::kRegexString || c.kind() == Comparator::Kind::kSubstring) &&
      op != CompareOp::kEqual && op != CompareOp::kNotEqual) {
    *error = "A regexstring comparator and substring comparator can only be used with EQUAL and "
             "NOT_EQUAL";
    return false;
  }
  return true;
}

bool ArgCount(const std::vector<std::string>& args, std::initializer_list<size_t> allowed,
              std::string* error) {
  for (size_t n : allowed) {
    if (args.size() == n) return true;
  }
  *error = "Expected " + std::to_string(*allowed.begin()) + " arguments but got: " +
           std::to_string(args.size());
  return false;
}

std::string Quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

const char* Bool(bool b) { return b ? "true" : "false"; }

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace hbemu::storage::filter_args
