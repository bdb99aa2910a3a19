// hbase-shell: HBase's shell commands (create, put, scan, ...) over HBase's Thrift gateways,
// without Java. Interactive with line editing and history (libedit), or non-interactive from
// -e or a script file, stopping with a non-zero status at the first error, or from stdin as
// `hbase shell < file` (errors printed, the script going on) or `hbase shell -n` (stopping).

#include <editline/readline.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <thrift/TOutput.h>

#include "shell/cell_format.h"
#include "shell/interrupt.h"
#include "shell/shell.h"
#include "shell/version.h"

using namespace hbemu::shell;

namespace {

const char kUsage[] =
    "usage: hbase-shell [options] [script-file]\n"
    "  --host HOST           Thrift gateway host (default 127.0.0.1)\n"
    "  --port N, -p N        Thrift1 (Hbase service) port (default 9090)\n"
    "  --thrift2-port N      Thrift2 (THBaseService) port (default 9091)\n"
    "  --admin-port N        hbase-emulator's admin port, for its test controls (default 9095)\n"
    "  --framed              framed transport (default buffered, as HBase's default)\n"
    "  --compact             compact protocol (default binary)\n"
    "  --timeout-ms N        socket timeout (default 60000)\n"
    "  -e, --execute CMD     run CMD (repeatable) and exit; non-zero status on the first error\n"
    "  -n, --non-interactive read commands from stdin even when it is a terminal, and stop\n"
    "                        with status 1 at the first error (HBase's -n)\n"
    "  --transcript          run the script file as `hbase shell FILE` does: echo each\n"
    "                        command after the prompt, print errors and go on\n"
    "  -D KEY=VALUE          a setting, as HBase's shell takes it; known:\n"
    "                        hbase.shell.timestamp.format.epoch=true (epoch millis)\n"
    "  --version             print the version, the commit built from and library versions\n"
    "  -h, --help            this text\n"
    "Without -e or a script file, commands are read from stdin: interactively with line\n"
    "editing and history (~/.hbase_shell_history) on a terminal; otherwise as\n"
    "`hbase shell < file` runs them: each echoed after the prompt, errors printed and the\n"
    "script going on (status 0); with -n the first error stops it (status 1).\n";

bool ParsePort(const std::string& text, int* port) {
  try {
    size_t used = 0;
    int v = std::stoi(text, &used);
    if (used != text.size() || v < 1 || v > 65535) return false;
    *port = v;
    return true;
  } catch (...) {
    return false;
  }
}

std::string HistoryPath() {
  const char* home = std::getenv("HOME");
  return home ? std::string(home) + "/.hbase_shell_history" : std::string();
}

// Which server the session talks to: a shell that can `reset` must not leave that in doubt.
std::string ServerLine(Connection& connection) {
  const ConnectionOptions& o = connection.options();
  std::string where = o.host + " (Thrift1 " + std::to_string(o.port) + ", Thrift2 " +
                      std::to_string(o.thrift2_port) + ")";
  try {
    return "Server: " + where +
           (connection.IsEmulator() ? ", hbase-emulator" : ", not hbase-emulator (a real HBase)");
  } catch (const std::exception& e) {
    return "Server: " + where + ", not reachable now: " + e.what();
  }
}

std::string Banner(Connection& connection) {
  return std::string("HBase Shell (hbase-emulator ") + kShellVersion + ")\n" +
         ServerLine(connection) + "\n" + "Type \"help\" for the commands, \"exit\" to leave.\n";
}

// Ctrl-C at the prompt drops the line being typed (irb's behaviour) instead of ending the shell;
// while a command runs it stops a scan or count (interrupt.h).
void OnInterrupt(int) { RequestInterrupt(); }

// libthrift prints its own diagnostics ("TSocket::open() connect() <Host: ...>: Connection
// refused") to stderr before it throws; the exception carries the same news and the shell
// reports it in its own words, so the library's lines are dropped.
void DropThriftOutput(const char*) {}

// libedit reads the next key again when a signal interrupts its read, so a Ctrl-C that came
// while it was between two reads waited for another key. This read gives up once the flag is
// set (checked at least every 100 ms), and readline returns at once.
int ReadKey(FILE*) {
  for (;;) {
    if (InterruptRequested()) return EOF;
    pollfd terminal{STDIN_FILENO, POLLIN, 0};
    const int ready = poll(&terminal, 1, 100);
    if (ready < 0 && errno != EINTR) return EOF;
    if (ready <= 0) continue;
    unsigned char key;
    const ssize_t n = read(STDIN_FILENO, &key, 1);
    if (n == 1) return key;
    if (n == 0 || errno != EINTR) return EOF;
  }
}

// Tab completion: command names at the start of the line, table names elsewhere.
Shell* g_shell = nullptr;
Connection* g_connection = nullptr;
std::vector<std::string> g_candidates;
std::string g_quote;  // wrapped around each candidate: "'" when the word has no quote yet

char* NextCandidate(const char* text, int state) {
  static size_t index;
  if (state == 0) index = 0;
  size_t length = std::strlen(text);
  while (index < g_candidates.size()) {
    const std::string& c = g_candidates[index++];
    if (c.compare(0, length, text) == 0) return strdup((g_quote + c + g_quote).c_str());
  }
  return nullptr;
}

char** Complete(const char* text, int start, int) {
  g_candidates.clear();
  g_quote.clear();
  std::string before(rl_line_buffer, start);
  rl_completion_append_character = ' ';
  if (before.find_first_not_of(" \t") == std::string::npos) {
    g_candidates = g_shell->CommandNames();
  } else {
    // A table name is a Ruby string: after an opening quote the completion closes it
    // (get 'my -> get 'mytable'), a bare word becomes a quoted one (get my -> get 'mytable').
    const char opened = before.empty() ? '\0' : before.back();
    if (opened == '\'' || opened == '"') {
      rl_completion_append_character = opened;
    } else {
      rl_completion_append_character = '\0';
      g_quote = "'";
    }
    try {
      g_connection->Thrift1().getTableNames(g_candidates);
    } catch (const std::exception&) {
      // no server, no table names: nothing to offer
    }
  }
  rl_attempted_completion_over = 1;  // never fall back to file names
  return rl_completion_matches(text, NextCandidate);
}

int Interactive(Shell& shell, Connection& connection) {
  // Set before libedit initialises (using_history does), which is when it reads it. libedit's
  // own signal handlers stay: they keep the terminal right across Ctrl-Z and resizes, and pass
  // SIGINT on to OnInterrupt.
  rl_getc_function = ReadKey;
  std::string history = HistoryPath();
  using_history();
  g_shell = &shell;
  g_connection = &connection;
  rl_attempted_completion_function = Complete;
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: a Ctrl-C must not fail the write or Thrift read a running command is in (it
  // stops the command between rows instead); ReadKey polls the flag, so readline still returns.
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  if (!history.empty()) read_history(history.c_str());
  std::cout << Banner(connection);
  int line_number = 1;
  std::string pending;
  while (!shell.exit_requested()) {
    const std::string prompt = IrbPrompt(line_number, pending);
    ClearInterrupt();
    char* raw = readline(prompt.c_str());
    if (InterruptRequested()) {  // Ctrl-C: drop the line (and a command still open), prompt again
      std::free(raw);
      std::cout << "^C\n";
      pending.clear();
      continue;
    }
    if (raw == nullptr) {  // Ctrl-D
      std::cout << "\n";
      break;
    }
    std::string line(raw);
    std::free(raw);
    ++line_number;
    pending += pending.empty() ? line : "\n" + line;
    if (NeedsMoreInput(pending)) continue;
    if (pending.find_first_not_of(" \t") != std::string::npos) add_history(pending.c_str());
    std::string text;
    text.swap(pending);
    shell.set_command_line(line_number - 1 - static_cast<int>(std::count(text.begin(), text.end(), '\n')));
    shell.Execute(text);
  }
  if (!history.empty()) write_history(history.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ConnectionOptions options;
  std::vector<std::string> commands;
  std::string script;
  bool force_script = false;
  bool transcript = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* flag) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "hbase-shell: " << flag << " needs a value\n" << kUsage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--version") {
      std::cout << hbemu::VersionText("hbase-shell");
      return 0;
    } else if (arg == "--host") {
      options.host = value("--host");
    } else if (arg == "--port" || arg == "-p") {
      if (!ParsePort(value("--port"), &options.port)) {
        std::cerr << "hbase-shell: bad --port\n";
        return 2;
      }
    } else if (arg == "--thrift2-port") {
      if (!ParsePort(value("--thrift2-port"), &options.thrift2_port)) {
        std::cerr << "hbase-shell: bad --thrift2-port\n";
        return 2;
      }
    } else if (arg == "--admin-port") {
      if (!ParsePort(value("--admin-port"), &options.admin_port)) {
        std::cerr << "hbase-shell: bad --admin-port\n";
        return 2;
      }
    } else if (arg == "--framed") {
      options.framed = true;
    } else if (arg == "--compact") {
      options.compact = true;
    } else if (arg == "--timeout-ms") {
      options.timeout_ms = std::atoi(value("--timeout-ms").c_str());
    } else if (arg == "-e" || arg == "--execute") {
      commands.push_back(value("-e"));
    } else if (arg == "--transcript") {
      transcript = true;
    } else if (arg == "-D" || (arg.rfind("-D", 0) == 0 && arg.size() > 2)) {
      std::string setting = arg == "-D" ? value("-D") : arg.substr(2);
      size_t eq = setting.find('=');
      std::string key = setting.substr(0, eq);
      std::string val = eq == std::string::npos ? "" : setting.substr(eq + 1);
      if (key == "hbase.shell.timestamp.format.epoch") SetTimestampFormatEpoch(val == "true");
    } else if (arg == "-n" || arg == "--non-interactive") {
      force_script = true;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "hbase-shell: unknown option " << arg << "\n" << kUsage;
      return 2;
    } else if (script.empty()) {
      script = arg;
    } else {
      std::cerr << "hbase-shell: one script file at most\n";
      return 2;
    }
  }

  apache::thrift::GlobalOutput.setOutputFunction(DropThriftOutput);
  Connection connection(options);
  if (!commands.empty() || !script.empty()) {
    Shell shell(&connection, std::cout, std::cerr, /*interactive=*/false);
    shell.set_transcript(transcript);
    for (const auto& c : commands) {
      std::istringstream in(c);
      if (shell.RunScript(in) != 0) return 1;
      if (shell.exit_requested()) return 0;
    }
    if (!script.empty()) {
      std::ifstream in(script);
      if (!in) {
        std::cerr << "hbase-shell: cannot read " << script << "\n";
        return 2;
      }
      int rc = shell.RunScript(in);
      if (rc != 0) std::cerr << "  at line " << shell.failed_line() << " of " << script << "\n";
      return rc;
    }
    return 0;
  }
  if (!force_script && isatty(STDIN_FILENO)) {
    Shell shell(&connection, std::cout, std::cerr, /*interactive=*/true);
    return Interactive(shell, connection);
  }
  Shell shell(&connection, std::cout, std::cerr, /*interactive=*/false);
  if (force_script) {
    // `hbase shell -n`: each command echoed after the prompt with its value, the first error
    // ends the run.
    shell.set_echo(true);
    shell.set_return_values(true);
    const int rc = shell.RunScript(std::cin);
    if (rc != 0) std::cerr << "  at line " << shell.failed_line() << " of stdin\n";
    return rc;
  }
  // `hbase shell < file`: an irb session fed by a pipe. The banner, each command echoed after
  // the prompt, errors printed as on a terminal and the script going on; the status is 0, as
  // HBase's, whatever failed (-n is the way to stop at an error).
  std::cout << Banner(connection);
  shell.set_transcript(true);
  shell.RunScript(std::cin);
  if (!shell.exit_requested()) std::cout << shell.NextPrompt() << "\n";
  return 0;
}
