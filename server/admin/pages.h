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

}  // namespace hbemu::server::admin
