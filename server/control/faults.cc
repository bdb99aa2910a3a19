#include "server/control/faults.h"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>

#include "server/limits.h"

namespace hbemu::server::control {
namespace {

using nlohmann::json;

bool Glob(const std::string& pattern, const std::string& text) {
  return pattern.empty() || pattern == "*" || fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// HBase's DoNotRetryIOException and the subclasses a test is likely to name: a client gives up
// on these at once, and the gateways send canRetry=false for them.
bool IsDoNotRetry(const std::string& java_class) {
  static const char* const kDoNotRetry[] = {
      "DoNotRetryIOException",      "TableNotFoundException",   "NoSuchColumnFamilyException",
      "TableNotEnabledException",   "TableNotDisabledException", "TableExistsException",
      "NamespaceNotFoundException", "UnknownScannerException",  "FailedSanityCheckException",
      "AccessDeniedException",      "InvalidFamilyOperationException",
  };
  const std::string simple = java_class.substr(java_class.rfind('.') + 1);
  for (const char* name : kDoNotRetry) {
    if (simple == name) return true;
  }
  return false;
}

bool ActionOf(const std::string& name, FaultAction* out) {
  if (name == "fail") *out = FaultAction::kFail;
  else if (name == "delay") *out = FaultAction::kDelay;
  else if (name == "close_before") *out = FaultAction::kCloseBefore;
  else if (name == "close_after") *out = FaultAction::kCloseAfter;
  else return false;
  return true;
}

}  // namespace

const char* FaultActionName(FaultAction action) {
  switch (action) {
    case FaultAction::kFail: return "fail";
    case FaultAction::kDelay: return "delay";
    case FaultAction::kCloseBefore: return "close_before";
    case FaultAction::kCloseAfter: return "close_after";
  }
  return "?";
}

bool FaultRule::FromJson(const json& doc, FaultRule* rule, std::string* error) {
  *rule = FaultRule();
  auto text = [&](const char* key, std::string* out) {
    auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) return true;
    if (!it->is_string()) {
      *error = std::string("\"") + key + "\" must be a string";
      return false;
    }
    *out = it->get<std::string>();
    return true;
  };
  auto number = [&](const char* key, double* out) {
    auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) return true;
    if (!it->is_number()) {
      *error = std::string("\"") + key + "\" must be a number";
      return false;
    }
    *out = it->get<double>();
    return true;
  };
  // A count or a seed, read exactly when the JSON holds an integer (a seed is any 64-bit value):
  // its sign and magnitude, or false for anything not whole or past 2^64. "times": 1e300 used
  // to become INT64_MIN, a rule that never ran out.
  struct Whole {
    bool given = false;
    bool negative = false;
    bool past_2_64 = false;
    uint64_t magnitude = 0;
  };
  auto whole = [&](const char* key, Whole* out) {
    auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) return true;
    out->given = true;
    if (it->is_number_unsigned()) {
      out->magnitude = it->get<uint64_t>();
      return true;
    }
    if (it->is_number_integer()) {
      const int64_t v = it->get<int64_t>();
      out->negative = v < 0;
      out->magnitude = out->negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
      return true;
    }
    if (it->is_number_float()) {
      const double d = it->get<double>();
      if (d == std::floor(d)) {
        out->negative = d < 0;
        out->past_2_64 = std::fabs(d) >= 18446744073709551616.0;  // 2^64: would not convert
        out->magnitude = out->past_2_64 ? UINT64_MAX : static_cast<uint64_t>(std::fabs(d));
        return true;
      }
    }
    *error = std::string("\"") + key + "\" must be a whole number";
    return false;
  };
  std::string action = "fail";
  double probability = 1;
  Whole delay_ms, times, seed;
  if (!text("service", &rule->service) || !text("method", &rule->method) ||
      !text("table", &rule->table) || !text("row_prefix", &rule->row_prefix) ||
      !text("action", &action) || !text("exception", &rule->exception) ||
      !text("message", &rule->message) || !whole("delay_ms", &delay_ms) ||
      !whole("times", &times) || !number("probability", &probability) ||
      !whole("seed", &seed)) {
    return false;
  }
  if (delay_ms.negative || delay_ms.past_2_64 ||
      delay_ms.magnitude > static_cast<uint64_t>(kMaxFaultDelayMs)) {
    *error = "\"delay_ms\" must be between 0 and " + std::to_string(kMaxFaultDelayMs);
    return false;
  }
  const bool every_call = times.negative && times.magnitude == 1;
  if (times.given && !every_call &&
      (times.negative || times.past_2_64 || times.magnitude == 0 ||
       times.magnitude > static_cast<uint64_t>(kMaxFaultTimes))) {
    *error = "\"times\" must be a whole number from 1 to " + std::to_string(kMaxFaultTimes) +
             " (or -1 for every matching call)";
    return false;
  }
  if (seed.negative || seed.past_2_64) {
    *error = "\"seed\" must be a whole number from 0 to 2^64 - 1";
    return false;
  }
  if (!MethodPattern::Parse(rule->service, rule->method, &rule->method_pattern, error)) {
    return false;
  }
  if (!ActionOf(action, &rule->action)) {
    *error = "\"action\" must be fail, delay, close_before or close_after";
    return false;
  }
  if (auto it = doc.find("can_retry"); it != doc.end() && !it->is_null()) {
    if (!it->is_boolean()) {
      *error = "\"can_retry\" must be true or false";
      return false;
    }
    rule->can_retry = it->get<bool>();
  }
  if (rule->exception.empty()) {
    *error = "\"exception\" must name a Java exception class";
    return false;
  }
  if (!(probability >= 0 && probability <= 1)) {
    *error = "\"probability\" must be between 0 and 1";
    return false;
  }
  if (rule->action == FaultAction::kDelay && delay_ms.magnitude == 0) {
    *error = "a delay rule needs \"delay_ms\"";
    return false;
  }
  rule->delay_ms = static_cast<int64_t>(delay_ms.magnitude);
  rule->times = !times.given || every_call ? -1 : static_cast<int64_t>(times.magnitude);
  rule->probability = probability;
  rule->seed = seed.magnitude;
  if (rule->message.empty()) rule->message = "injected by a test-controls fault rule";
  return true;
}

json FaultRule::ToJson() const {
  json out{{"id", id},
           {"service", service},
           {"method", method},
           {"table", table},
           {"row_prefix", row_prefix},
           {"action", FaultActionName(action)},
           {"times", times},
           {"probability", probability},
           {"seed", seed},
           {"matched", matched},
           {"triggered", triggered}};
  if (action == FaultAction::kFail) {
    out["exception"] = exception;
    out["message"] = message;
    out["can_retry"] = CanRetry();
  }
  if (action == FaultAction::kDelay) out["delay_ms"] = delay_ms;
  if (!method_pattern.operation_methods().empty()) {
    out["methods"] = method_pattern.operation_methods();  // the operation's Thrift calls
  }
  return out;
}

bool FaultRule::CanRetry() const { return can_retry.value_or(!IsDoNotRetry(exception)); }

bool FaultRule::Matches(const std::string& call_service, const DecodedCall& call) const {
  if (!Glob(service, call_service) || !method_pattern.Matches(call_service, call.method) ||
      !Glob(table, call.table)) {
    return false;
  }
  if (row_prefix.empty()) return true;
  for (const std::string* row : call.MatchRows()) {
    if (row->compare(0, row_prefix.size(), row_prefix) == 0) return true;
  }
  return false;
}

bool FaultRules::Add(FaultRule rule, int64_t* id, std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (static_cast<int64_t>(rules_.size()) >= CurrentLimits().fault_rules) {
    *error = "already " + std::to_string(rules_.size()) +
             " fault rules, the fault_rules limit (--limit fault_rules=N raises it)";
    return false;
  }
  rule.id = next_id_++;
  *id = rule.id;
  const uint64_t seed = rule.seed;
  rules_.push_back({std::move(rule), std::mt19937_64(seed)});
  count_.store(rules_.size(), std::memory_order_relaxed);
  return true;
}

bool FaultRules::Remove(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find_if(rules_.begin(), rules_.end(),
                         [id](const Installed& r) { return r.rule.id == id; });
  if (it == rules_.end()) return false;
  rules_.erase(it);
  count_.store(rules_.size(), std::memory_order_relaxed);
  return true;
}

void FaultRules::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  rules_.clear();
  count_.store(0, std::memory_order_relaxed);
}

json FaultRules::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  json rules = json::array();
  for (const Installed& r : rules_) rules.push_back(r.rule.ToJson());
  json triggered = json::object();
  for (int a = 0; a < kFaultActions; ++a) {
    triggered[FaultActionName(static_cast<FaultAction>(a))] = triggered_[a].load();
  }
  return json{{"rules", rules}, {"triggered", triggered}};
}

std::optional<FaultRule> FaultRules::Hit(const std::string& service, const DecodedCall& call) {
  std::lock_guard<std::mutex> lock(mu_);
  for (Installed& r : rules_) {
    FaultRule& rule = r.rule;
    // A spent rule stays listed (with its counts) until removed, but hits nothing.
    if (rule.times == 0 || !rule.Matches(service, call)) continue;
    ++rule.matched;
    if (rule.probability < 1.0 &&
        std::uniform_real_distribution<double>(0.0, 1.0)(r.rng) >= rule.probability) {
      continue;
    }
    ++rule.triggered;
    if (rule.times > 0) --rule.times;
    triggered_[static_cast<int>(rule.action)].fetch_add(1, std::memory_order_relaxed);
    return rule;
  }
  return std::nullopt;
}

}  // namespace hbemu::server::control
