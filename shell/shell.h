#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "shell/connection.h"
#include "shell/formatter.h"
#include "shell/table_reference.h"
#include "shell/value.h"

namespace hbemu::shell {

// A failure a command reports in HBase's words ("Unknown table t!"); printed as "ERROR: ...".
class ShellError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a command runs with: its arguments, the connection and the formatter it prints with.
struct CommandContext {
  const std::vector<Value>& args;
  Connection& connection;
  Formatter& out;
};

// What the error translation needs to know about a command's first argument.
enum class Subject { kNone, kTable, kNamespace };

struct CommandSpec {
  std::string group;
  Subject subject = Subject::kNone;
  std::string help;  // usage text printed by `help "name"` and after an interactive error
  std::function<void(CommandContext&)> run;
  bool timed = true;  // prints "Took N seconds" afterwards, as HBase's commands do
};

using CommandTable = std::map<std::string, CommandSpec>;

// Each file of commands adds its own.
void AddTableCommands(CommandTable* table);
void AddNamespaceCommands(CommandTable* table);
void AddDataCommands(CommandTable* table);
void AddScanCommands(CommandTable* table);
void AddGeneralCommands(CommandTable* table);
void AddAdminCommands(CommandTable* table);
// Added first: a group file that implements one of these cluster commands replaces it.
void AddClusterCommands(CommandTable* table);
void AddControlCommands(CommandTable* table);  // hbase-emulator's test controls
void AddSnapshotCommands(CommandTable* table);  // commands_snapshot.cc

// One shell session: parses and runs commands, prints their output and errors as HBase's
// shell does, and in non-interactive mode stops at the first error.
class Shell {
 public:
  Shell(Connection* connection, std::ostream& out, std::ostream& err, bool interactive);

  // Runs one complete command (blank and comment-only text is a no-op). Returns false when it
  // failed; the error has been printed.
  bool Execute(const std::string& text);

  // Runs commands read from `in`, one per line with continuation lines for open brackets and
  // trailing commas. Returns 0, or 1 at the first failed command (non-interactive).
  int RunScript(std::istream& in);

  bool exit_requested() const { return exit_requested_; }

  // Every command name, sorted (tab completion).
  std::vector<std::string> CommandNames() const {
    std::vector<std::string> names;
    for (const auto& [name, spec] : commands_) names.push_back(name);
    return names;
  }

  // `hbase shell FILE`: each command is echoed after irb's prompt ("hbase:007:0> put ..."), an
  // error is printed as in an interactive session and the script goes on. Golden transcripts
  // are taken this way from both shells.
  void set_transcript(bool on) {
    echo_ = on;
    if (on) interactive_ = true;
  }
  // Echo each command after the prompt, errors still stopping the script (--init's log).
  void set_echo(bool on) { echo_ = on; }
  // Print each command's value ("=> 1") as irb does, errors still stopping the script
  // (`hbase shell -n`, which runs irb that way).
  void set_return_values(bool on) { return_values_ = on; }

  // irb's prompt for the next line read, `pending` the command still open (IrbPrompt).
  std::string NextPrompt(const std::string& pending = "") const;

  // The line (1-based, irb's count) where the next command given to Execute begins; RunScript
  // keeps it, an interactive session sets it.
  void set_command_line(int line) { command_line_ = line; }

  // The script line (1-based) where the command that stopped RunScript began; 0 if none did.
  int failed_line() const { return failed_line_; }

  // For --init scripts run again over kept data: `create` of a table and `create_namespace` of a
  // namespace that already exist print a note and succeed instead of failing.
  void set_keep_existing(bool keep) { keep_existing_ = keep; }

 private:
  // Parses one command, printing a syntax error; false when it has one.
  bool Parse(const std::string& text, Command* command);
  // Runs a parsed command and prints its output, timing and error as HBase's shell does.
  enum class Timing { kLine, kUnterminated, kNone };
  bool Run(const Command& command, Timing timing);
  // One try of a command: its error text, or "" on success. *lost: the connection was lost
  // (the text is the transport's); *interrupted: Ctrl-C stopped it.
  std::string Attempt(const std::string& name, const CommandSpec& spec, const Command& command,
                      CommandContext& ctx, bool* interrupted, bool* lost);
  // `t.put ...` and the other methods of a table reference.
  bool CallTableMethod(const ReferenceStatement& statement);
  // A NameError or NoMethodError as irb reports it ("NameError (undefined ...", "receiver").
  void RubyError(const std::string& error, const std::string& receiver);

  std::string Translate(const std::string& name, const CommandSpec& spec,
                        const std::vector<Value>& args, const std::string& server_message);

  Connection* connection_;
  std::ostream& out_;
  std::ostream& err_;
  bool interactive_;
  bool exit_requested_ = false;
  bool keep_existing_ = false;
  bool echo_ = false;
  bool return_values_ = false;
  int failed_line_ = 0;
  int lines_read_ = 0;
  int command_line_ = 1;  // by RunScript, over all its calls: irb numbers the session's lines
  CommandTable commands_;
  // Local variables of the session: a table reference, or another value as irb shows it.
  struct Variable {
    std::string table;  // "" when the value is not a table reference
    std::string inspect = "nil";
  };
  std::map<std::string, Variable> variables_;
  std::string last_return_;  // the last command's return value as irb shows it; "" for nil
};

// irb's prompt for script line `line`: "hbase:012:0> ", or within a command still open
// (`pending`) its bracket depth and "*", or the open quote ("hbase:013:1* ", "hbase:013:0' ").
std::string IrbPrompt(int line, const std::string& pending);

// Column "f:q" as family and qualifier; has_qualifier is false for "f" (the whole family).
struct ColumnName {
  std::string family;
  std::string qualifier;
  bool has_qualifier = false;
};
ColumnName ParseColumn(const std::string& column);

// Helpers shared by the command files: argument access with HBase's error texts.
const Value& Arg(const CommandContext& ctx, size_t i, const char* what);
std::string StringArg(const CommandContext& ctx, size_t i, const char* what);
int64_t IntOf(const Value& v, const char* what);
// A FILTER string checked by the filter parser before it is sent; throws ShellError with
// ParseFilter's message ("Filter Name X not supported") as HBase's shell prints it.
std::string CheckFilterString(const std::string& text);
// Ruby's inspect of an Array of Strings: ["a", "b"].
std::string InspectList(const std::vector<std::string>& items);

}  // namespace hbemu::shell
