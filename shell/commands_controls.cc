// Test-control commands (hbase-emulator's, not HBase's): the clock, fault rules and call log of
// a server started with --test-controls, reached on its admin port (--admin-port) over HTTP
// (docs/test-controls.md). Each prints the server's JSON answer.

#include <cctype>
#include <string>

#include <nlohmann/json.hpp>

#include "shell/control_client.h"
#include "shell/shell.h"

namespace hbemu::shell {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A shell literal as JSON; hash keys are lowercased (DAYS => 2 is {"days": 2}).
nlohmann::json ToJson(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNil: return nullptr;
    case Value::Kind::kBool: return v.boolean;
    case Value::Kind::kInt: return v.integer;
    case Value::Kind::kFloat: return v.real;
    case Value::Kind::kString: return v.text;
    case Value::Kind::kArray: {
      nlohmann::json out = nlohmann::json::array();
      for (const Value& item : v.items) out.push_back(ToJson(item));
      return out;
    }
    case Value::Kind::kHash: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& [key, value] : v.pairs) out[Lower(key.ToS())] = ToJson(value);
      return out;
    }
  }
  return nullptr;
}

std::string PercentEncode(const std::string& s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// One control call, its JSON answer as the shell prints it.
std::string Control(const CommandContext& ctx, const std::string& method, const std::string& path,
                    const nlohmann::json& body = nullptr) {
  try {
    return ControlCall(ctx.connection.options(), method, path, body).dump(2);
  } catch (const ControlFailure& e) {
    throw ShellError(std::string("test controls: ") + e.what());
  }
}

std::string Action(const CommandContext& ctx, const char* fallback) {
  if (ctx.args.empty() || ctx.args[0].IsHash()) return fallback;
  return ctx.args[0].ToS();
}

// The options hash: the last argument when it is one.
nlohmann::json Options(const CommandContext& ctx) {
  if (!ctx.args.empty() && ctx.args.back().IsHash()) return ToJson(ctx.args.back());
  return nlohmann::json::object();
}

std::string Query(const CommandContext& ctx) {
  std::string q;
  if (ctx.args.empty() || !ctx.args.back().IsHash()) return q;
  for (const auto& [key, value] : ctx.args.back().pairs) {
    q += (q.empty() ? "?" : "&") + PercentEncode(Lower(key.ToS())) + "=" +
         PercentEncode(value.kind == Value::Kind::kBool ? (value.boolean ? "1" : "0") : value.ToS());
  }
  return q;
}

void TestClock(CommandContext& ctx) {
  const std::string action = Action(ctx, "show");
  if (action == "show") return ctx.out.Line(Control(ctx, "GET", "/control/clock"));
  if (action != "freeze" && action != "advance" && action != "offset" && action != "resume") {
    throw ShellError("test_clock: unknown action '" + action +
                     "' (show, freeze, advance, offset, resume)");
  }
  ctx.out.Line(Control(ctx, "POST", "/control/clock/" + action, Options(ctx)));
}

void TestFaults(CommandContext& ctx) {
  const std::string action = Action(ctx, "list");
  if (action == "list") return ctx.out.Line(Control(ctx, "GET", "/control/faults"));
  if (action == "add") return ctx.out.Line(Control(ctx, "POST", "/control/faults", Options(ctx)));
  if (action == "clear") return ctx.out.Line(Control(ctx, "POST", "/control/faults/clear"));
  if (action == "remove") {
    if (ctx.args.size() < 2 || !ctx.args[1].IsInt()) throw ShellError("test_faults 'remove', ID");
    return ctx.out.Line(Control(ctx, "POST", "/control/faults/remove",
                                {{"id", ctx.args[1].integer}}));
  }
  throw ShellError("test_faults: unknown action '" + action + "' (list, add, remove, clear)");
}

void TestCalls(CommandContext& ctx) {
  const std::string action = Action(ctx, "list");
  if (action == "list") return ctx.out.Line(Control(ctx, "GET", "/control/calls" + Query(ctx)));
  if (action == "mark") return ctx.out.Line(Control(ctx, "GET", "/control/calls/mark"));
  if (action == "clear") return ctx.out.Line(Control(ctx, "POST", "/control/calls/clear"));
  if (action == "enable" || action == "disable") {
    return ctx.out.Line(Control(ctx, "POST", "/control/calls/enable",
                                {{"enabled", action == "enable"}}));
  }
  throw ShellError("test_calls: unknown action '" + action +
                   "' (list, mark, clear, enable, disable)");
}

CommandSpec Spec(std::string help, std::function<void(CommandContext&)> run) {
  CommandSpec spec;
  spec.group = "test controls (hbase-emulator --test-controls)";
  spec.help = std::move(help);
  spec.run = std::move(run);
  spec.timed = false;
  return spec;
}

}  // namespace

void AddControlCommands(CommandTable* t) {
  (*t)["test_clock"] = Spec(
      "The server's clock (hbase-emulator --test-controls; the shell's --admin-port).\n"
      "  hbase> test_clock\n  hbase> test_clock 'freeze'\n  hbase> test_clock 'freeze', {AT_MS => 0}\n"
      "  hbase> test_clock 'advance', {DAYS => 2}\n  hbase> test_clock 'offset', {HOURS => -1}\n"
      "  hbase> test_clock 'resume'",
      TestClock);
  (*t)["test_faults"] = Spec(
      "Fault rules (hbase-emulator --test-controls).\n  hbase> test_faults\n"
      "  hbase> test_faults 'add', {METHOD => 'getRow*', TIMES => 2,\n"
      "           EXCEPTION => 'org.apache.hadoop.hbase.NotServingRegionException'}\n"
      "  hbase> test_faults 'add', {ACTION => 'close_after', METHOD => 'atomicIncrement'}\n"
      "  hbase> test_faults 'remove', 1\n  hbase> test_faults 'clear'",
      TestFaults);
  (*t)["test_calls"] = Spec(
      "The call log (hbase-emulator --test-controls).\n  hbase> test_calls\n"
      "  hbase> test_calls 'list', {TABLE => 't1', ERRORS => true, LIMIT => 20}\n"
      "  hbase> test_calls 'mark'\n  hbase> test_calls 'list', {SINCE => 42}\n"
      "  hbase> test_calls 'clear'\n  hbase> test_calls 'disable'",
      TestCalls);
}

}  // namespace hbemu::shell
