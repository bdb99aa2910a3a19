#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/options.h"

namespace hbemu::server::admin {

// The part of the console's configuration page (/config, /api/config) that only main knows: the
// command line as given, the settings it made, the version text. The console adds what it
// knows itself: the ports as bound, the limits in force, whether the test controls are on.
nlohmann::json ConfigurationJson(const ServerOptions& options, const std::vector<std::string>& args,
                                 const std::string& version_text);

}  // namespace hbemu::server::admin
