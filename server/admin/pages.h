#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hbemu::server::admin {

// HTML pages rendered from the console's JSON documents (console.h), so a page shows exactly
// what its /api/ (or /control/) twin returns. Styles are inline: nothing is fetched from
// anywhere. Numbers are shown for people (format.h); data- attributes keep the exact values.

// What every page's navigation shows.
struct Nav {
  bool test_controls = false;  // the calls, errors, clock, faults and snapshots pages
};

std::string RenderOverviewPage(const nlohmann::json& overview, const Nav& nav = Nav());
std::string RenderTablesPage(const nlohmann::json& tables, const Nav& nav = Nav());
std::string RenderTablePage(const nlohmann::json& table, const Nav& nav = Nav());
// `format`: "text", "hex" or "long" (how values are shown).
std::string RenderBrowsePage(const nlohmann::json& rows, const std::string& format,
                             const Nav& nav = Nav());
std::string RenderErrorPage(int status, const std::string& message, const Nav& nav = Nav());
// /config: Console::Configuration().
std::string RenderConfigPage(const nlohmann::json& configuration, const Nav& nav = Nav());

// The test controls' pages (control_pages.cc).
// What /calls was asked to show.
struct CallFilter {
  std::string table;
  std::string method;
  bool errors_only = false;
  bool errors_page = false;  // /errors rather than /calls?errors=1
};
// `log`: GET /control/calls's answer for `filter`; `faults`: GET /control/faults's.
std::string RenderCallsPage(const nlohmann::json& log, const nlohmann::json& faults,
                            const CallFilter& filter, const Nav& nav = Nav());
std::string RenderClockPage(const nlohmann::json& clock, const Nav& nav = Nav());
std::string RenderFaultsPage(const nlohmann::json& faults, const Nav& nav = Nav());
std::string RenderSnapshotsPage(const nlohmann::json& snapshots, const Nav& nav = Nav());

// Shared by the page files: the whole page around `body`, HTML-escaped text (a JSON string
// without its quotes, any other JSON value as its text), a table cell.
std::string Page(const std::string& title, const std::string& body, const Nav& nav);
std::string E(const std::string& text);
std::string E(const nlohmann::json& value);
std::string Td(const std::string& html, bool num = false);

// Parts of the pages, also used to measure what an entry adds to its page (Console's Measure).
// One table of /tables: its line in the list and its section below.
std::string RenderTableListRow(const nlohmann::json& table);
std::string RenderTableSection(const nlohmann::json& table);
std::string RenderNamespaceEntry(const nlohmann::json& ns);
// One cell of the browser (`row` without its cells; `first`: the row's first cell shown).
std::string RenderBrowseCell(const nlohmann::json& row, const nlohmann::json& cell, bool first,
                             const std::string& format);

}  // namespace hbemu::server::admin
