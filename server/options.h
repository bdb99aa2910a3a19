#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/limits.h"
#include "server/net/thrift_server.h"

namespace hbemu::server {

// Everything the hbase-emulator process can be told on its command line.
struct ServerOptions {
  ThriftServerConfig thrift;  // the Thrift1 (Hbase) port; its wire settings apply to both ports
  // The Thrift2 (THBaseService) port: HBase runs it as a second gateway, 9091 here by default.
  bool thrift2_enabled = true;
  uint16_t thrift2_port = 9091;
  // The admin HTTP console and /metrics (HBase's Thrift info port). It shows every stored cell,
  // so it stays on loopback unless --admin-bind asks otherwise: on the Thrift bind address when
  // that is loopback, else 127.0.0.1 (::1 for an IPv6 bind address).
  bool admin_enabled = true;
  uint16_t admin_port = 9095;
  std::string admin_bind_address;
  // HBase's REST gateway (Stargate), 8080 as HBase's hbase.rest.port. It reads and writes data
  // as the Thrift ports do, so it listens on the --bind address unless --rest-bind says
  // otherwise.
  bool rest_enabled = true;
  uint16_t rest_port = 8080;
  std::string rest_bind_address;
  bool rest_port_given = false;  // --rest-port was on the command line
  // --allowed-hosts: names a request's Host may carry on the admin port beyond localhost, IP
  // addresses and single-label names (server/net/browser_requests.h).
  std::vector<std::string> allowed_hosts;
  std::string data_dir = "data";
  bool in_memory = false;
  bool sync_writes = false;  // fsync every write: survives power loss, not just a crash
  // HBase's Thrift1 gateway keeps an idle scanner for 2 x hbase.client.scanner.timeout.period.
  int64_t scanner_timeout_ms = 120000;
  // HBase shell scripts run against the server's own ports before it reports ready (--init).
  std::vector<std::string> init_scripts;
  // Every resource bound a client can reach (--limit NAME=VALUE; --max-message-mb sets
  // message_bytes). main() installs them with SetLimits before serving.
  Limits limits;
  // The test control surface (/control/ on the admin port: clock, faults, call log, snapshots).
  // Off unless asked for; refused on a non-loopback --bind or --admin-bind unless
  // --test-controls-remote also lifts the loopback-peer rule (a container's published port).
  bool test_controls = false;
  bool test_controls_remote = false;
  // --limits: print the limits table and exit.
  bool print_limits = false;
  // --version: print the version, commit and library versions and exit.
  bool print_version = false;
  // --health-check: ask a running server's /ready on admin_port and exit 0 or 1, so a
  // container's HEALTHCHECK needs no shell or curl in the image.
  bool health_check = false;
  // Accepted but worth telling the user about (e.g. a flag HBase would ignore too).
  std::vector<std::string> warnings;
};

// Parses argv (flags as in HBase's Thrift server where they overlap: --port/-p, --bind/-b,
// --framed/-f, --compact/-c, --readTimeout/-t; plus --thrift2-port, --no-thrift2, --rest-port, --rest-bind, --no-rest, --admin-port,
// --admin-bind, --allowed-hosts, --no-admin, --http, --data-dir, --in-memory, --workers, --call-threads, --scanner-timeout-ms,
// --max-message-mb, --limit, --limits, --init, --test-controls, --test-controls-remote, --version, --health-check).
// Returns false with a message in *error for an unknown flag or a bad value; sets *help when
// --help/-h was given.
bool ParseServerOptions(int argc, char** argv, ServerOptions* options, bool* help,
                        std::string* error);

// True when `address` (a literal or "localhost") can only be reached from this machine.
bool IsLoopbackAddress(const std::string& address);

// "host:port", with an IPv6 literal in brackets so the port stays readable.
std::string HostPort(const std::string& host, uint16_t port);

// The usage text printed for --help.
std::string ServerUsage();

}  // namespace hbemu::server
