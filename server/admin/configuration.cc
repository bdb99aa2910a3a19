#include "server/admin/configuration.h"

#include <sstream>

#include "server/admin/console.h"
#include "server/limits.h"

namespace hbemu::server::admin {

using nlohmann::json;

json ConfigurationJson(const ServerOptions& options, const std::vector<std::string>& args,
                       const std::string& version_text) {
  json j;
  j["command_line"] = args;
  json version = json::array();
  std::istringstream lines(version_text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) version.push_back(line);
  }
  j["version"] = version;
  j["data"] = options.in_memory ? json("in memory") : json(options.data_dir);
  const ThriftServerConfig& thrift = options.thrift;
  // The settings in force, each as its flag names it; 0 where the flag's 0 means "automatic"
  // is spelt out so the page does not show a bare 0.
  json settings = json::array();
  auto add = [&settings](const std::string& flag, json value, const std::string& note = "") {
    json s{{"flag", flag}, {"value", std::move(value)}};
    if (!note.empty()) s["note"] = note;
    settings.push_back(std::move(s));
  };
  add("--bind", thrift.bind_address);
  add("--admin-bind", options.admin_bind_address.empty() ? thrift.bind_address
                                                          : options.admin_bind_address);
  add("--idle-timeout-ms", thrift.idle_timeout_ms,
      thrift.idle_timeout_ms == 0 ? "idle connections are never closed" : "");
  add("--workers", thrift.event_loops, thrift.event_loops == 0 ? "half the cores" : "");
  add("--call-threads", thrift.call_threads,
      thrift.call_threads == 0 ? "every call on the event loops" : "");
  add("--scanner-timeout-ms", options.scanner_timeout_ms);
  add("--sync-writes", options.sync_writes);
  j["settings"] = settings;
  j["init_scripts"] = options.init_scripts;
  j["warnings"] = options.warnings;
  j["test_controls_remote"] = options.test_controls_remote;
  return j;
}

json Console::Configuration() const {
  json j = sources_.configuration;
  const std::string admin_host = sources_.admin_bind_address.empty()
                                     ? sources_.bind_address
                                     : sources_.admin_bind_address;
  json doors = json::array();
  for (const ServicePort& s : sources_.services) {
    doors.push_back({{"name", s.name},
                     {"address", HostPort(sources_.bind_address, s.port)},
                     {"serves", s.name == "thrift1" ? "HBase's Hbase service (Thrift1)"
                                                    : "HBase's THBaseService (Thrift2)"},
                     {"speaks", s.modes}});
  }
  doors.push_back({{"name", "admin"},
                   {"address", HostPort(admin_host, sources_.admin_port)},
                   {"serves", "this console, /api/, /metrics, /health, /ready"},
                   {"speaks", "HTTP"}});
  const bool controls = static_cast<bool>(sources_.control_get);
  const bool remote = j.value("test_controls_remote", false);
  doors.push_back({{"name", "control"},
                   {"address", controls ? HostPort(admin_host, sources_.admin_port) + "/control/"
                                        : std::string("off")},
                   {"serves", "the test controls: clock, faults, call log, snapshots"},
                   {"speaks", controls ? (remote ? "HTTP, from any caller (--test-controls-remote)"
                                                 : "HTTP, from this machine only")
                                       : "off (--test-controls turns it on)"}});
  j["doors"] = doors;
  j["test_controls"] = controls;
  const Limits defaults;
  const Limits& current = CurrentLimits();
  json limits = json::array();
  for (const LimitInfo& info : AllLimits()) {
    limits.push_back({{"name", info.name},
                      {"value", current.*info.field},
                      {"default", defaults.*info.field},
                      {"unit", info.unit},
                      {"meaning", info.meaning}});
  }
  j["limits"] = limits;
  return j;
}

}  // namespace hbemu::server::admin
