// The test controls' pages (--test-controls): each renders the answer of its /control/ twin.

#include <cstdio>
#include <string>

#include "server/admin/console.h"
#include "server/admin/format.h"
#include "server/admin/pages.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

std::string Code(const std::string& html) { return "<code>" + html + "</code>"; }

// A probability as a percentage with at most three significant digits: "30%", "0.1%".
std::string Percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g%%", p * 100);
  return buf;
}

int64_t IntOr(const json& doc, const char* key, int64_t fallback) {
  return doc.contains(key) && doc[key].is_number() ? doc[key].get<int64_t>() : fallback;
}

// A calls-page URL with the filter `f` (what a link or the "clear" link leads to).
std::string CallsUrl(const CallFilter& f) {
  std::string url = f.errors_page ? "/errors" : "/calls";
  std::string query;
  auto add = [&query](const std::string& key, const std::string& value) {
    query += (query.empty() ? "?" : "&") + key + "=" + UrlEncode(value);
  };
  if (!f.table.empty()) add("table", f.table);
  if (!f.method.empty()) add("method", f.method);
  if (f.errors_only && !f.errors_page) add("errors", "1");
  return url + query;
}

// The time a call started: the time of day (UTC), the full date on hover.
std::string CallTime(const json& call) {
  const int64_t ms = IntOr(call, "started_unix_ms", -1);
  if (ms < 0) return "";
  return "<span title=\"" + E(UtcDate(ms)) + "\" data-ms=\"" + std::to_string(ms) + "\">" +
         E(UtcTimeOfDay(ms)) + "</span>";
}

std::string FilterForm(const CallFilter& f) {
  std::string html = "<form id=\"call-filter\" method=\"get\" action=\"" +
                     std::string(f.errors_page ? "/errors" : "/calls") +
                     "\">table <input name=\"table\" value=\"" + E(f.table) +
                     "\"> method <input name=\"method\" value=\"" + E(f.method) + "\"> ";
  if (!f.errors_page) {
    html += std::string("<label><input type=\"checkbox\" name=\"errors\" value=\"1\"") +
            (f.errors_only ? " checked" : "") + "> errors only</label> ";
  }
  return html + "<button>Filter</button></form>";
}

// "Showing only ..." with a link that drops the filter; empty when nothing is filtered.
std::string FilterInForce(const CallFilter& f) {
  std::string parts;
  if (!f.table.empty()) parts += " on table " + Code(E(f.table));
  if (!f.method.empty()) parts += (parts.empty() ? "" : ",") + std::string(" of method ") + Code(E(f.method));
  if (f.errors_only && !f.errors_page) parts += (parts.empty() ? "" : ",") + std::string(" that failed");
  if (parts.empty()) return "";
  CallFilter cleared;
  cleared.errors_page = f.errors_page;
  return "<p id=\"filter\" class=\"tag mixed\">Showing only calls" + parts +
         " &middot; <a id=\"clear-filter\" href=\"" + CallsUrl(cleared) + "\">clear the filter</a></p>";
}

std::string RulesTable(const json& faults) {
  std::string html =
      "<table id=\"fault-rules\"><tr><th>id</th><th>service</th><th>method</th><th>table</th>"
      "<th>row prefix</th><th>action</th><th>what it does</th><th>times left</th>"
      "<th>probability</th><th>matched</th><th>triggered</th></tr>";
  const json rules = faults.value("rules", json::array());
  for (const json& r : rules) {
    std::string does;
    if (r.contains("exception")) {
      does = Code(E(r["exception"])) + (r.value("message", "").empty() ? "" : ": " + E(r["message"]));
      if (r.contains("can_retry")) does += r["can_retry"].get<bool>() ? " (retryable)" : " (do not retry)";
    } else if (r.contains("delay_ms")) {
      does = HumanSeconds(r["delay_ms"].get<double>() / 1000) + " delay";
    }
    const int64_t times = IntOr(r, "times", -1);
    html += "<tr class=\"fault-rule\" data-id=\"" + E(r["id"]) + "\">" + Td(E(r["id"]), true) +
            Td(Code(E(r["service"]))) + Td(Code(E(r["method"]))) + Td(Code(E(r["table"]))) +
            Td(Code(E(r["row_prefix"]))) + Td(E(r["action"])) + Td(does) +
            Td(times < 0 ? "always" : HumanCount(static_cast<uint64_t>(times)), true) +
            Td(Percent(r.value("probability", 1.0)), true) +
            Td(HumanCount(r.value("matched", uint64_t{0})), true) +
            Td(HumanCount(r.value("triggered", uint64_t{0})), true) + "</tr>";
  }
  html += "</table>";
  if (rules.empty()) html += "<p class=\"muted\">No fault rules installed.</p>";
  std::string triggered;
  const json by_action = faults.value("triggered", json::object());
  for (auto it = by_action.begin(); it != by_action.end(); ++it) {
    triggered += (triggered.empty() ? "" : ", ") + E(it.key()) + " " + HumanCount(it.value().get<uint64_t>());
  }
  if (!triggered.empty()) html += "<p id=\"triggered\">Triggered since start, by action: " + triggered + "</p>";
  return html;
}

}  // namespace

std::string RenderCallsPage(const json& log, const json& faults, const CallFilter& filter,
                            const Nav& nav) {
  const bool errors = filter.errors_page;
  const std::string title = errors ? "Recent errors" : "Recent calls";
  std::string b = "<h1>" + title + "</h1>";
  b += "<p class=\"muted\">Newest first, from the test controls' call log (<code>GET /control/calls</code>): " +
       HumanCount(log.value("held", uint64_t{0})) + " calls held, " +
       HumanCount(log.value("dropped", uint64_t{0})) + " dropped for the log's bounds" +
       (log.value("enabled", true) ? "" : "; <b>logging is off</b>") + ". Times are UTC.</p>";
  b += FilterForm(filter) + FilterInForce(filter);
  b += "<table id=\"calls\"><tr><th>#</th><th>time</th><th>service</th><th>method</th><th>table</th>"
       "<th>row / range</th><th>arguments</th><th>took</th><th>outcome</th></tr>";
  const json& calls = log.at("calls");
  for (auto it = calls.rbegin(); it != calls.rend(); ++it) {
    const json& c = *it;
    std::string range = c.contains("row") ? E(c["row"]) : "";
    if (c.contains("stop_row")) range += " .. " + E(c["stop_row"]);
    if (c.contains("row_count")) range += " (" + HumanCount(c["row_count"].get<uint64_t>()) + " rows)";
    std::string args;
    for (const char* key : {"filter", "caching", "batch_size", "columns", "scanner_id", "num_rows"}) {
      if (c.contains(key)) args += std::string(key) + "=" + E(c[key]) + " ";
    }
    std::string outcome = E(c["outcome"]);
    if (c.contains("fault")) outcome += " <span class=\"tag hot\">" + E(c["fault"]) + "</span>";
    if (c.contains("reason")) outcome += "<br><code>" + E(c["reason"]) + "</code>";
    // The method and table link to the page filtered by them.
    CallFilter by_method = filter, by_table = filter;
    by_method.method = c.value("method", "");
    by_table.table = c.value("table", "");
    const std::string table = c.contains("table")
                                  ? "<a href=\"" + E(CallsUrl(by_table)) + "\">" + E(c["table"]) + "</a>"
                                  : "";
    b += "<tr class=\"call\" data-seq=\"" + E(c["seq"]) + "\" data-outcome=\"" + E(c["outcome"]) + "\">" +
         Td(E(c["seq"]), true) + Td(CallTime(c)) + Td(E(c["service"])) +
         Td("<a href=\"" + E(CallsUrl(by_method)) + "\">" + E(c["method"]) + "</a>") + Td(table) +
         Td(Code(range)) + Td(Code(args)) +
         Td(HumanSeconds(static_cast<double>(IntOr(c, "duration_us", 0)) / 1e6), true) + Td(outcome) +
         "</tr>";
  }
  b += "</table>";
  if (calls.empty()) b += "<p id=\"no-calls\" class=\"muted\">No calls match.</p>";
  b += "<h2>Fault rules</h2>" + RulesTable(faults) + "<p><a href=\"/faults\">the fault rules page</a></p>";
  return Page(title, b, nav);
}

std::string RenderClockPage(const json& clock, const Nav& nav) {
  const int64_t now = IntOr(clock, "now_ms", 0);
  const int64_t system = IntOr(clock, "system_ms", 0);
  const int64_t offset = IntOr(clock, "offset_ms", 0);
  const bool frozen = clock.value("frozen", false);
  std::string b = "<h1>Clock</h1><table id=\"clock\">";
  b += "<tr><th>server time</th><td id=\"clock-now\" data-ms=\"" + std::to_string(now) + "\">" +
       E(UtcDate(now)) + " <span class=\"muted\">(" + std::to_string(now) + " ms)</span></td></tr>";
  b += "<tr><th>state</th><td id=\"clock-state\" data-frozen=\"" + std::string(frozen ? "true" : "false") +
       "\">" + (frozen ? "<span class=\"tag hot\">frozen</span>" : "<span class=\"tag even\">running</span>") +
       "</td></tr>";
  b += "<tr><th>ahead of the system clock</th><td id=\"clock-offset\" data-ms=\"" +
       std::to_string(now - system) + "\">" + HumanSeconds(static_cast<double>(now - system) / 1000) +
       (frozen ? "" : " (offset " + HumanSeconds(static_cast<double>(offset) / 1000) + ")") + "</td></tr>";
  b += "<tr><th>system time</th><td>" + E(UtcDate(system)) + "</td></tr></table>";
  b += "<p class=\"muted\">The server time stamps cells, judges TTLs and expires scanners. Change it "
       "with <code>POST /control/clock/freeze</code>, <code>/advance</code>, <code>/offset</code>, "
       "<code>/resume</code> (or the Python package's <code>controls.clock</code>).</p>";
  return Page("Clock", b, nav);
}

std::string RenderFaultsPage(const json& faults, const Nav& nav) {
  std::string b = "<h1>Fault rules</h1>" + RulesTable(faults);
  b += "<p class=\"muted\">Rules are tried in order; the first that matches a call acts on it. Add "
       "them with <code>POST /control/faults</code> (or <code>controls.faults</code>); the "
       "<a href=\"/errors\">errors page</a> shows the calls they failed.</p>";
  return Page("Fault rules", b, nav);
}

std::string RenderSnapshotsPage(const json& doc, const Nav& nav) {
  std::string b = "<h1>Snapshots</h1><table id=\"snapshots\"><tr><th>name</th><th>taken</th>"
                  "<th>tables</th><th>cells</th><th>bytes</th></tr>";
  const json snapshots = doc.value("snapshots", json::array());
  for (const json& s : snapshots) {
    std::string tables;
    if (s.value("whole_store", false)) {
      tables = "<i>the whole store</i>";
    } else {
      for (const json& t : s.value("tables", json::array())) tables += Code(E(t)) + " ";
    }
    b += "<tr class=\"snapshot\" data-name=\"" + E(s["name"]) + "\">" + Td(Code(E(s["name"]))) +
         Td(E(UtcDate(IntOr(s, "created_ms", 0)))) + Td(tables) +
         Td(HumanCount(s.value("cells", uint64_t{0})), true) +
         Td(HumanBytes(s.value("bytes", uint64_t{0})), true) + "</tr>";
  }
  b += "</table>";
  if (snapshots.empty()) b += "<p class=\"muted\">No snapshots.</p>";
  b += "<p class=\"muted\">Taken and restored with <code>POST /control/snapshot</code> and "
       "<code>/control/restore_snapshot</code> (or the Python package's snapshots), in memory "
       "next to the store.</p>";
  return Page("Snapshots", b, nav);
}

}  // namespace hbemu::server::admin
