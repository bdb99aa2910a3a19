// hbase-emulator: HBase's Thrift1 (service Hbase) and Thrift2 (THBaseService) gateways over one
// LevelDB cell store, each on its own port as HBase runs them.

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include <glog/logging.h>

#include "build_info.h"
#include "server/admin/configuration.h"
#include "server/admin/console.h"
#include "server/admin/health_probe.h"
#include "server/admin/http_server.h"
#include "server/admin/metrics.h"
#include "server/control/control_routes.h"
#include "server/control/control_state.h"
#include "server/control/register.h"
#include "server/gateway/free_memory.h"
#include "server/gateway/rest_counters.h"
#include "server/gateway/scanner_registry.h"
#include "server/net/thrift_server.h"
#include "server/options.h"
#include "server/rest/rest_server.h"
#include "server/rest/rest_service.h"
#include "server/thrift1/hbase_handler.h"
#include "server/thrift1/hbase_processor.h"
#include "server/thrift2/thbase_handler.h"
#include "server/thrift2/thbase_processor.h"
#include "shell/init_scripts.h"
#include "storage/cancel.h"
#include "storage/store.h"

using namespace hbemu;

namespace {

// Each connection holds a descriptor; the usual soft limit of 1024 would refuse connections long
// before memory or threads run short, so take what the hard limit allows.
void RaiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  const rlim_t before = limit.rlim_cur;
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) == 0) {
    VLOG(1) << "[main] open-file limit raised from " << before << " to " << limit.rlim_cur;
  }
}

std::string HostName() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof(buf) - 1) != 0 || buf[0] == '\0') return "localhost";
  return buf;
}

// What the port insists on, for the console ("framed, any protocol").
std::string InsistedModes(const server::WireForcing& forcing) {
  const std::string transport =
      forcing.transport ? server::WireTransportName(*forcing.transport) : "any transport";
  const std::string protocol =
      forcing.protocol ? server::WireProtocolName(*forcing.protocol) : "any protocol";
  return transport + ", " + protocol;
}

}  // namespace

int main(int argc, char** argv) {
  server::ConfigureAllocator();
  FLAGS_logtostderr = true;
  google::InitGoogleLogging(argv[0]);

  server::ServerOptions options;
  bool help = false;
  std::string error;
  if (!server::ParseServerOptions(argc, argv, &options, &help, &error)) {
    std::cerr << "hbase-emulator: " << error << "\n" << server::ServerUsage();
    return 2;
  }
  if (help) {
    std::cout << server::ServerUsage();
    return 0;
  }
  if (options.print_version) {
    std::cout << VersionText("hbase-emulator");
    return 0;
  }
  if (options.print_limits) {
    std::cout << DescribeLimits(options.limits);
    return 0;
  }
  if (options.health_check) {
    // Docker keeps a health check's output: one line saying what was asked and what came back.
    const server::admin::HealthProbeResult probe = server::admin::ProbeReady(
        server::admin::ProbeHostFor(options.admin_bind_address), options.admin_port,
        std::chrono::seconds(2));
    std::cout << "hbase-emulator: " << probe.message << std::endl;
    return probe.ready ? 0 : 1;
  }
  SetLimits(options.limits);

  for (const std::string& warning : options.warnings) LOG(WARNING) << "[main] " << warning;
  RaiseOpenFileLimit();

  // Signals are taken synchronously by this thread (sigwait below); every thread started from
  // here on inherits the blocked mask, so none of them is interrupted by SIGTERM/SIGINT.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a client vanishing mid-reply must not kill the server

  const int64_t started_unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count();
  // Counts every call of the Thrift services and the REST door for /metrics and the console.
  server::admin::Metrics metrics;

  // The test controls' clock, faults and call log; absent (and every call's hook a null check)
  // without --test-controls.
  std::unique_ptr<server::control::ControlState> controls;
  if (options.test_controls) {
    controls = std::make_unique<server::control::ControlState>();
    server::admin::Metrics::SetClock(controls->clock());
    options.thrift.call_hook = controls->HookFor("thrift1");
  }

  storage::StoreOptions store_options;
  store_options.path = options.data_dir;
  if (controls) store_options.clock = controls->clock();
  store_options.in_memory = options.in_memory;
  store_options.sync_writes = options.sync_writes;
  store_options.limits = StoreLimitsOf(options.limits);
  std::unique_ptr<storage::Store> store;
  storage::Status s = storage::Store::Open(store_options, &store);
  if (!s.ok()) {
    LOG(ERROR) << "[main] cannot open the store: " << s.ToString();
    return 1;
  }
  LOG(INFO) << "[main] store open: "
            << (options.in_memory ? std::string("in memory") : "data in " + options.data_dir);

  // Series for existing tables only; heat maps count per region from a table's first call.
  const storage::Store* catalog = store.get();
  metrics.SetTableCatalog(
      [catalog](std::string_view table) -> std::optional<std::vector<std::string>> {
        std::shared_ptr<const storage::TableDescriptor> descriptor;
        if (!catalog->DescribeTable(table, &descriptor).ok()) return std::nullopt;
        return descriptor->split_keys;
      },
      [catalog] {
        std::vector<std::string> names;
        for (const auto& table : catalog->ListTables()) names.push_back(table->name.ToString());
        return names;
      });

  const std::string host_name = HostName();
  // Each service keeps its own scanners and ids, as HBase's two gateway processes do.
  auto scanners = std::make_unique<server::ScannerRegistry>(store->clock(),
                                                            options.scanner_timeout_ms);
  server::HbaseHandler::Options handler_options;
  handler_options.server_name = host_name;
  auto handler = std::make_shared<server::HbaseHandler>(store.get(), scanners.get(),
                                                        handler_options);
  auto processor = std::make_shared<server::HbaseProcessor>(handler, &metrics);
  auto thrift_server = std::make_unique<server::ThriftServer>(options.thrift, processor);
  if (!thrift_server->Start(&error)) {
    LOG(ERROR) << "[main] cannot serve Thrift1: " << error;
    return 1;
  }

  std::unique_ptr<server::ScannerRegistry> thrift2_scanners;
  std::unique_ptr<server::ThriftServer> thrift2_server;
  if (options.thrift2_enabled) {
    thrift2_scanners = std::make_unique<server::ScannerRegistry>(store->clock(),
                                                                 options.scanner_timeout_ms);
    server::ThbaseHandler::Options thrift2_options;
    thrift2_options.server_name = host_name;
    thrift2_options.start_code = store->clock()->NowMillis();
    auto thrift2_handler = std::make_shared<server::ThbaseHandler>(
        store.get(), thrift2_scanners.get(), thrift2_options);
    server::ThriftServerConfig thrift2_config = options.thrift;
    thrift2_config.port = options.thrift2_port;
    if (controls) thrift2_config.call_hook = controls->HookFor("thrift2");
    thrift2_server = std::make_unique<server::ThriftServer>(
        thrift2_config, std::make_shared<server::ThbaseProcessor>(thrift2_handler, &metrics));
    if (!thrift2_server->Start(&error)) {
      LOG(ERROR) << "[main] cannot serve Thrift2: " << error;
      return 1;
    }
  }

  // HBase's REST gateway over the same store. Its default port (8080) is a common one: when
  // it was not asked for and is taken, the server runs without REST rather than not at all.
  std::unique_ptr<server::RestCounters> rest_counters;
  std::unique_ptr<server::rest::RestService> rest_service;
  std::unique_ptr<server::rest::RestServer> rest_server;
  if (options.rest_enabled) {
    rest_counters = server::rest::MakeRestCounters();
    server::rest::RestServiceOptions rest_options;
    rest_options.server_name = host_name;
    rest_options.server_port = 16020;
    rest_options.start_code = store->clock()->NowMillis();
    rest_options.emulator_version = kProjectVersion;
    rest_service = std::make_unique<server::rest::RestService>(store.get(), rest_options);
    rest_server = std::make_unique<server::rest::RestServer>(
        options.rest_bind_address, options.rest_port, rest_service.get(), rest_counters.get(),
        options.allowed_hosts);
    rest_server->SetMetrics(&metrics);
    if (controls) rest_server->SetCallGate(controls->GateFor("rest"));
    if (!rest_server->Start(&error)) {
      if (options.rest_port_given) {
        LOG(ERROR) << "[main] cannot serve REST: " << error;
        return 1;
      }
      LOG(WARNING) << "[main] no REST gateway: " << error
                   << " (give --rest-port N for another port, or --no-rest)";
      rest_server.reset();
    }
  }

  if (!options.init_scripts.empty()) {
    // The scripts talk to this server's own ports as any client would, so what they create is
    // exactly what a client's create would make.
    shell::ConnectionOptions init;
    init.host = options.thrift.bind_address == "0.0.0.0" ? "127.0.0.1"
                : options.thrift.bind_address == "::"    ? "::1"
                                                         : options.thrift.bind_address;
    init.port = thrift_server->port();
    init.thrift2_port = thrift2_server ? thrift2_server->port() : 0;
    init.framed = options.thrift.forcing.transport == server::WireTransport::kFramed;
    init.compact = options.thrift.forcing.protocol == server::WireProtocol::kCompact;
    std::ostringstream log;
    const bool ok = shell::RunInitScripts(options.init_scripts, init, log, &error);
    std::istringstream lines(log.str());
    for (std::string line; std::getline(lines, line);) LOG(INFO) << "[init] " << line;
    if (!ok) {
      LOG(ERROR) << "[main] --init failed: " << error;
      return 1;
    }
  }

  // The console comes last: once it answers /ready, every port is serving.
  std::unique_ptr<server::admin::Console> console;
  std::unique_ptr<server::admin::HttpServer> admin_server;
  server::control::ControlRoutes control_routes;
  if (options.admin_enabled) {
    server::admin::ConsoleSources sources;
    sources.store = store.get();
    sources.metrics = &metrics;
    sources.version = std::string(kProjectVersion) + " (commit " + kGitCommit + ")";
    sources.data_dir = options.data_dir;
    sources.in_memory = options.in_memory;
    sources.bind_address = options.thrift.bind_address;
    sources.admin_bind_address = options.admin_bind_address;
    sources.started_unix_ms = started_unix_ms;
    const std::string modes = InsistedModes(options.thrift.forcing);
    sources.services.push_back({"thrift1", thrift_server->port(), modes, &thrift_server->stats(),
                                scanners.get()});
    if (thrift2_server) {
      sources.services.push_back({"thrift2", thrift2_server->port(), modes,
                                  &thrift2_server->stats(), thrift2_scanners.get()});
    }
    if (controls) {
      server::control::ControlState* state = controls.get();
      sources.control_metrics = [state] { return state->PrometheusText(); };
      // The pages read the controls through their own GET routes (registered below, before
      // the console serves), so a page shows what the JSON API answers.
      sources.control_get = [&control_routes](const std::string& target) {
        return control_routes.Handle("GET", target, "", /*loopback_peer=*/true,
                                     /*allow_remote=*/true);
      };
    }
    // The admin server is made below, after the console it serves; /metrics reads it once both are.
    sources.rest_counters = rest_counters.get();
    sources.admin_refused_connections = [&admin_server] {
      return admin_server ? admin_server->refused_connections() : 0;
    };
    sources.configuration = server::admin::ConfigurationJson(
        options, std::vector<std::string>(argv + 1, argv + argc), VersionText("hbase-emulator"));
    console = std::make_unique<server::admin::Console>(std::move(sources));
    server::admin::Console* console_ptr = console.get();
    admin_server = std::make_unique<server::admin::HttpServer>(
        options.admin_bind_address, options.admin_port,
        [console_ptr](const std::string& method, const std::string& target) {
          return console_ptr->Handle(method, target);
        });
    admin_server->SetAllowedHosts(options.allowed_hosts);
    if (options.test_controls) {
      server::control::ControlContext control_context;
      control_context.store = store.get();
      control_context.state = controls.get();
      server::ScannerRegistry* registries[] = {scanners.get(), thrift2_scanners.get()};
      for (server::ScannerRegistry* registry : registries) {
        if (registry != nullptr) controls->OnClockChange([registry] { registry->ClockChanged(); });
      }
      server::control::RegisterControlRoutes(&control_routes, control_context);
      const bool allow_remote = options.test_controls_remote;
      admin_server->SetControlHandler([&control_routes, allow_remote](
                                          const std::string& method, const std::string& target,
                                          const std::string& body, bool loopback_peer) {
        return control_routes.Handle(method, target, body, loopback_peer, allow_remote);
      });
      LOG(WARNING) << "[main] test controls on: /control/ on the admin port changes the clock, "
                      "injects faults and logs calls";
    }
    if (!admin_server->Start(&error)) {
      LOG(ERROR) << "[main] cannot serve the admin console: " << error;
      return 1;
    }
    console->SetAdminPort(admin_server->port());
  }

  // The one line test fixtures and scripts wait for: the Thrift1 address first (as before
  // Thrift2 existed), then the other ports as name=address.
  std::cout << "hbase-emulator ready on "
            << server::HostPort(options.thrift.bind_address, thrift_server->port());
  if (thrift2_server) {
    std::cout << " thrift2="
              << server::HostPort(options.thrift.bind_address, thrift2_server->port());
  }
  if (admin_server) {
    std::cout << " admin=" << server::HostPort(options.admin_bind_address, admin_server->port());
  }
  if (rest_server) {
    std::cout << " rest=" << server::HostPort(options.rest_bind_address, rest_server->port());
  }
  std::cout << std::endl;

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  LOG(INFO) << "[main] " << (signal_number == SIGTERM ? "SIGTERM" : "SIGINT")
            << ": shutting down";
  // Calls that could run on for minutes (a scan its filter keeps empty) end at their next row
  // with an error reply, inside Stop's wait for calls in flight.
  hbemu::storage::RequestStop();
  // The console reads the store and the servers' figures: it stops first.
  if (admin_server) admin_server->Stop();
  admin_server.reset();
  console.reset();
  if (rest_server) rest_server->Stop();
  rest_server.reset();
  rest_service.reset();
  // In-flight calls finish and reply first.
  if (thrift2_server) thrift2_server->Stop();
  thrift_server->Stop();
  thrift2_server.reset();
  thrift_server.reset();
  thrift2_scanners.reset();
  scanners.reset();
  store.reset();  // closes LevelDB; every acknowledged write is in its log
  LOG(INFO) << "[main] stopped cleanly";
  return 0;
}
