// hbase-emulator: HBase's Thrift1 gateway (service Hbase) over a LevelDB cell store.

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>

#include <glog/logging.h>

#include "server/thrift1/hbase_handler.h"
#include "server/thrift1/hbase_processor.h"
#include "server/options.h"
#include "server/gateway/scanner_registry.h"
#include "server/net/thrift_server.h"
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

}  // namespace

int main(int argc, char** argv) {
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

  storage::StoreOptions store_options;
  store_options.path = options.data_dir;
  store_options.in_memory = options.in_memory;
  store_options.sync_writes = options.sync_writes;
  std::unique_ptr<storage::Store> store;
  storage::Status s = storage::Store::Open(store_options, &store);
  if (!s.ok()) {
    LOG(ERROR) << "[main] cannot open the store: " << s.ToString();
    return 1;
  }
  LOG(INFO) << "[main] store open: "
            << (options.in_memory ? std::string("in memory") : "data in " + options.data_dir);

  auto scanners = std::make_unique<server::ScannerRegistry>(store->clock(),
                                                            options.scanner_timeout_ms);
  server::HbaseHandler::Options handler_options;
  handler_options.server_name = HostName();
  auto handler = std::make_shared<server::HbaseHandler>(store.get(), scanners.get(),
                                                        handler_options);
  auto processor = std::make_shared<server::HbaseProcessor>(handler);
  auto thrift_server = std::make_unique<server::ThriftServer>(options.thrift, processor);
  if (!thrift_server->Start(&error)) {
    LOG(ERROR) << "[main] cannot serve: " << error;
    return 1;
  }
  // The one line test fixtures and scripts wait for.
  std::cout << "hbase-emulator ready on " << options.thrift.bind_address << ":"
            << thrift_server->port() << std::endl;

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  LOG(INFO) << "[main] " << (signal_number == SIGTERM ? "SIGTERM" : "SIGINT")
            << ": shutting down";
  thrift_server->Stop();  // in-flight calls finish and reply first
  thrift_server.reset();
  scanners.reset();
  store.reset();  // closes LevelDB; every acknowledged write is in its log
  LOG(INFO) << "[main] stopped cleanly";
  return 0;
}
