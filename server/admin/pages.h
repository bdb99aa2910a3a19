#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hbemu::server::admin {

// HTML pages rendered from the console's JSON documents (console.h), so a page shows exactly
// what its /api/ twin returns. Styles are inline: nothing is fetched from anywhere.
std::string RenderOverviewPage(const nlohmann::json& overview);
std::string RenderTablesPage(const nlohmann::json& tables);
std::string RenderTablePage(const nlohmann::json& table);
// `format`: "text", "hex" or "long" (how values are shown).
std::string RenderBrowsePage(const nlohmann::json& rows, const std::string& format);
std::string RenderErrorPage(int status, const std::string& message);
// The test controls' call log: {"calls": [call...], "faults": {"rules": [...], ...}}.
std::string RenderCallsPage(const nlohmann::json& calls, bool errors_only);

// Parts of the pages, also used to measure what an entry adds to its page (Console's Measure).
// One table of /tables: its line in the list and its section below.
std::string RenderTableListRow(const nlohmann::json& table);
std::string RenderTableSection(const nlohmann::json& table);
std::string RenderNamespaceEntry(const nlohmann::json& ns);
// One cell of the browser (`row` without its cells; `first`: the row's first cell shown).
std::string RenderBrowseCell(const nlohmann::json& row, const nlohmann::json& cell, bool first,
                             const std::string& format);

}  // namespace hbemu::server::admin
