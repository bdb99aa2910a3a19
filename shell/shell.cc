#include "shell/shell.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <istream>
#include <ostream>
#include <set>

#include <thrift/transport/TTransportException.h>

#include "shell/descriptors.h"
#include "shell/interrupt.h"
#include "storage/schema.h"

namespace hbemu::shell {

namespace t1 = hbemu::thrift;
namespace t2 = hbemu::thrift2;

ColumnName ParseColumn(const std::string& column) {
  ColumnName c;
  size_t colon = column.find(':');
  if (colon == std::string::npos) {
    c.family = column;
  } else {
    c.family = column.substr(0, colon);
    c.qualifier = column.substr(colon + 1);
    c.has_qualifier = true;
  }
  return c;
}

const Value& Arg(const CommandContext& ctx, size_t i, const char* what) {
  if (i >= ctx.args.size()) {
    throw ShellError("wrong number of arguments (" + std::to_string(ctx.args.size()) +
                     " for " + std::to_string(i + 1) + "): " + what + " is missing");
  }
  return ctx.args[i];
}

std::string StringArg(const CommandContext& ctx, size_t i, const char* what) {
  const Value& v = Arg(ctx, i, what);
  if (v.IsHash() || v.IsArray()) {
    throw ShellError(std::string(what) + " must be a String, got " + v.Inspect());
  }
  return v.ToS();
}

int64_t IntOf(const Value& v, const char* what) {
  if (v.IsInt()) return v.integer;
  if (v.kind == Value::Kind::kFloat) return static_cast<int64_t>(v.real);
  if (v.IsString()) {
    try {
      size_t used = 0;
      int64_t n = std::stoll(v.text, &used);
      if (used == v.text.size()) return n;
    } catch (...) {
    }
  }
  throw ShellError(std::string(what) + " must be an Integer, got " + v.Inspect());
}

std::string InspectList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += Value::String(items[i]).Inspect();
  }
  return out + "]";
}

Shell::Shell(Connection* connection, std::ostream& out, std::ostream& err, bool interactive)
    : connection_(connection), out_(out), err_(err), interactive_(interactive) {
  AddClusterCommands(&commands_);
  AddTableCommands(&commands_);
  AddNamespaceCommands(&commands_);
  AddDataCommands(&commands_);
  AddScanCommands(&commands_);
  AddGeneralCommands(&commands_);
  AddAdminCommands(&commands_);
  AddControlCommands(&commands_);
  AddSnapshotCommands(&commands_);
}

namespace {

// The first bare constant in `v` that HBase's shell does not define, or "".
std::string UnknownConstant(const Value& v) {
  if (v.IsString() && v.constant && !IsShellConstant(v.text)) return v.text;
  for (const auto& item : v.items) {
    std::string name = UnknownConstant(item);
    if (!name.empty()) return name;
  }
  for (const auto& [k, val] : v.pairs) {
    std::string name = UnknownConstant(k);
    if (name.empty()) name = UnknownConstant(val);
    if (!name.empty()) return name;
  }
  return "";
}

std::string FirstLine(const std::string& s) {
  size_t nl = s.find('\n');
  std::string line = nl == std::string::npos ? s : s.substr(0, nl);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  // Thrift1 repeats a region server exception's class ("C: C: text"); the Java client's
  // exception, which HBase's shell prints, names it once.
  size_t sep = line.find(": ");
  if (sep != std::string::npos && sep > 0) {
    std::string prefix = line.substr(0, sep + 2);
    if (line.compare(sep + 2, prefix.size(), prefix) == 0) line.erase(0, prefix.size());
  }
  return line;
}

// Whether the server names this Java exception (HBase puts the class and stack trace in the
// message; the emulator may send the text alone).
bool Names(const std::string& message, const char* java_class) {
  return FirstLine(message).find(java_class) != std::string::npos;
}

bool TableExists(Connection& connection, const std::string& table) {
  t2::TTableName name;
  size_t colon = table.find(':');
  if (colon != std::string::npos) {
    name.__set_ns(table.substr(0, colon));
    name.qualifier = table.substr(colon + 1);
  } else {
    name.qualifier = table;
  }
  return connection.Thrift2().tableExists(name);
}

bool NamespaceExists(Connection& connection, const std::string& ns) {
  std::vector<std::string> names;
  connection.Thrift2().listNamespaces(names);
  for (const auto& n : names) {
    if (n == ns) return true;
  }
  return false;
}

// The class Ruby names for a value irb showed as `inspect` (["a"] is an Array, 6 an Integer).
std::string RubyClassOf(const std::string& inspect) {
  if (inspect == "nil") return "NilClass";
  if (inspect == "true") return "TrueClass";
  if (inspect == "false") return "FalseClass";
  switch (inspect.empty() ? ' ' : inspect[0]) {
    case '[': return "Array";
    case '{': return "Hash";
    case '"': return "String";
    default: break;
  }
  if (inspect.find_first_not_of("-0123456789") == std::string::npos) return "Integer";
  if (inspect.find_first_not_of("-0123456789.e") == std::string::npos) return "Float";
  return "Object";
}

// The source line under a SyntaxError and its caret, as HBase's JRuby prints them: a line is cut
// to 30 bytes either side of the end of the offending token (one byte here) with "..." where
// cut, and once cut at the front the caret stands 4 columns left of the token (JRuby's).
std::string SourceWithCaret(const std::string& line, size_t column) {
  constexpr size_t kMargin = 30;
  const size_t end = std::min(column + 1, line.size());  // just past the token
  size_t from = 0;
  std::string shown;
  size_t caret = column;
  if (end > kMargin) {
    from = end - kMargin;
    shown = "...";
    caret = column >= 4 ? column - 4 : 0;
  }
  if (line.size() > end + kMargin) {
    shown += line.substr(from, end + kMargin - from) + "...";
  } else {
    shown += line.substr(from);
  }
  return shown + "\n" + std::string(caret, ' ') + "^\n";
}

// Commands that only read: asked again once when the connection they found was lost.
bool SafeToRetry(const std::string& name) {
  static const std::set<std::string> kReads = {
      "get", "scan", "count", "get_counter", "exists", "list", "describe", "desc", "is_enabled",
      "is_disabled", "list_namespace", "list_namespace_tables", "describe_namespace",
      "get_splits", "list_regions", "locate_region", "status", "version", "whoami",
      "list_snapshots", "list_table_snapshots", "show_filters", "get_table", "table_help", "help"};
  return kReads.count(name) != 0;
}

}  // namespace

std::string Shell::Translate(const std::string& name, const CommandSpec& spec,
                             const std::vector<Value>& args, const std::string& message) {
  std::string first = args.empty() ? "" : args[0].ToS();
  if (Names(message, "TableNotFoundException")) return "Unknown table " + first + "!";
  if (Names(message, "NamespaceNotFoundException")) {
    return "Unknown namespace " + first.substr(0, first.find(':')) + "!";
  }
  if (Names(message, "TableExistsException")) return "Table already exists: " + first + "!";
  if (Names(message, "NamespaceExistException")) {
    return "org.apache.hadoop.hbase.NamespaceExistException: Namespace " + first + " already exists";
  }
  if (Names(message, "TableNotEnabledException") ||
      FirstLine(message).find(" is disabled.") != std::string::npos) {
    return "Table " + first + " is disabled!";
  }
  try {
    if (name == "create_namespace" && NamespaceExists(*connection_, first)) {
      return "org.apache.hadoop.hbase.NamespaceExistException: Namespace " + first + " already exists";
    }
  } catch (const std::exception&) {
  }
  // A missing family: HBase's shell prints the region server's exception as it came (put, get,
  // scan); the server's first line is that text.
  if (Names(message, "NoSuchColumnFamilyException")) return FirstLine(message);
  // A server that sends the bare text: ask it what is missing, as the Java exception would say.
  try {
    if (spec.subject == Subject::kTable && !first.empty()) {
      size_t colon = first.find(':');
      if (colon != std::string::npos && !NamespaceExists(*connection_, first.substr(0, colon))) {
        return "Unknown namespace " + first.substr(0, colon) + "!";
      }
      if (!TableExists(*connection_, first)) {
        return name == "create" ? FirstLine(message) : "Unknown table " + first + "!";
      }
      if (name == "create") return "Table already exists: " + first + "!";
    }
    if (spec.subject == Subject::kNamespace && !first.empty() && name != "create_namespace" &&
        !NamespaceExists(*connection_, first)) {
      return "Unknown namespace " + first + "!";
    }
  } catch (const std::exception&) {
    // The plain message below is still right.
  }
  return FirstLine(message);
}

bool Shell::Parse(const std::string& text, Command* command) {
  std::string error;
  size_t at = 0;
  if (ParseCommand(text, command, &error, &at)) return true;
  if (!interactive_) {
    err_ << "ERROR: " << error << "\n";
    return false;
  }
  // irb's report of a SyntaxError: the script line, the source line and a caret under the spot.
  const size_t line_start = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;  // npos + 1 is 0
  const size_t line_end = text.find('\n', at);
  const int line = command_line_ + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
  out_ << "Traceback (most recent call last):\nSyntaxError ((hbase):" << line << ": " << error << ")\n"
       << SourceWithCaret(text.substr(line_start, line_end == std::string::npos
                                                      ? std::string::npos
                                                      : line_end - line_start),
                          at - line_start);
  return false;
}

void Shell::RubyError(const std::string& error, const std::string& receiver) {
  if (interactive_) {
    // irb's report; no timing, as no command ran.
    out_ << "Traceback (most recent call last):\n" << error << " for " << receiver << ")\n";
  } else {
    err_ << "ERROR: " << error.substr(error.find('(') + 1) << " for "
         << (receiver[0] == '#' ? "main:Object" : receiver) << "\n";
  }
}

bool Shell::Execute(const std::string& text) {
  {
    // Blank or comment-only input does nothing, as in irb.
    size_t p = text.find_first_not_of(" \t\r\n");
    if (p == std::string::npos || text[p] == '#') return true;
  }
  Command command;
  const ReferenceStatement ref = ParseReferenceStatement(text);
  if (ref.kind == ReferenceStatement::Kind::kMethod) return CallTableMethod(ref);
  if (ref.kind == ReferenceStatement::Kind::kAssign) {
    if (!Parse(ref.rest, &command)) return false;
    last_return_.clear();
    const bool ok = Run(command, Timing::kLine);
    // create and get_table return a table reference; any other value is kept as irb shows it
    // (a later t.put is then a NoMethodError on it, as in Ruby).
    Variable& value = variables_[ref.variable];
    value = Variable();
    if (ok && (command.name == "create" || command.name == "get_table") && !command.args.empty()) {
      value.table = command.args[0].ToS();
      value.inspect = InspectTable(value.table);
    } else if (ok && !last_return_.empty()) {
      value.inspect = last_return_;
    }
    return ok;
  }
  if (!Parse(text, &command)) return false;
  auto variable = variables_.find(command.name);
  if (variable != variables_.end() && !command.call) {
    if (interactive_) out_ << "=> " << variable->second.inspect << "\n";
    return true;
  }
  return Run(command, Timing::kLine);
}

bool Shell::CallTableMethod(const ReferenceStatement& ref) {
  auto variable = variables_.find(ref.variable);
  if (variable == variables_.end()) {
    RubyError("NameError (undefined local variable or method `" + ref.variable + "'",
              "#<HBaseReceiver:0x00000000>");
    return false;
  }
  const std::string& table = variable->second.table;
  if (table.empty()) {
    RubyError("NoMethodError (undefined method `" + ref.method + "'",
              variable->second.inspect + ":" + RubyClassOf(variable->second.inspect));
    return false;
  }
  const TableMethod method = LookUpTableMethod(ref.method);
  Command command;
  if (!Parse("m" + ref.rest, &command)) return false;
  switch (method) {
    case TableMethod::kUnknown:
      RubyError("NoMethodError (undefined method `" + ref.method + "'",
                InspectTable(table) + ":Hbase::Table");
      return false;
    case TableMethod::kClose:
      return true;
    case TableMethod::kInspect:
      if (interactive_) out_ << "=> \"" << InspectTable(table) << "\"\n";
      return true;
    case TableMethod::kHelp:
      // HBase prints the help text alone here, without the timing table_help has.
      command.name = command.args.empty() ? "table_help" : "help";
      return Run(command, Timing::kNone);
    case TableMethod::kAllColumns:
      try {
        t2::TTableDescriptor desc;
        connection_->Thrift2().getTableDescriptor(desc, TableNameOf(table));
        std::vector<std::string> columns;
        for (const auto& f : desc.columns) columns.push_back(f.name + ":");
        if (interactive_) out_ << "=> " << InspectList(columns) << "\n";
        return true;
      } catch (const std::exception& e) {
        // The Java client's descriptor call fails the same way (a missing table, a lost server).
        command.name = "describe";
        command.args = {Value::String(table)};
        return Run(command, Timing::kLine);
      }
    case TableMethod::kCommand:
      command.name = ref.method;
      command.args.insert(command.args.begin(), Value::String(table));
      return Run(command, Timing::kUnterminated);
  }
  return false;
}

std::string Shell::Attempt(const std::string& name, const CommandSpec& spec, const Command& command,
                           CommandContext& ctx, bool* interrupted, bool* lost) {
  std::string failure;
  try {
    // (create checks its name after its families, as HBase's admin does; a name with a comma is
    // a region name, which flush and compact also take.)
    if (spec.subject == Subject::kTable && name != "create" && !command.args.empty() &&
        command.args[0].IsString() && command.args[0].text.find(',') == std::string::npos) {
      // The Java client makes a TableName of the argument before any call; an illegal name
      // fails there with TableName's text (HBase's gateways would answer "Internal error").
      storage::TableName parsed;
      storage::Status valid = storage::ParseTableName(command.args[0].text, &parsed);
      if (!valid.ok()) throw ShellError(valid.message());
    }
    spec.run(ctx);
  } catch (const Interrupted& e) {
    // Ctrl-C: what was printed stays, a line says where it stopped, the session goes on.
    *interrupted = true;
    failure = "interrupted";
    out_.clear();
    out_ << "Interrupted (Ctrl-C) after " << e.rows() << " row(s)\n";
  } catch (const ShellError& e) {
    failure = e.what();
  } catch (const t1::IOError& e) {
    failure = Translate(name, spec, command.args, e.message);
  } catch (const t1::IllegalArgument& e) {
    failure = Translate(name, spec, command.args, e.message);
  } catch (const t1::AlreadyExists& e) {
    failure = Translate(name, spec, command.args, "TableExistsException: " + e.message);
  } catch (const t2::TIOError& e) {
    failure = Translate(name, spec, command.args, e.message);
  } catch (const t2::TIllegalArgument& e) {
    failure = Translate(name, spec, command.args, e.message);
  } catch (const ServerUnreachable& e) {
    failure = std::string("cannot reach the HBase Thrift server at ") + e.what();
  } catch (const apache::thrift::transport::TTransportException& e) {
    *lost = true;
    failure = e.what();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  return failure;
}

bool Shell::Run(const Command& command, Timing timing) {
  auto it = commands_.find(command.name);
  if (command.name == "desc") it = commands_.find("describe");
  if (command.name == "quit") it = commands_.find("exit");
  if (it == commands_.end()) {
    // What Ruby raises: a bare word may be a variable, a call can only be a method.
    RubyError(command.call ? "NoMethodError (undefined method `" + command.name + "'"
                           : "NameError (undefined local variable or method `" + command.name + "'",
              "#<HBaseReceiver:0x00000000>");
    return false;
  }
  // Commands only this shell has (reset, the test controls) take constants of their own.
  const std::string& group = it->second.group;
  bool own = group == "hbase-shell" || group.rfind("test controls", 0) == 0;
  for (const auto& arg : command.args) {
    if (own) break;
    // Ruby evaluates the arguments before the command runs: an unknown constant fails there.
    std::string name = UnknownConstant(arg);
    if (name.empty()) continue;
    if (interactive_) {
      out_ << "Traceback (most recent call last):\nNameError (uninitialized constant "
           << "HBaseReceiver::" << name << ")\n";
    } else {
      err_ << "ERROR: uninitialized constant " << name << "\n";
    }
    return false;
  }
  const CommandSpec& spec = it->second;
  if (command.name == "exit" || command.name == "quit") {
    exit_requested_ = true;
    return true;
  }
  Formatter formatter(out_, TerminalWidth(STDOUT_FILENO));
  CommandContext ctx{command.args, *connection_, formatter};
  auto start = std::chrono::steady_clock::now();
  std::string failure;
  bool interrupted = false;
  ClearInterrupt();  // a Ctrl-C from before this command is not for it
  // A connection the server closed while the shell sat idle is replaced before it is used.
  connection_->DropClosedSides();
  for (bool retried = false;; retried = true) {
    bool lost = false;
    failure = Attempt(it->first, spec, command, ctx, &interrupted, &lost);
    if (!lost) break;
    // Lost in use (the server restarted or dropped it mid-call): the next call reconnects. A
    // read is asked again once; a change may or may not have reached the server, so it is not.
    connection_->Reset();
    const bool safe = SafeToRetry(it->first);
    if (!retried && safe) continue;
    failure = "the connection to the HBase Thrift server was lost (" + failure + "); " +
              (safe ? "asked again, it was lost again" : "the command may or may not have been applied") +
              ". The next command reconnects.";
    break;
  }
  if (keep_existing_ && !failure.empty() &&
      ((it->first == "create" && failure.rfind("Table already exists", 0) == 0) ||
       (it->first == "create_namespace" && failure.find("NamespaceExistException") != std::string::npos))) {
    out_ << "Kept existing " << (it->first == "create" ? "table " : "namespace ")
         << (command.args.empty() ? "" : command.args[0].ToS()) << "\n";
    failure.clear();
  }
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out_.flush();
  char took_line[64];
  // A command called on a table reference ends its timing line without a newline in HBase
  // 2.6.1 (the next prompt or "=> 2" follows on the same line); so does this shell.
  std::snprintf(took_line, sizeof(took_line), "Took %.4f seconds%s", took,
                timing == Timing::kUnterminated ? "" : "\n");
  // Interactive: HBase prints the error, then the timing. A script: the timing is printed as
  // the command ends, then the error stops the script.
  if (!failure.empty() && interactive_ && !interrupted) {
    out_ << "\nERROR: " << failure << "\n\nFor usage try 'help \"" << it->first << "\"'\n\n";
  }
  if (spec.timed && timing != Timing::kNone) out_ << took_line;
  if (failure.empty() && formatter.has_return()) last_return_ = formatter.return_value();
  if ((interactive_ || return_values_) && failure.empty() && formatter.has_return()) {
    out_ << "=> " << formatter.return_value() << "\n";
  }
  out_.flush();
  if (!failure.empty() && !interactive_ && !interrupted) {
    err_ << "ERROR: " << failure << "\n" << std::flush;
  }
  return failure.empty();
}

std::string IrbPrompt(int line, const std::string& pending) {
  char prompt[48];
  if (pending.empty()) {
    std::snprintf(prompt, sizeof(prompt), "hbase:%03d:0> ", line);
  } else {
    const OpenState open = OpenStateOf(pending);
    std::snprintf(prompt, sizeof(prompt), "hbase:%03d:%d%c ", line, std::max(open.depth, 0),
                  open.quote ? open.quote : '*');
  }
  return prompt;
}

std::string Shell::NextPrompt(const std::string& pending) const {
  return IrbPrompt(lines_read_ + 1, pending);
}

int Shell::RunScript(std::istream& in) {
  std::string pending;
  std::string line;
  int number = 0;
  int first = 0;  // the line the pending command began on
  while (std::getline(in, line)) {
    ++number;
    if (echo_) out_ << NextPrompt(pending) << line << "\n";
    ++lines_read_;
    if (pending.empty()) first = number;
    pending += pending.empty() ? line : "\n" + line;
    if (NeedsMoreInput(pending)) continue;
    std::string text;
    text.swap(pending);
    command_line_ = lines_read_ - static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    if (!Execute(text) && !interactive_) {
      failed_line_ = first;
      return 1;
    }
    if (exit_requested_) return 0;
  }
  if (!pending.empty()) {
    command_line_ = lines_read_ - static_cast<int>(std::count(pending.begin(), pending.end(), '\n'));
    if (echo_) {
      // The end of the input inside an open command: irb prompts for its next line, reads
      // nothing, prompts once more and reports what it has.
      out_ << NextPrompt(pending) << "\n" << NextPrompt() << "\n";
    }
    if (!Execute(pending) && !interactive_) {
      failed_line_ = first;
      return 1;
    }
  }
  return 0;
}

}  // namespace hbemu::shell
