#include "server/control/method_pattern.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>

#include "server/admin/known_methods.h"
#include "server/control/happybase_operations.h"

namespace hbemu::server::control {
namespace {

bool IsAny(const std::string& pattern) { return pattern.empty() || pattern == "*"; }

bool Glob(const std::string& pattern, std::string_view text) {
  return IsAny(pattern) || fnmatch(pattern.c_str(), std::string(text).c_str(), 0) == 0;
}

bool HasGlobCharacters(const std::string& text) {
  return text.find_first_of("*?[") != std::string::npos;
}

constexpr std::string_view kServices[] = {"thrift1", "thrift2", "rest"};

// The Thrift methods of every service `service` matches.
std::vector<std::string> MethodsOf(const std::string& service) {
  std::vector<std::string> out;
  for (std::string_view s : kServices) {
    if (!Glob(service, s)) continue;
    for (std::string_view m : admin::KnownMethods(s)) out.emplace_back(m);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string Unknown(const std::string& what, const std::string& text,
                    const std::vector<std::string>& candidates) {
  std::string message = what + " \"" + text + "\"";
  const std::vector<std::string> close = CloseNames(text, candidates);
  if (close.empty()) {
    message += "; GET /control/methods lists the Thrift methods and happybase operations";
  } else {
    message += "; did you mean ";
    for (size_t i = 0; i < close.size(); ++i) {
      message += (i == 0 ? "" : i + 1 == close.size() ? " or " : ", ") + close[i];
    }
    message += "?";
  }
  return message;
}

}  // namespace

std::vector<std::string> CloseNames(std::string_view name,
                                    const std::vector<std::string>& candidates, size_t max) {
  const std::string wanted = Lower(name);
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string& c : candidates) {
    const std::string lower = Lower(c);
    const size_t distance = EditDistance(wanted, lower);
    const size_t longer = std::max(wanted.size(), lower.size());
    if (longer > 0 && distance * 10 <= longer * 4) scored.emplace_back(distance, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& entry : scored) {
    if (out.size() == max) break;
    out.push_back(entry.second);
  }
  return out;
}

bool ValidServicePattern(const std::string& service, std::string* error) {
  for (std::string_view s : kServices) {
    if (Glob(service, s)) return true;
  }
  *error = Unknown("no service", service, {"thrift1", "thrift2", "rest"}) +
           " (thrift1, thrift2 or rest)";
  return false;
}

bool MethodPattern::Parse(const std::string& service, const std::string& text, MethodPattern* out,
                          std::string* error) {
  *out = MethodPattern();
  if (!ValidServicePattern(service, error)) return false;
  if (IsAny(text)) return true;
  const std::vector<std::string> methods = MethodsOf(service);
  const bool glob = HasGlobCharacters(text);
  for (const std::string& m : methods) {
    if (glob ? Glob(text, m) : text == m) {
      out->glob_ = text;
      return true;
    }
  }
  if (const HappybaseOperation* op = FindHappybaseOperation(text)) {
    if (!Glob(service, "thrift1")) {
      *error = "\"" + text + "\" is a happybase operation, made of Thrift1 calls; the service \"" +
               service + "\" has none of them";
      return false;
    }
    out->glob_.clear();
    for (std::string_view m : op->methods) out->methods_.emplace_back(m);
    return true;
  }
  std::vector<std::string> candidates = methods;
  if (Glob(service, "thrift1")) {
    for (const HappybaseOperation& op : HappybaseOperations()) candidates.emplace_back(op.name);
  }
  *error = Unknown(glob ? "no method matches" : "no method or happybase operation", text,
                   candidates);
  return false;
}

bool MethodPattern::Matches(const std::string& service, const std::string& method) const {
  if (methods_.empty()) return Glob(glob_, method);
  return service == "thrift1" &&
         std::find(methods_.begin(), methods_.end(), method) != methods_.end();
}

}  // namespace hbemu::server::control
