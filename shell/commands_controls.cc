// Test-control commands (hbase-emulator's, not HBase's): the clock, fault rules and call log of
// a server started with --test-controls, reached on its admin port over HTTP (README "Test
// controls"). The admin address is $HBASE_EMULATOR_ADMIN (host:port), else the shell's host
// and port 9095. Each prints the server's JSON answer.

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "shell/shell.h"

namespace hbemu::shell {
namespace {

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A shell literal as JSON; hash keys are lowercased (DAYS => 2 is {"days": 2}).
std::string ToJson(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNil: return "null";
    case Value::Kind::kBool: return v.boolean ? "true" : "false";
    case Value::Kind::kInt: return std::to_string(v.integer);
    case Value::Kind::kFloat: {
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", v.real);
      return buf;
    }
    case Value::Kind::kString: return JsonString(v.text);
    case Value::Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < v.items.size(); ++i) out += (i ? ", " : "") + ToJson(v.items[i]);
      return out + "]";
    }
    case Value::Kind::kHash: {
      std::string out = "{";
      for (size_t i = 0; i < v.pairs.size(); ++i) {
        out += (i ? ", " : "") + JsonString(Lower(v.pairs[i].first.ToS())) + ": " +
               ToJson(v.pairs[i].second);
      }
      return out + "}";
    }
  }
  return "null";
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

// One request to the admin port; returns the body, or throws ShellError with the server's
// error or why it could not be reached.
std::string Control(const CommandContext& ctx, const std::string& method, const std::string& path,
                    const std::string& body = "") {
  std::string host = ctx.connection.options().host;
  std::string port = "9095";
  if (const char* admin = std::getenv("HBASE_EMULATOR_ADMIN"); admin != nullptr && *admin) {
    const std::string a = admin;
    const size_t colon = a.rfind(':');
    if (colon == std::string::npos) throw ShellError("HBASE_EMULATOR_ADMIN must be host:port");
    host = a.substr(0, colon);
    port = a.substr(colon + 1);
  }
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || found == nullptr) {
    throw ShellError("cannot resolve the admin address " + host + ":" + port);
  }
  int fd = -1;
  for (addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  if (fd < 0) {
    throw ShellError("cannot reach the admin port " + host + ":" + port +
                     " (set HBASE_EMULATOR_ADMIN=host:port)");
  }
  const std::string request = method + " " + path + " HTTP/1.1\r\nHost: " + host +
                              "\r\nContent-Type: application/json\r\nContent-Length: " +
                              std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  std::string reply;
  bool sent = true;
  for (size_t off = 0; off < request.size();) {
    const ssize_t n = write(fd, request.data() + off, request.size() - off);
    if (n <= 0) {
      sent = false;
      break;
    }
    off += static_cast<size_t>(n);
  }
  char buf[4096];
  for (ssize_t n; sent && (n = read(fd, buf, sizeof(buf))) > 0;) reply.append(buf, n);
  close(fd);
  const size_t split = reply.find("\r\n\r\n");
  if (reply.compare(0, 9, "HTTP/1.1 ") != 0 || split == std::string::npos) {
    throw ShellError("no HTTP answer from the admin port " + host + ":" + port);
  }
  const int status = std::atoi(reply.c_str() + 9);
  std::string answer = reply.substr(split + 4);
  while (!answer.empty() && answer.back() == '\n') answer.pop_back();
  if (status != 200) {
    // {"error": "...", "status": N}: the message is what the user needs.
    const size_t at = answer.find("\"error\": \"");
    std::string message = answer;
    if (at != std::string::npos) {
      const size_t end = answer.find("\",", at + 10);
      message = answer.substr(at + 10, end == std::string::npos ? std::string::npos : end - at - 10);
    }
    throw ShellError("test controls: " + message);
  }
  return answer;
}

std::string Action(const CommandContext& ctx, const char* fallback) {
  if (ctx.args.empty() || ctx.args[0].IsHash()) return fallback;
  return ctx.args[0].ToS();
}

// The options hash: the last argument when it is one.
std::string Options(const CommandContext& ctx) {
  if (!ctx.args.empty() && ctx.args.back().IsHash()) return ToJson(ctx.args.back());
  return "{}";
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
                                "{\"id\": " + std::to_string(ctx.args[1].integer) + "}"));
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
                                action == "enable" ? "{\"enabled\": true}" : "{\"enabled\": false}"));
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
      "The server's clock (hbase-emulator --test-controls; admin port from\n"
      "$HBASE_EMULATOR_ADMIN=host:port, else port 9095).\n"
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
