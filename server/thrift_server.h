#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace apache::thrift {
class TProcessor;
}

namespace hbemu::server {

// Wire settings every connection of one server uses.
struct ThriftServerConfig {
  std::string bind_address = "127.0.0.1";
  uint16_t port = 9090;  // 0 asks the kernel for a free port; see ThriftServer::port().
  bool framed = false;   // 4-byte big-endian length before each message (HBase -f)
  bool compact = false;  // TCompactProtocol instead of TBinaryProtocol (HBase -c)
  int worker_threads = 0;  // threads for the event loop and calls; 0 = max(2, cores)
  // Largest message accepted; a bigger frame or message closes that connection with a log line.
  size_t max_message_bytes = 100u * 1024 * 1024;
};

// Serves one Thrift service over TCP. Boost.Asio owns sockets and framing; a complete message
// goes to the Thrift processor over an in-memory buffer on the event-loop thread that read it,
// so a call costs no thread hand-off. The other worker_threads - 1 threads stand by and join the
// loop whenever every thread in it has been inside the same calls for a millisecond, so a long
// call stalls the other connections for about that long at most. No thread is held by an idle
// connection.
//
// Each connection runs its calls strictly one at a time, in arrival order. Because every message
// is parsed from its own fresh buffer, libthrift 0.17's cumulative per-connection byte budget
// (THRIFT-5492, which drops long-lived buffered/framed connections after ~100-170 MB) never
// applies. A malformed message, a process() failure, or a message/frame over max_message_bytes
// closes only that connection, with a WARNING naming the peer.
//
// The generated C++ processor turns any undeclared handler exception into
// TApplicationException(UNKNOWN, what()); the server rewrites such replies to what HBase's Java
// server sends, TApplicationException(INTERNAL_ERROR, "Internal error processing <method>"), and
// logs the original message.
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
