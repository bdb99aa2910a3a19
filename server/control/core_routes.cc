// The clock, fault and call-log controls' routes (docs/test-controls.md).

#include "server/control/core_routes.h"

#include <algorithm>

#include "server/control/control_state.h"
#include "server/control/method_pattern.h"
#include "server/limits.h"

namespace hbemu::server::control {
namespace {

using nlohmann::json;

json ClockJson(storage::ControlledClock* clock) {
  return json{{"now_ms", clock->NowMillis()},
              {"frozen", clock->frozen()},
              {"offset_ms", clock->offset_ms()},
              {"system_ms", storage::Clock::System()->NowMillis()}};
}

// A clock change the clock refused (out of its range): the caller's mistake.
void ThrowIfRefused(const storage::Status& status) {
  if (!status.ok()) throw ControlError{400, status.message()};
}

// A duration given as any sum of ms, seconds, minutes, hours and days.
int64_t DurationMs(const ControlRequest& r) {
  static const std::pair<const char*, double> kUnits[] = {
      {"ms", 1}, {"seconds", 1e3}, {"minutes", 6e4}, {"hours", 3.6e6}, {"days", 8.64e7}};
  double total = 0;
  bool any = false;
  for (const auto& [key, scale] : kUnits) {
    if (!r.Has(key)) continue;
    total += r.Number(key, 0) * scale;
    any = true;
  }
  if (!any) throw ControlError{400, "give a duration: ms, seconds, minutes, hours and/or days"};
  if (!(total > -9.0e15 && total < 9.0e15)) throw ControlError{400, "duration out of range"};
  return static_cast<int64_t>(total);
}

// Calls in one /control/calls answer unless `page` says otherwise.
constexpr int64_t kDefaultCallsPage = 1000;

CallQuery QueryOf(const ControlRequest& r) {
  CallQuery q;
  const int64_t since = r.Int("since", 0);
  const int64_t limit = r.Int("limit", 0);
  const int64_t page = r.Int("page", kDefaultCallsPage);
  if (since < 0 || limit < 0) throw ControlError{400, "since and limit are not negative"};
  if (page < 1) throw ControlError{400, "\"page\" (calls in one answer) must be at least 1"};
  q.since = static_cast<uint64_t>(since);
  q.limit = static_cast<size_t>(limit);
  q.page = static_cast<size_t>(page);
  q.table = r.String("table");
  q.method = r.String("method");
  q.service = r.String("service");
  q.errors_only = r.Bool("errors", false);
  // A misspelt name would find nothing, and an assertion that a call did not happen would pass.
  MethodPattern pattern;
  std::string error;
  if ((!q.service.empty() && !ValidServicePattern(q.service, &error)) ||
      (!q.method.empty() && !MethodPattern::Parse(q.service, q.method, &pattern, &error))) {
    throw ControlError{400, error};
  }
  return q;
}

// What one call adds to the answer as ControlJson prints it: its lines sit two levels deep.
size_t AnswerBytes(const json& call) {
  const std::string text = call.dump(2, ' ', false, json::error_handler_t::replace);
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  return text.size() + 4 * lines + 2;
}

}  // namespace

void RegisterClockRoutes(ControlRoutes* routes, const ControlContext& context) {
  ControlState* state = context.state;
  storage::ControlledClock* clock = state->clock();
  routes->Add("GET", "/control/clock", [clock](const ControlRequest&) { return ClockJson(clock); });
  routes->Add("POST", "/control/clock/freeze", [state, clock](const ControlRequest& r) {
    if (r.Has("at_ms")) {
      ThrowIfRefused(clock->Freeze(r.Int("at_ms", 0)));
    } else {
      clock->FreezeNow();
    }
    state->ClockChanged();
    return ClockJson(clock);
  });
  routes->Add("POST", "/control/clock/advance", [state, clock](const ControlRequest& r) {
    ThrowIfRefused(clock->Advance(DurationMs(r)));
    state->ClockChanged();
    return ClockJson(clock);
  });
  routes->Add("POST", "/control/clock/offset", [state, clock](const ControlRequest& r) {
    ThrowIfRefused(clock->SetOffset(DurationMs(r)));
    state->ClockChanged();
    return ClockJson(clock);
  });
  routes->Add("POST", "/control/clock/resume", [state, clock](const ControlRequest&) {
    clock->Resume();
    state->ClockChanged();
    return ClockJson(clock);
  });
}

void RegisterFaultRoutes(ControlRoutes* routes, const ControlContext& context) {
  ControlState* state = context.state;
  routes->Add("GET", "/control/faults", [state](const ControlRequest&) {
    return state->faults().List();
  });
  routes->Add("POST", "/control/faults", [state](const ControlRequest& r) {
    FaultRule rule;
    std::string error;
    int64_t id = 0;
    if (!FaultRule::FromJson(r.body, &rule, &error) || !state->faults().Add(rule, &id, &error)) {
      throw ControlError{400, error};
    }
    state->Refresh();
    rule.id = id;
    return rule.ToJson();
  });
  routes->Add("POST", "/control/faults/remove", [state](const ControlRequest& r) {
    if (!r.Has("id")) throw ControlError{400, "\"id\" is required"};
    const int64_t id = r.Int("id", 0);
    if (!state->faults().Remove(id)) {
      throw ControlError{404, "no fault rule " + std::to_string(id)};
    }
    state->Refresh();
    return json{{"removed", id}};
  });
  routes->Add("POST", "/control/faults/clear", [state](const ControlRequest&) {
    state->faults().Clear();
    state->Refresh();
    return json{{"cleared", true}};
  });
}

void RegisterCallLogRoutes(ControlRoutes* routes, const ControlContext& context) {
  ControlState* state = context.state;
  routes->Add("GET", "/control/calls", [state](const ControlRequest& r) {
    CallLog& log = state->calls();
    const uint64_t mark = log.Mark();
    const CallPage page = log.Query(QueryOf(r));
    // A full log is 16 MiB of records and several times that as JSON: the answer stops at
    // call_log_page_bytes (after one call at least) and says where to go on from.
    const size_t budget =
        static_cast<size_t>(std::max<int64_t>(CurrentLimits().call_log_page_bytes, 0));
    json calls = json::array();
    size_t bytes = 0;
    for (const CallRecord& c : page.calls) {
      json one = c.ToJson();
      const size_t size = AnswerBytes(one);
      if (!calls.empty() && bytes + size > budget) break;
      bytes += size;
      calls.push_back(std::move(one));
    }
    json answer{{"mark", mark},         {"enabled", log.enabled()}, {"held", log.size()},
                {"bytes", log.bytes()}, {"dropped", log.dropped()}};
    const size_t sent = calls.size();
    answer["truncated"] = sent < page.selected;
    if (sent < page.selected) {
      answer["remaining"] = page.selected - sent;
      answer["next_since"] = page.calls[sent - 1].seq;
    }
    answer["calls"] = std::move(calls);
    return answer;
  });
  routes->Add("GET", "/control/calls/mark", [state](const ControlRequest&) {
    return json{{"mark", state->calls().Mark()}};
  });
  routes->Add("POST", "/control/calls/clear", [state](const ControlRequest&) {
    state->calls().Clear();
    return json{{"mark", state->calls().Mark()}};
  });
  routes->Add("POST", "/control/calls/enable", [state](const ControlRequest& r) {
    if (!r.Has("enabled")) throw ControlError{400, "\"enabled\" (true or false) is required"};
    state->calls().SetEnabled(r.Bool("enabled", true));
    state->Refresh();
    return json{{"enabled", state->calls().enabled()}};
  });
}

}  // namespace hbemu::server::control
