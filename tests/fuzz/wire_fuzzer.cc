// libFuzzer target: bytes a client could send, through everything a connection does with them.
// The input goes to a WireSession in pieces, exactly as a socket would deliver it: format
// detection (buffered/framed, binary/compact, HTTP), framing, message skimming, HTTP parsing,
// Thrift decoding in the generated processor, and the real HbaseHandler over an in-memory Store.
// Any crash, sanitizer report or leak fails the run; a refused input is a normal outcome.
//
// The first input byte picks how the rest is cut into reads (1 to 256 bytes, or all at once), so
// partial-message paths are exercised as well as whole messages.

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include <glog/logging.h>
#include <thrift/TConfiguration.h>

#include "Hbase.h"
#include "server/thrift1/hbase_handler.h"
#include "server/thrift1/hbase_processor.h"
#include "server/gateway/scanner_registry.h"
#include "server/net/wire_session.h"
#include "storage/store.h"

namespace {

using hbemu::server::WireSession;

// Messages are capped well below libFuzzer's input sizes, so the size checks are reachable.
constexpr size_t kMaxMessageBytes = 64 * 1024;
// The store accumulates what inputs write; a fresh one every so often keeps runs comparable and
// memory bounded.
constexpr int kRunsPerStore = 2000;

struct Backend {
  std::unique_ptr<hbemu::storage::Store> store;
  std::unique_ptr<hbemu::server::ScannerRegistry> scanners;
  std::shared_ptr<hbemu::server::HbaseProcessor> processor;
  std::shared_ptr<apache::thrift::TConfiguration> thrift_config;

  Backend() {
    hbemu::storage::StoreOptions options;
    options.in_memory = true;
    hbemu::storage::Status s = hbemu::storage::Store::Open(options, &store);
    if (!s.ok()) {
      LOG(FATAL) << "cannot open an in-memory store: " << s.ToString();
    }
    // A table seeds can address by name, so calls reach storage rather than stopping at
    // "table not found".
    hbemu::storage::FamilyDescriptor family;
    family.name = "f";
    family.max_versions = 3;
    (void)store->CreateTable("t", {family});
    scanners = std::make_unique<hbemu::server::ScannerRegistry>(store->clock(), 60000);
    hbemu::server::HbaseHandler::Options handler_options;
    handler_options.server_name = "fuzz";
    auto handler = std::make_shared<hbemu::server::HbaseHandler>(store.get(), scanners.get(),
                                                                 handler_options);
    processor = std::make_shared<hbemu::server::HbaseProcessor>(handler);
    thrift_config = std::make_shared<apache::thrift::TConfiguration>(
        static_cast<int>(kMaxMessageBytes));
  }
};

std::unique_ptr<Backend> backend;
int runs = 0;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  FLAGS_minloglevel = 3;  // refused inputs log warnings by design; keep the fuzzer's output quiet
  google::InitGoogleLogging("wire_fuzzer");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (!backend || ++runs % kRunsPerStore == 0) {
    backend.reset();
    backend = std::make_unique<Backend>();
  }
  const size_t piece = data[0] == 0 ? size : data[0];
  ++data;
  --size;

  hbemu::server::WireSessionConfig config;
  config.max_message_bytes = kMaxMessageBytes;
  WireSession session(config, backend->processor.get(), backend->thrift_config, "fuzz");
  size_t at = 0;
  // Each step either consumes input or produces output, so this ends; the bound is a backstop.
  for (int steps = 0; steps < 100000; ++steps) {
    WireSession::Step step = session.Next();
    if (step.action == WireSession::Step::Action::kClose) break;
    if (step.action == WireSession::Step::Action::kWrite) {
      size_t total = 0;
      for (const auto& span : step.write) total += span.size;
      if (total == 0) __builtin_trap();  // a write step always carries bytes
      session.Written();
      continue;
    }
    if (at == size) break;  // the client stops sending; the connection would wait or time out
    size_t room = 0;
    uint8_t* into = session.ReadSpace(&room);
    const size_t n = std::min({room, piece, size - at});
    std::memcpy(into, data + at, n);
    session.Received(n);
    at += n;
  }
  return 0;
}
