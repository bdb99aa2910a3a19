#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "server/net/call_hook.h"
#include "server/net/wire_format.h"
#include "server/net/wire_stats.h"

namespace apache::thrift {
class TProcessor;
}

namespace hbemu::server {

// Wire settings every connection of one server uses.
struct ThriftServerConfig {
  std::string bind_address = "127.0.0.1";
  uint16_t port = 9090;  // 0 asks the kernel for a free port; see ThriftServer::port().
  // Parts of the wire format the server insists on; the rest is detected per connection.
  WireForcing forcing;
  // Event loops, each with its own thread that runs its connections' calls, plus one standby
  // thread; 0 = half the cores (at least one), leaving the rest to clients on the same machine.
  int event_loops = 0;
  // Most threads that take a connection calling back to back off its event loop and serve it
  // with blocking socket calls until it goes quiet; 0 serves every call on the event loops.
  int call_threads = 64;
  // Largest message accepted; a bigger frame or message closes that connection with a log line.
  size_t max_message_bytes = 100u * 1024 * 1024;
  // A connection that sends nothing for this long while the server waits for its next bytes is
  // closed, as HBase's thread-pool server does (hbase.thrift.server.socket.read.timeout).
  // 0 keeps idle connections forever.
  int64_t idle_timeout_ms = 60000;
  // Sees every call before and after it runs (the test controls); null for none. Outlives the
  // server.
  CallHook* call_hook = nullptr;
};

// Serves one Thrift service over TCP. Boost.Asio owns sockets; each connection's WireSession
// tells its transport and protocol from the first bytes (buffered or framed, binary or compact,
// or Thrift over HTTP), finds complete messages and runs them through the processor on the
// event-loop thread that read them, so a call costs no thread hand-off. There are event_loops
// loops; each accepted connection is served by the loop with the fewest open
// connections, and loops share only the processor (and so the store). Whenever every thread of a
// loop has been inside a call for a millisecond, its standby thread has a call thread join it,
// so long calls stall the other connections of their loop for about that long at most, however
// many run at once. A connection whose client calls back to back moves to a call thread of its
// own (up to call_threads of them) until it is quiet for 50 ms: a thread-per-connection server's
// two system calls per call, without its thread per idle connection. No thread is held by an idle connection; one that stays idle
// past idle_timeout_ms is closed, and so is one whose client takes none of its reply for
// Limits::write_timeout_ms or idle_timeout_ms, whichever is shorter, and one whose request has
// not all arrived, or whose reply has not all been taken, Limits::message_timeout_ms after it
// began (progress restarts the idle and write timeouts, never this one). Past
// Limits::connections open connections, a new one is closed as soon as it is accepted.
//
// Each connection runs its calls strictly one at a time, in arrival order. A malformed message,
// a process() failure, or a message/frame over max_message_bytes closes only that connection,
// with a WARNING naming the peer (see WireSession for the rest of the per-connection rules,
// and for the buffers a connection keeps).
//
// Start and Stop are called from one controlling thread. Start at most once per object.
class ThriftServer {
 public:
  ThriftServer(ThriftServerConfig config, std::shared_ptr<apache::thrift::TProcessor> processor);
  ~ThriftServer();  // calls Stop()
  ThriftServer(const ThriftServer&) = delete;
  ThriftServer& operator=(const ThriftServer&) = delete;

  // Binds, listens and starts serving on background threads. On failure returns false and
  // describes the problem in *error.
  bool Start(std::string* error);

  // The bound port (useful after asking for port 0). Valid after a successful Start.
  uint16_t port() const;

  // Open connections served by each event loop, in loop order.
  std::vector<int> ConnectionsPerLoop() const;
  // Call threads serving a connection now (each holds one connection calling back to back);
  // call threads helping an event loop through long calls are not counted.
  size_t BusyCallThreads() const;

  // This port's traffic so far (connections by format, bytes); valid for the object's life.
  const WireStats& stats() const;

  // Stops accepting and closes idle connections at once; lets calls already executing finish and
  // their replies go out (waiting up to 5 s for them), then closes all connections and joins every
  // thread. A handler call still running after that delays the join until it returns.
  // Idempotent.
  void Stop();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hbemu::server
