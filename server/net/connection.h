#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "server/net/call_threads.h"
#include "server/net/event_loop.h"
#include "server/net/thrift_server.h"
#include "server/net/wire_session.h"

namespace apache::thrift {
class TConfiguration;
}

// The connection side of ThriftServer (thrift_server.cc): what connections share, and one
// client socket. Internal to server/net.
namespace hbemu::server {

class Connection;

using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

// What connections share: settings, the processor, the event loops and the call threads.
// Everything but the connection set is immutable while serving.
struct ServerCore {
  explicit ServerCore(ThriftServerConfig server_config);

  ThriftServerConfig config;
  // Limits::write_timeout_ms, message_timeout_ms and connections when the server was made;
  // 0 = never (no limit).
  int64_t write_timeout_ms = 0;
  int64_t message_timeout_ms = 0;
  int64_t max_connections = 0;
  WireSessionConfig session_config;
  WireStats stats;
  std::shared_ptr<apache::thrift::TProcessor> processor;
  std::shared_ptr<apache::thrift::TConfiguration> thrift_config;
  // Half the cores by default; loops[0] also runs the acceptor and the idle sweep.
  std::vector<std::unique_ptr<EventLoop>> loops;
  // Threads that take connections calling back to back; null when config.call_threads is 0.
  std::unique_ptr<CallThreads> call_threads;

  // Guards the set; live_cv tells Stop() when it empties.
  std::mutex mu;
  std::condition_variable live_cv;
  std::unordered_set<std::shared_ptr<Connection>> connections;

  // The loop with the fewest open connections, so long-lived clients spread evenly.
  EventLoop* LeastLoadedLoop();
  void Add(std::shared_ptr<Connection> conn);
  size_t Count();
  void Remove(const std::shared_ptr<Connection>& conn);
  // The connections open now, to act on outside the lock.
  std::vector<std::shared_ptr<Connection>> Snapshot();
};

// One client socket, served by one event loop for its whole life. Everything it does runs on its
// own strand (the loop's standby thread may run it too), so its state needs no lock; a call runs
// on the thread that read its last bytes.
//
// A connection whose next call arrives right after its last reply (a client calling back to
// back) is handed to a call thread, which serves it with blocking recv/send, as a
// thread-per-connection server does: two system calls per call and a direct wake-up, where the
// event loop needs epoll and a failed speculative read as well. The thread hands the connection
// back to its loop once it has been quiet for a moment, so idle connections hold no thread.
// While a call thread drives it (`driven_`, only changed on the strand), strand handlers leave
// its state alone, and its descriptor is out of the event loop's epoll set: asio registers
// every socket for edge-triggered readiness, so each call arriving on a driven socket would
// otherwise wake the sleeping loop thread for nothing (measured: 0.45 wake-ups per call, a
// third of the server's context switches at 4 connections).
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(ServerCore* core, EventLoop* loop, boost::asio::ip::tcp::socket socket);
  ~Connection();

  // Any thread.
  void Start();

  EventLoop* loop() const { return loop_; }

  // Any thread. The server is stopping: an idle connection closes now, a busy one after its
  // reply.
  void OnServerStopping();

  // Any thread: closes the connection if it has waited for its client's next bytes longer than
  // the idle timeout, or for its client to take any of a reply longer than the write timeout or
  // the idle timeout (a client that stops reading is idle too), or if a request begun or a reply
  // being written has taken longer than the message timeout as a whole.
  void CloseIfStalled(int64_t now_ms);

  // On the strand, on the call thread driving it, or once no thread runs the event loop.
  void Close();

 private:
  static std::string PeerOf(const boost::asio::ip::tcp::socket& socket);

  // Lets the session run the next buffered call, or reads more. Called whenever the connection is
  // idle and something changed.
  void Pump();
  // An HTTP client may still be sending (a body we refused, a header over the limit) when its
  // error response goes out; closing a socket with unread bytes resets it, and the client may
  // lose the response. So stop sending, discard what still arrives, and close on the client's
  // EOF or after kLingerTime, as HTTP servers do.
  void Linger();
  void DiscardInput();
  void ReadMore();
  void OnRead(const boost::system::error_code& ec, size_t n);
  // Logs why the session ends the connection (nothing for a normal end).
  void LogCloseReason(const std::string& reason) const;
  // The client's stream ended (`error` empty) or failed with `error`: says which, and closes.
  // Shared by the event loop's reads and a call thread's.
  void CloseForReadEnd(const std::string& error);
  // Sends a reply with one non-blocking send and returns true when all of it went out, which is
  // the usual case: finishing inline saves a trip through the event loop (one epoll_wait and a
  // handler) per call. Whatever the socket does not take at once is written asynchronously.
  bool WriteNow(const std::vector<WireSession::Span>& spans);
  // Writes pending_ piece by piece, so that each piece the client takes marks progress for the
  // write timeout.
  void WriteRest();
  void OnWriteSome(const boost::system::error_code& ec, size_t n);
  void OnWritten();
  // Why the connection is to be closed at `now_ms` (the timeout that ran out), or null.
  const char* StallReason(int64_t now_ms) const;
  void NoteReplySent();
  // On the strand or the driving call thread: a whole message arrived, or the connection waits
  // for more of one (sets the message clock when a message has begun).
  void NoteMessageDone() { message_since_ms_.store(0, std::memory_order_relaxed); }
  void NoteWaiting(int64_t now_ms);
  // On the driving call thread, before it waits for more of a request: false (with a log line)
  // when the request has taken longer than the message timeout.
  bool RequestInTime();

  // On the strand: hands the connection to a call thread if it calls back to back and one is
  // free. True when it did.
  bool TryHandToCallThread();
  // On the call thread: serves calls with blocking socket calls until the client is quiet for
  // kDriveQuiet, the connection ends, or the server stops.
  void Drive();
  // False when the connection is to be closed: the send failed, the client took none of it for
  // the write timeout (or the idle timeout), or the server stops.
  bool SendAll(const std::vector<WireSession::Span>& spans);
  // How long a call thread's send may go without the client taking anything (the shorter of
  // the write and idle timeouts; 0: forever), and which of the two that is.
  int64_t SendDeadlineMs() const;
  const char* SendDeadlineName() const;
  // On the call thread: gives the connection back to its loop.
  void HandBack();
  // On the strand: takes the descriptor out of asio (and its epoll set) for a call thread, and
  // gives it back. Release fails only for a socket that is not open.
  bool ReleaseDescriptor();
  bool ReassignDescriptor();

  ServerCore* const core_;
  EventLoop* const loop_;
  Strand strand_;
  boost::asio::ip::tcp::socket socket_;
  const boost::asio::ip::tcp protocol_;  // to hand a released descriptor back to socket_
  // The descriptor while a call thread drives the connection (socket_ is then empty), else -1.
  int driven_fd_ = -1;
  WireSession session_;
  boost::asio::steady_timer linger_timer_;
  uint8_t discard_[4096];

  // When the connection started waiting for bytes (steady ms), or 0 while it is not waiting.
  // Written on the strand, read by the idle sweep.
  std::atomic<int64_t> waiting_since_ms_{0};
  // While a reply is written asynchronously: when the client last took some of it (steady ms);
  // else 0. Written on the strand, read by the idle sweep.
  std::atomic<int64_t> write_stalled_since_ms_{0};
  // The message timeout's clocks, which no progress restarts: when the request being received
  // began to arrive (0: none begun), and when the reply being written asynchronously began
  // (0: none). Without them a client sending one byte of a request every few seconds, or taking
  // one TCP window of a reply every few seconds, held its connection (and its buffers, or a
  // call thread) forever. Written on the strand or the driving call thread, read by the sweep.
  std::atomic<int64_t> message_since_ms_{0};
  std::atomic<int64_t> reply_since_ms_{0};
  // The rest of the reply being written asynchronously.
  std::vector<boost::asio::const_buffer> pending_;
  // Set (on the strand) while a call thread serves the connection.
  std::atomic<bool> driven_{false};
  // The server is stopping; read by the call thread between calls.
  std::atomic<bool> stop_requested_{false};
  bool blocking_options_set_ = false;  // receive and send timeouts, set once
  int64_t last_reply_us_ = 0;  // steady clock, when the last reply went out on the loop
  bool busy_ = false;  // a reply is being written
  bool closed_ = false;
  bool close_after_reply_ = false;
  bool lingering_ = false;
};

}  // namespace hbemu::server
