#include "shell/init_scripts.h"

#include <fstream>
#include <sstream>

#include "shell/shell.h"

namespace hbemu::shell {

bool RunInitScripts(const std::vector<std::string>& files, const ConnectionOptions& options,
                    std::ostream& log, std::string* error) {
  Connection connection(options);
  for (const auto& file : files) {
    std::ifstream in(file);
    if (!in) {
      *error = file + ": cannot read the file";
      return false;
    }
    std::ostringstream errors;
    Shell shell(&connection, log, errors, /*interactive=*/false);
    shell.set_keep_existing(true);
    if (shell.RunScript(in) != 0) {
      std::string text = errors.str();
      while (!text.empty() && text.back() == '\n') text.pop_back();
      *error = file + ": " + text;
      return false;
    }
  }
  return true;
}

}  // namespace hbemu::shell
