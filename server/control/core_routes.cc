// The clock, fault and call-log controls' routes (docs/test-controls.md).

#include "server/control/core_routes.h"

#include "server/control/control_state.h"
#include "server/control/method_pattern.h"

namespace hbemu::server::control {
namespace {

using nlohmann::json;

json ClockJson(storage::ControlledClock* clock) {
  return json{{"now_ms", clock->NowMillis()},
              {"frozen", clock->frozen()},
              {"offset_ms", clock->offset_ms()},
              {"system_ms", storage::Clock::System()->NowMillis()}};
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

CallQuery QueryOf(const ControlRequest& r) {
  CallQuery q;
  const int64_t since = r.Int("since", 0);
  const int64_t limit = r.Int("limit", 0);
  if (since < 0 || limit < 0) throw ControlError{400, "since and limit are not negative"};
  q.since = static_cast<uint64_t>(since);
  q.limit = static_cast<size_t>(limit);
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

}  // namespace

void RegisterClockRoutes(ControlRoutes* routes, const ControlContext& context) {
  ControlState* state = context.state;
  storage::ControlledClock* clock = state->clock();
  routes->Add("GET", "/control/clock", [clock](const ControlRequest&) { return ClockJson(clock); });
  routes->Add("POST", "/control/clock/freeze", [state, clock](const ControlRequest& r) {
    if (r.Has("at_ms")) {
      clock->Freeze(r.Int("at_ms", 0));
    } else {
      clock->FreezeNow();
    }
    state->ClockChanged();
    return ClockJson(clock);
  });
  routes->Add("POST", "/control/clock/advance", [state, clock](const ControlRequest& r) {
    clock->Advance(DurationMs(r));
    state->ClockChanged();
    return ClockJson(clock);
  });
  routes->Add("POST", "/control/clock/offset", [state, clock](const ControlRequest& r) {
    clock->SetOffset(DurationMs(r));
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
    json calls = json::array();
    for (const CallRecord& c : log.Query(QueryOf(r))) calls.push_back(c.ToJson());
    return json{{"mark", mark},         {"enabled", log.enabled()}, {"held", log.size()},
                {"bytes", log.bytes()}, {"dropped", log.dropped()}, {"calls", calls}};
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
