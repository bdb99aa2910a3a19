#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "shell/connection.h"

namespace hbemu::shell {

// Runs HBase shell script files, in order, against the gateways in `options` (the server's own
// --init). Tables and namespaces that already exist are kept (see Shell::set_keep_existing), so
// a script can run again over a data folder it filled before. Output goes to `log`. Returns
// false at the first failing command with "file: ERROR: ..." in *error.
bool RunInitScripts(const std::vector<std::string>& files, const ConnectionOptions& options,
                    std::ostream& log, std::string* error);

}  // namespace hbemu::shell
