#include "shell/init_scripts.h"

#include <fstream>
#include <sstream>

#include "shell/shell.h"

namespace hbemu::shell {
namespace {

// A script re-run over kept data repeats every command: these change data each time (a counter
// counts again, a put without a timestamp adds a version). Said once per script, at start.
void WarnNonIdempotent(const std::string& file, const std::string& text, std::ostream& log) {
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  std::string found;
  while (std::getline(lines, line)) {
    ++number;
    Command command;
    std::string error;
    if (!ParseCommand(line, &command, &error)) continue;  // blank, comment or continued
    bool changes = command.name == "incr" || command.name == "append" ||
                   (command.name == "put" &&
                    (command.args.size() < 5 || !command.args[4].IsInt()));
    if (changes) found += (found.empty() ? "" : ", ") + std::to_string(number) + " (" + command.name + ")";
  }
  if (!found.empty()) {
    log << "Note: " << file << " lines " << found
        << " change data each time the script runs over kept data (--data-dir)\n";
  }
}

}  // namespace

bool RunInitScripts(const std::vector<std::string>& files, const ConnectionOptions& options,
                    std::ostream& log, std::string* error) {
  Connection connection(options);
  for (const auto& file : files) {
    std::ifstream in(file);
    if (!in) {
      *error = file + ": cannot read the file";
      return false;
    }
    std::stringstream script;
    script << in.rdbuf();
    WarnNonIdempotent(file, script.str(), log);
    std::ostringstream errors;
    Shell shell(&connection, log, errors, /*interactive=*/false);
    shell.set_keep_existing(true);
    shell.set_echo(true);  // the log shows each command before its output
    if (shell.RunScript(script) != 0) {
      std::string text = errors.str();
      while (!text.empty() && text.back() == '\n') text.pop_back();
      *error = file + ":" + std::to_string(shell.failed_line()) + ": " + text;
      return false;
    }
  }
  return true;
}

}  // namespace hbemu::shell
