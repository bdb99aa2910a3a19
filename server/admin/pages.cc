#include "server/admin/pages.h"

#include <algorithm>
#include <cstdio>

#include "server/admin/console.h"
#include "server/admin/format.h"
#include "server/admin/heat_map.h"
#include "server/options.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

const char kStyle[] = R"CSS(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#1d2430;color:#fff;padding:10px 20px;display:flex;gap:20px;align-items:baseline}
header nav{display:flex;gap:16px;flex-wrap:wrap}header a{color:#cfe3ff;text-decoration:none}header b{font-size:1.1em}
main{padding:16px 20px}h1{font-size:1.4em;margin:.2em 0 .6em}h2{font-size:1.1em;margin:1.2em 0 .4em}
table{border-collapse:collapse;background:#fff;margin-bottom:8px}
th,td{border:1px solid #d8dde6;padding:3px 8px;text-align:left;font-size:.9em;vertical-align:top}
th{background:#eef1f5}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.heat td.heat{width:34px;text-align:center;font-size:.75em;padding:2px}
.tag{display:inline-block;padding:1px 7px;border-radius:9px;font-size:.85em}
.hot{background:#ffd9cf;color:#8a1c00}.even{background:#d6f5dc;color:#135c24}
.mixed{background:#fff1c2;color:#6b5200}.idle{background:#e4e7ec}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
form{margin:8px 0}input,select{font:inherit}.muted{color:#6b7585}
)CSS";

std::string Bytes(uint64_t n) { return HumanBytes(n); }

// A count for people, its exact value in a data- attribute for scripts and tests.
std::string Count(const json& n) {
  if (!n.is_number_unsigned() && !n.is_number_integer()) return E(n);
  const int64_t v = n.get<int64_t>();
  return v < 0 ? E(n) : HumanCount(static_cast<uint64_t>(v));
}


// A heat cell: background from white to red by count/max.
std::string HeatCell(uint64_t count, uint64_t max) {
  const double f = max == 0 ? 0 : static_cast<double>(count) / static_cast<double>(max);
  char style[96];
  std::snprintf(style, sizeof(style), "background:rgba(214,48,20,%.2f);color:%s", f,
                f > 0.6 ? "#fff" : "#1d2430");
  return "<td class=\"heat\" data-count=\"" + std::to_string(count) + "\" style=\"" + style +
         "\">" + (count ? std::to_string(count) : "") + "</td>";
}

// Rows of a heat table: label, one cell per window (reads + writes), then the total.
std::string HeatRows(const json& entries, const std::string& label_key, const char* row_class) {
  uint64_t max = 0;
  for (const json& e : entries) {
    for (int w = 0; w < static_cast<int>(e["window_reads"].size()); ++w) {
      max = std::max(max, e["window_reads"][w].get<uint64_t>() + e["window_writes"][w].get<uint64_t>());
    }
  }
  std::string html;
  for (const json& e : entries) {
    const std::string label = label_key == "region" ? "region " + e["region"].dump()
                                                     : e[label_key].get<std::string>();
    html += "<tr class=\"" + std::string(row_class) + "\" data-label=\"" + E(label) +
            "\" data-writes=\"" + e["writes"].dump() + "\" data-reads=\"" + e["reads"].dump() +
            "\"><th class=\"mono\">" + E(label) + "</th>";
    for (size_t w = 0; w < e["window_reads"].size(); ++w) {
      html += HeatCell(e["window_reads"][w].get<uint64_t>() + e["window_writes"][w].get<uint64_t>(),
                       max);
    }
    html += Td(Count(e["reads"]), true) + Td(Count(e["writes"]), true) + "</tr>";
  }
  return html;
}

std::string HeatHeader(const json& heat) {
  std::string html = "<tr><th></th>";
  const int windows = heat["windows"].get<int>();
  const int seconds = heat["window_seconds"].get<int>();
  for (int w = 0; w < windows; ++w) {
    const int ago = (windows - 1 - w) * seconds;
    html += "<th class=\"muted\">" + (ago == 0 ? std::string("now") : "-" + std::to_string(ago) + "s") + "</th>";
  }
  return html + "<th>reads</th><th>writes</th></tr>";
}

// The heat map's bucketing, chosen per table on its page: a GET form, so the choice is in the
// URL (bookmarkable, and the console keeps no state per viewer).
std::string BucketForm(const std::string& table, const json& heat) {
  const int bytes = heat["prefix_bytes"].get<int>();
  const std::string delimiter = heat["delimiter"].is_string() ? heat["delimiter"].get<std::string>() : "";
  std::string html = "<form id=\"bucket-form\" method=\"get\" action=\"/table/" + UrlEncode(table) +
                     "\">Bucket rows by their first <select name=\"prefix_bytes\">";
  for (int n = 1; n <= kPrefixBytes; ++n) {
    html += "<option value=\"" + std::to_string(n) + "\"" + (n == bytes ? " selected" : "") + ">" +
            std::to_string(n) + "</option>";
  }
  html += "</select> byte(s), or up to a salt delimiter <input name=\"delimiter\" size=\"2\" maxlength=\"1\" value=\"" +
          E(delimiter.size() == 1 ? delimiter : "") + "\"> (within the first " +
          std::to_string(kPrefixBytes) + " bytes) <button>Show</button></form>";
  return html;
}

std::string FamiliesTable(const json& table) {
  const json& families = table["families"];
  std::string html = "<table class=\"families\"><tr><th>family</th><th>properties</th></tr>";
  for (const json& f : families) {
    std::string props;
    for (auto it = f.begin(); it != f.end(); ++it) {
      if (it.key() == "name") continue;
      props += "<code>" + E(it.key()) + " =&gt; " + E(it.value().is_string() ? it.value().get<std::string>() : it.value().dump()) + "</code>, ";
    }
    html += "<tr><td class=\"mono\">" + E(f["name"]) + "</td><td>" + props + "</td></tr>";
  }
  html += "</table>";
  const size_t count = table.value("family_count", families.size());
  if (count > families.size()) {
    html += "<p class=\"muted\">" + std::to_string(families.size()) + " of " + std::to_string(count) +
            " families shown (page size limit).</p>";
  }
  return html;
}

std::string RegionsTable(const json& table) {
  const json& regions = table["regions"];
  std::string html = "<table class=\"regions\"><tr><th>#</th><th>start key</th><th>end key</th></tr>";
  for (const json& r : regions) {
    html += "<tr class=\"region\">" + Td(r["index"].dump(), true) + "<td class=\"mono\">" + E(r["start"]) +
            "</td><td class=\"mono\">" + E(r["end"]) + "</td></tr>";
  }
  html += "</table>";
  const size_t count = table.value("region_count", regions.size());
  if (count > regions.size()) {
    html += "<p class=\"muted\">" + std::to_string(regions.size()) + " of " + std::to_string(count) +
            " regions shown (page size limit).</p>";
  }
  return html;
}

}  // namespace

std::string E(const std::string& s) { return HtmlEscape(s); }
std::string E(const json& j) {
  if (j.is_string()) return HtmlEscape(j.get<std::string>());
  if (j.is_null()) return "";
  return HtmlEscape(j.dump());
}

std::string Td(const std::string& html, bool num) {
  return std::string(num ? "<td class=\"num\">" : "<td>") + html + "</td>";
}

std::string Page(const std::string& title, const std::string& body, const Nav& nav) {
  std::string links = "<a href=\"/\">Overview</a><a href=\"/tables\">Tables</a>";
  if (nav.test_controls) {
    links += "<a href=\"/calls\">Calls</a><a href=\"/errors\">Errors</a><a href=\"/clock\">Clock</a>"
             "<a href=\"/faults\">Faults</a><a href=\"/snapshots\">Snapshots</a>";
  }
  links += "<a href=\"/config\">Configuration</a><a href=\"/metrics\">Metrics</a>";
  return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + E(title) +
         " - hbase-emulator</title><style>" + kStyle +
         "</style></head><body><header><b>hbase-emulator</b><nav id=\"nav\">" + links +
         "</nav></header><main>" + body + "</main></body></html>\n";
}

std::string RenderOverviewPage(const json& o, const Nav& nav) {
  std::string b = "<h1>Overview</h1><table id=\"summary\">";
  b += "<tr><th>version</th><td id=\"version\">" + E(o["version"]) + "</td></tr>";
  b += "<tr><th>up since</th><td>" + E(o["started"]) + " (<span id=\"uptime\" data-seconds=\"" +
       o["uptime_seconds"].dump() + "\">" + HumanSeconds(o["uptime_seconds"].get<double>()) +
       "</span>)</td></tr>";
  b += "<tr><th>data</th><td id=\"storage\" class=\"mono\">" + E(o["storage"]) + "</td></tr>";
  b += "<tr><th>store size</th><td>" + Bytes(o["store_table_file_bytes"].get<uint64_t>()) +
       " in table files";
  if (o.contains("store_disk_bytes")) b += ", " + Bytes(o["store_disk_bytes"].get<uint64_t>()) + " on disk";
  if (o.contains("store_memory_bytes")) b += ", " + Bytes(o["store_memory_bytes"].get<uint64_t>()) + " in memory";
  b += "</td></tr>";
  b += "<tr><th>open scanners</th><td id=\"scanners-open\" data-count=\"" + o["scanners_open"].dump() +
       "\">" + Count(o["scanners_open"]) + "</td></tr>";
  b += "<tr><th>calls / errors</th><td><span id=\"calls\" data-count=\"" + o["calls"].dump() + "\">" +
       Count(o["calls"]) + "</span> / <span id=\"errors\" data-count=\"" + o["errors"].dump() + "\">" +
       Count(o["errors"]) + "</span></td></tr>";
  const json& process = o["process"];
  b += "<tr><th>process</th><td id=\"process\" data-cpu-seconds=\"" + process["cpu_seconds"].dump() +
       "\">" + Bytes(process["resident_bytes"].get<uint64_t>()) + " resident, " +
       HumanSeconds(process["cpu_seconds"].get<double>()) + " CPU, " + Count(process["threads"]) +
       " threads, " + Count(process["open_fds"]) + " open files</td></tr>";
  b += "</table><h2>Ports</h2><table id=\"ports\"><tr><th>service</th><th>address</th><th>insists on</th>"
       "<th>connections by mode</th><th>bytes in / out</th><th>scanners open / expired</th></tr>";
  const std::string host = o["bind_address"].get<std::string>();
  const std::string admin_host = o.value("admin_bind_address", host);
  for (const json& s : o["services"]) {
    std::string conns;
    for (auto it = s["connections"].begin(); it != s["connections"].end(); ++it) {
      if (it.value().get<int64_t>() != 0) conns += E(it.key()) + ": " + Count(it.value()) + " ";
    }
    b += "<tr class=\"service\">" + Td(E(s["name"])) +
         Td("<code>" + E(HostPort(host, s["port"].get<uint16_t>())) + "</code>") +
         Td(E(s["modes"])) + Td(conns.empty() ? "none" : conns) +
         Td(Bytes(s.value("bytes_in", json(0)).get<uint64_t>()) + " / " +
                Bytes(s.value("bytes_out", json(0)).get<uint64_t>()), true) +
         Td(Count(s.value("scanners_open", json(0))) + " / " + Count(s.value("scanners_expired", json(0))), true) +
         "</tr>";
  }
  b += "<tr>" + Td("admin") + Td("<code>" + E(HostPort(admin_host, o["admin_port"].get<uint16_t>())) + "</code>") +
       Td("HTTP") + Td("") + Td("") + Td("") + "</tr></table>";
  b += "<h2>Calls by method</h2><table id=\"methods\"><tr><th>service</th><th>method</th><th>ok</th>"
       "<th>errors</th><th>calls/s (last 20 s)</th></tr>";
  for (const json& m : o["methods"]) {
    char rate[32];
    std::snprintf(rate, sizeof(rate), "%.1f", m["per_second"].get<double>());
    b += "<tr class=\"method\">" + Td(E(m["service"])) + Td("<code>" + E(m["method"]) + "</code>") +
         Td(Count(m["ok"]), true) + Td(Count(m["errors"]), true) + Td(rate, true) + "</tr>";
  }
  b += "</table>";
  return Page("Overview", b, nav);
}

std::string RenderNamespaceEntry(const json& ns) {
  std::string config;
  for (auto it = ns["configuration"].begin(); it != ns["configuration"].end(); ++it) {
    config += " " + E(it.key()) + "=" + E(it.value());
  }
  return "<code class=\"namespace\">" + E(ns["name"]) + (config.empty() ? "" : " {" + config + " }") +
         "</code> ";
}

namespace {

// A stored count; "&ge; N" when counting stopped there, a note when not counted yet.
std::string StoredCount(const json& table, const char* key) {
  if (!table.contains(key)) return "<span class=\"muted\">not counted yet</span>";
  const bool complete = table.value("counts_complete", true);
  return (complete ? "" : "&ge; ") + Count(table[key]);
}

}  // namespace

std::string RenderTableListRow(const json& table) {
  const std::string name = table["name"].get<std::string>();
  std::string families;
  for (const json& f : table["families"]) families += "<code>" + E(f["name"]) + "</code> ";
  if (table.value("family_count", table["families"].size()) > table["families"].size()) {
    families += "&hellip;";
  }
  return "<tr class=\"table\" data-name=\"" + E(name) + "\"><td><a href=\"/table/" + UrlEncode(name) +
         "\">" + E(name) + "</a></td>" + Td(table["enabled"].get<bool>() ? "enabled" : "disabled") +
         Td(families) + Td(table.value("region_count", json(table["regions"].size())).dump(), true) +
         Td(StoredCount(table, "stored_rows"), true) + Td(StoredCount(table, "stored_cells"), true) +
         Td(Bytes(table.value("approximate_bytes", json(0)).get<uint64_t>()), true) + "</tr>";
}

std::string RenderTableSection(const json& table) {
  return "<h2>" + E(table["name"]) + "</h2>" + FamiliesTable(table) + RegionsTable(table);
}

std::string RenderTablesPage(const json& t, const Nav& nav) {
  std::string b = "<h1>Namespaces and tables</h1><p>Namespaces: ";
  for (const json& ns : t["namespaces"]) b += RenderNamespaceEntry(ns);
  b += "</p><table id=\"tables\"><tr><th>table</th><th>state</th><th>families</th><th>regions</th>"
       "<th>stored rows</th><th>stored cells</th><th>approx. bytes</th></tr>";
  for (const json& table : t["tables"]) b += RenderTableListRow(table);
  b += "</table>";
  if (t.contains("ended_by")) {
    b += "<p id=\"page-ended\">This page shows " + std::to_string(t["tables"].size()) + " of " +
         t["table_count"].dump() + " tables and " + std::to_string(t["namespaces"].size()) + " of " +
         t["namespace_count"].dump() + " namespaces: the rest would pass the page size limit (" +
         E(t["ended_by"]) + ").</p>";
  }
  b += "<p class=\"muted\">Stored rows and cells count what LevelDB holds (every version "
       "and delete marker not yet compacted away); counting is bounded per request "
       "(admin_count_cells) and remembered while a table is unchanged.</p>";
  for (const json& table : t["tables"]) b += RenderTableSection(table);
  return Page("Tables", b, nav);
}

std::string RenderTablePage(const json& t, const Nav& nav) {
  const std::string name = t["name"].get<std::string>();
  const json& heat = t["heat"];
  const json& spread = heat["spread"];
  const std::string kind = spread["kind"].get<std::string>();
  std::string b = "<h1 id=\"table-name\">" + E(name) + "</h1>";
  const std::string region_count = t.value("region_count", json(t["regions"].size())).dump();
  b += "<p>" + std::string(t["enabled"].get<bool>() ? "enabled" : "disabled") + " &middot; created " +
       E(t["created"]) + " &middot; <span id=\"region-count\" data-count=\"" + region_count + "\">" +
       region_count + " region(s)</span> &middot; " + StoredCount(t, "stored_rows") + " stored rows, " +
       StoredCount(t, "stored_cells") + " stored cells &middot; <a href=\"/browse/" +
       UrlEncode(name) + "\">browse data</a></p>";
  b += "<p>Rows read by calls: <b id=\"rows-read\" data-count=\"" + t["rows_read"].dump() + "\">" +
       Count(t["rows_read"]) + "</b>, written: <b id=\"rows-written\" data-count=\"" +
       t["rows_written"].dump() + "\">" + Count(t["rows_written"]) + "</b></p>";
  b += "<h2>Row-key heat map</h2><p>Key spread: <span id=\"spread\" class=\"tag " + E(kind) +
       "\" data-spread=\"" + E(kind) + "\">" + E(kind) + "</span> ";
  if (kind != "idle") {
    char share[32];
    std::snprintf(share, sizeof(share), "%.0f%%", 100 * spread["hottest_share"].get<double>());
    b += "<span class=\"muted\">" + spread["buckets_used"].dump() + " prefix bucket(s) used; the busiest, <code>" +
         E(spread["hottest_bucket"]) + "</code>, has " + share + " of the operations" +
         (spread["by_first_byte"].get<bool>() ? " (judged by first byte: the table has more distinct prefixes than are tracked)" : "") +
         "</span>";
  }
  b += "</p>" + BucketForm(name, heat);
  b += "<p class=\"muted\">Columns are " + heat["window_seconds"].dump() +
       "-second windows, oldest first; a cell counts reads and writes. A monotonic key (a counter "
       "or timestamp in front) shows as one hot row; a salted or hashed key as an even band. "
       "Longer prefixes are grouped from the first " + std::to_string(kPrefixBytes) +
       " bytes of each row, for the first " + heat["max_tracked_prefixes"].dump() +
       " distinct ones the table sees";
  if (heat["prefixes_full"].get<bool>()) {
    b += " (reached: rows with other prefixes are shown under their first byte, as <code>x&hellip;</code>)";
  }
  b += ".</p>";
  b += "<h2>By region</h2><table id=\"heat-regions\" class=\"heat\">" + HeatHeader(heat) +
       HeatRows(heat["regions"], "region", "heat-region") + "</table>";
  b += "<h2>By key prefix</h2><table id=\"heat-buckets\" class=\"heat\" data-buckets=\"" +
       std::to_string(heat["buckets"].size()) + "\" data-prefix-bytes=\"" + heat["prefix_bytes"].dump() + "\">" + HeatHeader(heat) +
       HeatRows(heat["buckets"], "bucket", "heat-bucket") + "</table>";
  std::string attributes;
  for (auto it = t["attributes"].begin(); it != t["attributes"].end(); ++it) {
    attributes += "<code>" + E(it.key()) + " =&gt; " + E(it.value()) + "</code>, ";
  }
  b += "<p>Durability <code>" + E(t["durability"]) + "</code>" +
       (attributes.empty() ? "" : "; attributes " + attributes) + "</p>";
  b += "<h2>Families</h2>" + FamiliesTable(t);
  b += "<h2>Regions</h2>" + RegionsTable(t);
  return Page(name, b, nav);
}

std::string RenderBrowseCell(const json& row, const json& c, bool first, const std::string& format) {
  std::string value;
  if (c.contains("text")) {
    if (format == "hex") {
      value = E(c["hex"]);
    } else if (format == "long") {
      value = c["long"].is_null() ? "<span class=\"muted\">(not 8 bytes)</span>" : c["long"].dump();
    } else {
      value = E(c["text"]);
    }
    if (c.value("truncated", false)) {
      value += "<span class=\"muted cut\">&hellip; (" + c["length"].dump() + " bytes)</span>";
    }
  }
  std::string key = E(row["key"]);
  if (row.value("key_length", json(0)).get<size_t>() * 2 > row["key_bytes"].get<std::string>().size()) {
    key += "&hellip;";
  }
  std::string qualifier = E(c["qualifier"]);
  if (c.contains("qualifier_length")) qualifier += "&hellip;";
  return "<tr class=\"cell\" data-row=\"" + E(row["key"]) + "\" data-type=\"" + E(c["type"]) + "\">" +
         "<td class=\"mono row-key\">" + (first ? key : "") + "</td><td class=\"mono\">" +
         E(c["family"]) + ":" + qualifier + "</td>" + Td(c["timestamp"].dump(), true) +
         "<td class=\"mono\">" + E(c["date"]) + "</td>" + Td(E(c["type"])) +
         "<td class=\"mono value\">" + value + "</td></tr>";
}

std::string RenderBrowsePage(const json& r, const std::string& format, const Nav& nav) {
  const std::string name = r["table"].get<std::string>();
  std::string b = "<h1>Browse <a href=\"/table/" + UrlEncode(name) + "\">" + E(name) + "</a></h1>";
  b += "<form method=\"get\" action=\"/browse/" + UrlEncode(name) + "\">start row <input name=\"start\" value=\"" +
       E(r["start"]) + "\"> prefix <input name=\"prefix\" value=\"" + E(r["prefix"]) +
       "\"> rows <input name=\"limit\" size=\"4\" value=\"" + r["limit"].dump() +
       "\"> values as <select name=\"format\">";
  for (const char* f : {"text", "hex", "long"}) {
    b += std::string("<option") + (format == f ? " selected" : "") + ">" + f + "</option>";
  }
  b += "</select> <label><input type=\"checkbox\" name=\"markers\" value=\"1\"" +
       std::string(r["markers"].get<bool>() ? " checked" : "") +
       "> delete markers</label> <button>Scan</button></form>";
  b += "<table id=\"cells\"><tr><th>row</th><th>family:qualifier</th><th>timestamp</th><th>UTC</th>"
       "<th>type</th><th>value (" + E(format) + ")</th></tr>";
  for (const json& row : r["rows"]) {
    bool first = true;
    for (const json& c : row["cells"]) {
      b += RenderBrowseCell(row, c, first, format);
      first = false;
    }
  }
  b += "</table>";
  if (r.contains("next_cursor")) {
    const std::string by = r["ended_by"].get<std::string>();
    if (by != "limit") {
      b += "<p id=\"page-ended\" class=\"muted\">The page ended early (" + E(by) + ")" +
           (r["row_continues"].get<bool>() ? ", inside a row: the next page goes on with its next cell" : "") +
           ".</p>";
    }
    // The cursor says where to go on; start and prefix stay for the form. A request line must
    // fit the console's 16 KiB header limit (http_server.h).
    const std::string& cursor = r["next_cursor"].get_ref<const std::string&>();
    if (cursor.size() > (8 << 10)) {
      b += "<p id=\"no-next-page\">More cells follow, from a key too long to carry in a link.</p>";
      return Page("Browse " + name, b, nav);
    }
    b += "<p><a id=\"next-page\" href=\"/browse/" + UrlEncode(name) + "?cursor=" +
         UrlEncode(r["next_cursor"].get<std::string>()) + "&start=" +
         UrlEncode(r["start"].get<std::string>()) + "&prefix=" + UrlEncode(r["prefix"].get<std::string>()) +
         "&limit=" + r["limit"].dump() + "&format=" + UrlEncode(format) +
         (r["markers"].get<bool>() ? "&markers=1" : "") + "\">next page &rarr;</a></p>";
  }
  return Page("Browse " + name, b, nav);
}

std::string RenderConfigPage(const json& c, const Nav& nav) {
  std::string b = "<h1>Configuration</h1><table id=\"build\">";
  for (const json& line : c.value("version", json::array())) b += "<tr><td>" + E(line) + "</td></tr>";
  b += "</table><h2>Command line</h2><p><code id=\"command-line\">hbase-emulator";
  for (const json& arg : c.value("command_line", json::array())) b += " " + E(arg);
  b += "</code></p><table id=\"settings\"><tr><th>data</th><td class=\"mono\">" + E(c.value("data", json(""))) +
       "</td></tr><tr><th>test controls</th><td id=\"test-controls\">" +
       (c.value("test_controls", false) ? "on" : "off") + "</td></tr>";
  for (const json& s : c.value("settings", json::array())) {
    b += "<tr class=\"setting\"><th><code>" + E(s["flag"]) + "</code></th><td>" +
         (s["value"].is_number() ? Count(s["value"]) : E(s["value"])) +
         (s["flag"].get<std::string>().size() > 3 &&
                  s["flag"].get<std::string>().compare(s["flag"].get<std::string>().size() - 3, 3, "-ms") == 0
              ? " ms"
              : "") +
         (s.contains("note") ? " <span class=\"muted\">(" + E(s["note"]) + ")</span>" : "") + "</td></tr>";
  }
  for (const json& script : c.value("init_scripts", json::array())) {
    b += "<tr><th><code>--init</code></th><td class=\"mono\">" + E(script) + "</td></tr>";
  }
  b += "</table>";
  const json warnings = c.value("warnings", json::array());
  if (!warnings.empty()) {
    b += "<h2>Start-up warnings</h2><ul>";
    for (const json& w : warnings) b += "<li>" + E(w) + "</li>";
    b += "</ul>";
  }
  b += "<h2>Ports and doors</h2><table id=\"doors\"><tr><th>door</th><th>address</th><th>serves</th>"
       "<th>speaks</th></tr>";
  for (const json& d : c.value("doors", json::array())) {
    b += "<tr class=\"door\" data-name=\"" + E(d["name"]) + "\">" + Td(E(d["name"])) +
         Td("<code>" + E(d["address"]) + "</code>") + Td(E(d["serves"])) + Td(E(d["speaks"])) + "</tr>";
  }
  b += "</table><h2>Limits</h2><p class=\"muted\">Changed with <code>--limit NAME=VALUE</code>; "
       "<code>hbase-emulator --limits</code> says what a client gets past each.</p>"
       "<table id=\"limits\"><tr><th>name</th><th>value</th><th>default</th><th>bounds</th></tr>";
  for (const json& l : c.value("limits", json::array())) {
    const bool bytes = l.value("unit", "") == "bytes";
    const bool ms = l.value("unit", "") == "ms";
    auto shown = [&](const json& v) {
      const uint64_t n = v.get<uint64_t>();
      if (bytes) return HumanBytes(n);
      if (ms) return HumanSeconds(static_cast<double>(n) / 1000);
      return HumanCount(n);
    };
    const bool changed = l["value"] != l["default"];
    b += "<tr class=\"limit" + std::string(changed ? " changed" : "") + "\" data-name=\"" + E(l["name"]) +
         "\" data-value=\"" + l["value"].dump() + "\">" + Td("<code>" + E(l["name"]) + "</code>") +
         Td((changed ? "<b>" : "") + shown(l["value"]) + (changed ? "</b>" : ""), true) +
         Td(shown(l["default"]), true) + Td(E(l["meaning"])) + "</tr>";
  }
  b += "</table>";
  return Page("Configuration", b, nav);
}

std::string RenderErrorPage(int status, const std::string& message, const Nav& nav) {
  return Page(std::to_string(status),
              "<h1 id=\"error\">" + std::to_string(status) + "</h1><p id=\"error-message\">" +
                  E(message) + "</p>",
              nav);
}

}  // namespace hbemu::server::admin
