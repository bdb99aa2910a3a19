#include "server/options.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>
#include <limits>

#include "server/net/browser_requests.h"

namespace hbemu::server {
namespace {

template <typename Int>
bool ParseInt(const std::string& text, Int min, Int max, Int* out) {
  long long v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || v < static_cast<long long>(min) ||
      v > static_cast<long long>(max)) {
    return false;
  }
  *out = static_cast<Int>(v);
  return true;
}

}  // namespace

std::string HostPort(const std::string& host, uint16_t port) {
  const bool v6 = host.find(':') != std::string::npos && host.front() != '[';
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

bool IsLoopbackAddress(const std::string& address) {
  if (address == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, address.c_str(), &v4) == 1) {
    return (ntohl(v4.s_addr) >> 24) == 127;  // 127.0.0.0/8
  }
  std::string literal = address;
  if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']') {
    literal = literal.substr(1, literal.size() - 2);
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, literal.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
    // ::ffff:127.x.y.z
    return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
  }
  return false;  // a host name: it may resolve anywhere
}

std::string ServerUsage() {
  return
      "usage: hbase-emulator [options]\n"
      "  -p, --port N              Thrift1 (Hbase service) port (default 9090; 0 picks a free\n"
      "                            port)\n"
      "      --thrift2-port N      Thrift2 (THBaseService) port (default 9091, or a free port\n"
      "                            when --port is 0; 0 picks a free port)\n"
      "      --no-thrift2          serve Thrift1 only\n"
      "      --rest-port N         REST gateway (HBase's Stargate) port (default 8080, or a free\n"
      "                            port when --port is 0; 0 picks a free port)\n"
      "      --rest-bind ADDR      REST gateway address (default: the --bind address)\n"
      "      --no-rest             no REST gateway\n"
      "      --admin-port N        admin console and /metrics over HTTP (default 9095, or a\n"
      "                            free port when --port is 0; 0 picks a free port)\n"
      "      --admin-bind ADDR     admin console address (default: the --bind address when\n"
      "                            that is loopback, else 127.0.0.1: the console shows every\n"
      "                            stored cell)\n"
      "      --no-admin            no admin console\n"
      "      --allowed-hosts LIST  host names (comma-separated; .example.com for every name\n"
      "                            under it) the admin port answers besides localhost, IP\n"
      "                            addresses and single-label names (a guard against DNS\n"
      "                            rebinding: a web page must not read the console)\n"
      "      --test-controls       serve the test controls (clock, faults, call log,\n"
      "                            snapshots) as JSON under /control/ on the admin port;\n"
      "                            loopback binds and callers only\n"
      "      --test-controls-remote  the same, also on non-loopback addresses and callers\n"
      "  -b, --bind ADDR           Thrift listen address (default 127.0.0.1; any other logs a\n"
      "                            WARNING: there is no authentication)\n"
      "      --data-dir DIR        data folder (default ./data)\n"
      "      --in-memory           keep everything in memory (nothing written to disk)\n"
      "      --sync-writes         fsync every write before replying (power-loss durable)\n"
      "Transport (buffered, framed or HTTP) and protocol (binary or compact) are detected per\n"
      "connection from its first bytes; these make the server insist on one, as HBase does:\n"
      "  -f, --framed              framed transport, binary protocol only (HBase -f)\n"
      "  -c, --compact             buffered transport, compact protocol only (HBase -c);\n"
      "                            -f -c: framed + compact only\n"
      "      --http                Thrift over HTTP POST only, binary protocol\n"
      "                            (HBase hbase.regionserver.thrift.http=true)\n"
      "  -t, --idle-timeout-ms N   close connections idle this long (default 60000, as HBase's\n"
      "                            --readTimeout; 0 never)\n"
      "      --workers N           event loops, each running its connections' calls (default: half the cores)\n"
      "      --call-threads N      threads for connections calling back to back, each served with\n"
      "                            blocking socket calls until quiet (default 64; 0: all on the loops)\n"
      "      --scanner-timeout-ms N  close scanners idle this long (default 120000)\n"
      "      --max-message-mb N    largest request accepted (default 100)\n"
      "      --limit NAME=VALUE    change one resource limit (repeatable; see --limits)\n"
      "      --limits              print every limit, its value and what a client gets past it\n"
      "      --init FILE           run this HBase shell script before reporting ready\n"
      "                            (repeatable; tables and namespaces that exist are kept)\n"
      "      --version             print the version, the commit built from and library versions\n"
      "      --health-check        do not serve: ask the server on --admin-port (default 9095)\n"
      "                            for /ready; exit 0 when it answers 200, else 1 (for a\n"
      "                            container HEALTHCHECK, which then needs no shell)\n"
      "  -h, --help                this text\n"
      "There is no authentication: anyone who can reach the port can read and write.\n";
}

bool ParseServerOptions(int argc, char** argv, ServerOptions* options, bool* help,
                        std::string* error) {
  *help = false;
  bool thrift2_port_given = false;
  bool admin_port_given = false;
  bool rest_port_given = false;
  bool framed = false;
  bool compact = false;
  bool http = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_inline_value = false;
    if (arg.rfind("--", 0) == 0) {
      const size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        has_inline_value = true;
      }
    }
    auto need_value = [&](std::string* out) {
      if (has_inline_value) {
        *out = value;
        return true;
      }
      if (i + 1 >= argc) {
        *error = "missing value for " + arg;
        return false;
      }
      *out = argv[++i];
      return true;
    };
    std::string v;
    if (arg == "-h" || arg == "--help") {
      *help = true;
    } else if (arg == "-p" || arg == "--port") {
      if (!need_value(&v)) return false;
      if (!ParseInt<uint16_t>(v, 0, 65535, &options->thrift.port)) {
        *error = "bad port: " + v;
        return false;
      }
    } else if (arg == "--thrift2-port") {
      if (!need_value(&v)) return false;
      if (!ParseInt<uint16_t>(v, 0, 65535, &options->thrift2_port)) {
        *error = "bad port: " + v;
        return false;
      }
      thrift2_port_given = true;
    } else if (arg == "--no-thrift2") {
      options->thrift2_enabled = false;
    } else if (arg == "--rest-port") {
      if (!need_value(&v)) return false;
      if (!ParseInt<uint16_t>(v, 0, 65535, &options->rest_port)) {
        *error = "bad port: " + v;
        return false;
      }
      rest_port_given = true;
      options->rest_port_given = true;
    } else if (arg == "--rest-bind") {
      if (!need_value(&options->rest_bind_address)) return false;
      if (options->rest_bind_address.empty()) {
        *error = "--rest-bind needs an address";
        return false;
      }
    } else if (arg == "--no-rest") {
      options->rest_enabled = false;
    } else if (arg == "--admin-port") {
      if (!need_value(&v)) return false;
      if (!ParseInt<uint16_t>(v, 0, 65535, &options->admin_port)) {
        *error = "bad port: " + v;
        return false;
      }
      admin_port_given = true;
    } else if (arg == "--admin-bind") {
      if (!need_value(&options->admin_bind_address)) return false;
      if (options->admin_bind_address.empty()) {
        *error = "--admin-bind needs an address";
        return false;
      }
    } else if (arg == "--allowed-hosts") {
      if (!need_value(&v)) return false;
      if (!ParseAllowedHosts(v, &options->allowed_hosts, error)) return false;
    } else if (arg == "--no-admin") {
      options->admin_enabled = false;
    } else if (arg == "--test-controls") {
      options->test_controls = true;
    } else if (arg == "--test-controls-remote") {
      options->test_controls = true;
      options->test_controls_remote = true;
    } else if (arg == "-b" || arg == "--bind") {
      if (!need_value(&options->thrift.bind_address)) return false;
    } else if (arg == "--data-dir") {
      if (!need_value(&options->data_dir)) return false;
    } else if (arg == "--init") {
      if (!need_value(&v)) return false;
      options->init_scripts.push_back(v);
    } else if (arg == "--in-memory") {
      options->in_memory = true;
    } else if (arg == "--sync-writes") {
      options->sync_writes = true;
    } else if (arg == "-f" || arg == "--framed") {
      framed = true;
    } else if (arg == "-c" || arg == "--compact") {
      compact = true;
    } else if (arg == "--http") {
      http = true;
    } else if (arg == "-t" || arg == "--readTimeout" || arg == "--idle-timeout-ms") {
      if (!need_value(&v)) return false;
      if (!ParseInt<int64_t>(v, 0, std::numeric_limits<int64_t>::max() / 2,
                             &options->thrift.idle_timeout_ms)) {
        *error = "bad idle timeout: " + v;
        return false;
      }
    } else if (arg == "--workers") {
      if (!need_value(&v)) return false;
      if (!ParseInt<int>(v, 1, 1024, &options->thrift.event_loops)) {
        *error = "bad worker count: " + v;
        return false;
      }
    } else if (arg == "--call-threads") {
      if (!need_value(&v)) return false;
      if (!ParseInt<int>(v, 0, 4096, &options->thrift.call_threads)) {
        *error = "bad call thread count: " + v;
        return false;
      }
    } else if (arg == "--scanner-timeout-ms") {
      if (!need_value(&v)) return false;
      if (!ParseInt<int64_t>(v, 1, std::numeric_limits<int64_t>::max(),
                             &options->scanner_timeout_ms)) {
        *error = "bad scanner timeout: " + v;
        return false;
      }
    } else if (arg == "--max-message-mb") {
      if (!need_value(&v)) return false;
      size_t mb = 0;
      if (!ParseInt<size_t>(v, 1, 2047, &mb)) {
        *error = "bad message size: " + v;
        return false;
      }
      options->thrift.max_message_bytes = mb * 1024 * 1024;
      options->limits.message_bytes = static_cast<int64_t>(options->thrift.max_message_bytes);
    } else if (arg == "--limit") {
      if (!need_value(&v)) return false;
      if (!ParseLimitAssignment(v, &options->limits, error)) return false;
      options->thrift.max_message_bytes = static_cast<size_t>(options->limits.message_bytes);
    } else if (arg == "--limits") {
      options->print_limits = true;
    } else if (arg == "--version") {
      options->print_version = true;
    } else if (arg == "--health-check") {
      options->health_check = true;
    } else if (arg == "start") {
      // hbase-daemon.sh passes a trailing "start"; HBase ignores it and so do we.
    } else {
      *error = "unknown option: " + std::string(argv[i]);
      return false;
    }
  }
  // A fixture that asks for a free Thrift1 port wants free ports throughout, not a clash on 9091
  // with the next fixture (or a real HBase) on the same machine.
  if (options->thrift.port == 0 && !thrift2_port_given) options->thrift2_port = 0;
  if (options->thrift.port == 0 && !admin_port_given) options->admin_port = 0;
  if (options->thrift.port == 0 && !rest_port_given) options->rest_port = 0;
  if (options->rest_bind_address.empty()) options->rest_bind_address = options->thrift.bind_address;
  if (options->admin_bind_address.empty()) {
    const std::string& bind = options->thrift.bind_address;
    options->admin_bind_address = IsLoopbackAddress(bind)                  ? bind
                                  : bind.find(':') != std::string::npos ? "::1"
                                                                         : "127.0.0.1";
  }
  // A container binds both everywhere; one warning then says it all, where two would read as
  // two separate problems.
  const bool thrift_exposed = !IsLoopbackAddress(options->thrift.bind_address);
  const bool admin_exposed =
      options->admin_enabled && !IsLoopbackAddress(options->admin_bind_address);
  const std::string no_auth = ": there is no authentication, anyone who can reach ";
  // The REST gateway reads and writes data as the Thrift ports do: on their address it is
  // named with them.
  const bool rest_with_thrift =
      options->rest_enabled && options->rest_bind_address == options->thrift.bind_address;
  const std::string data_ports = rest_with_thrift ? "Thrift and REST ports" : "Thrift ports";
  if (thrift_exposed && admin_exposed) {
    const std::string where =
        options->thrift.bind_address == options->admin_bind_address
            ? data_ports + " and admin console on " + options->thrift.bind_address
            : data_ports + " on " + options->thrift.bind_address + " and admin console on " +
                  options->admin_bind_address;
    options->warnings.push_back(where + no_auth +
                                "them can read and write every table and browse every stored cell");
  } else if (thrift_exposed) {
    options->warnings.push_back(data_ports + " on " + options->thrift.bind_address + no_auth +
                                "it can read and write every table");
  } else if (admin_exposed) {
    options->warnings.push_back("admin console on " + options->admin_bind_address + no_auth +
                                "it can browse every stored cell");
  }
  if (options->rest_enabled && !IsLoopbackAddress(options->rest_bind_address) &&
      options->rest_bind_address != options->thrift.bind_address) {
    options->warnings.push_back("REST gateway on " + options->rest_bind_address + no_auth +
                                "it can read and write every table");
  }
  if (options->health_check && (!options->admin_enabled || options->admin_port == 0)) {
    *error = "--health-check asks the admin port's /ready: it needs --admin-port N (default "
             "9095), not --no-admin or a free port";
    return false;
  }
  if (options->test_controls && !options->admin_enabled) {
    *error = "--test-controls serves /control/ on the admin port, which --no-admin turns off";
    return false;
  }
  if (options->test_controls && !options->test_controls_remote) {
    for (const std::string* address : {&options->thrift.bind_address, &options->admin_bind_address}) {
      if (IsLoopbackAddress(*address)) continue;
      *error = "--test-controls lets any caller stop the clock, inject faults and read every call; "
               "it is refused on the non-loopback address " + *address +
               " (use --test-controls-remote to allow it anyway, e.g. inside a container)";
      return false;
    }
  }
  if (options->test_controls_remote) {
    options->warnings.push_back("--test-controls-remote: anyone who can reach the admin port can "
                                "change the clock, inject faults and read the call log");
  }
  WireForcing& forcing = options->thrift.forcing;
  if (http && !options->init_scripts.empty()) {
    *error = "--init runs the shell over Thrift sockets, which --http does not serve";
    return false;
  }
  if (http) {
    if (framed) {
      *error = "--http and --framed cannot be combined: HTTP carries each message in a request";
      return false;
    }
    // As in HBase's HTTP mode, where -c is ignored: bodies are always TBinaryProtocol.
    forcing.transport = WireTransport::kHttp;
    forcing.protocol = WireProtocol::kBinary;
    if (compact) options->warnings.push_back("--compact is ignored with --http (as in HBase)");
  } else if (framed || compact) {
    // HBase's pairs: -f alone is framed + binary, -c alone buffered + compact, both framed +
    // compact; none of them serves HTTP.
    forcing.transport = framed ? WireTransport::kFramed : WireTransport::kBuffered;
    forcing.protocol = compact ? WireProtocol::kCompact : WireProtocol::kBinary;
  }
  return true;
}

}  // namespace hbemu::server
