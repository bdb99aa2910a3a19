#include "server/net/thrift_server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <glog/logging.h>
#include <thrift/TConfiguration.h>
#include <thrift/TProcessor.h>

#include "server/net/event_loop.h"
#include "server/net/wire_session.h"

namespace hbemu::server {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using apache::thrift::TConfiguration;
using apache::thrift::TProcessor;

constexpr auto kStopGrace = std::chrono::seconds(5);
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(100);
constexpr auto kLingerTime = std::chrono::seconds(1);
constexpr int kMaxInlineCalls = 16;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class Connection;

using Strand = asio::strand<asio::io_context::executor_type>;

// What connections share: settings, the processor and the event loops. Everything but the
// connection set is immutable while serving.
struct ServerCore {
  explicit ServerCore(ThriftServerConfig server_config) : config(std::move(server_config)) {
    // By default half the cores: this server's clients (a test suite, a developer's program)
    // nearly always run on the same machine and need the other half. On 2 cores, two loops
    // measured slower than one (mutateRow at 4 connections 41-47k/s against 56-57k/s, server
    // CPU per call 27-31 us against 17 us): the loop threads and the clients fight for the cores,
    // and each wake-up finds fewer ready connections.
    const int count =
        config.event_loops > 0
            ? config.event_loops
            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
    for (int i = 0; i < count; ++i) loops.push_back(std::make_unique<EventLoop>());
  }

  ThriftServerConfig config;
  WireSessionConfig session_config;
  WireStats stats;
  std::shared_ptr<TProcessor> processor;
  std::shared_ptr<TConfiguration> thrift_config;
  // Half the cores by default; loops[0] also runs the acceptor and the idle sweep.
  std::vector<std::unique_ptr<EventLoop>> loops;

  // Guards the set; live_cv tells Stop() when it empties.
  std::mutex mu;
  std::condition_variable live_cv;
  std::unordered_set<std::shared_ptr<Connection>> connections;

  // The loop with the fewest open connections, so long-lived clients spread evenly.
  EventLoop* LeastLoadedLoop();
  void Add(std::shared_ptr<Connection> conn);
  void Remove(const std::shared_ptr<Connection>& conn);
  // The connections open now, to act on outside the lock.
  std::vector<std::shared_ptr<Connection>> Snapshot();
};

// One client socket, served by one event loop for its whole life. Everything it does runs on its
// own strand (the loop's standby thread may run it too), so its state needs no lock. A call runs
// on the thread that read its last bytes.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(ServerCore* core, EventLoop* loop, tcp::socket socket)
      : core_(core),
        loop_(loop),
        strand_(asio::make_strand(loop->io)),
        socket_(std::move(socket)),
        session_(core->session_config, core->processor.get(), core->thrift_config, PeerOf(socket_)) {}

  // Any thread.
  void Start() {
    // Replies are sent with one non-blocking send first (WriteNow); asio's own async operations
    // work the same either way.
    boost::system::error_code ec;
    socket_.non_blocking(true, ec);
    auto self = shared_from_this();
    asio::post(strand_, [self] {
      VLOG(1) << "[thrift_server] connection from " << self->session_.peer();
      self->Pump();
    });
  }

  EventLoop* loop() const { return loop_; }

  // Any thread. The server is stopping: an idle connection closes now, a busy one after its
  // reply.
  void OnServerStopping() {
    auto self = shared_from_this();
    asio::post(strand_, [self] {
      self->close_after_reply_ = true;
      if (!self->busy_ || self->lingering_) self->Close();
    });
  }

  // Any thread: closes the connection if it has been waiting for bytes since before `cutoff_ms`.
  void CloseIfIdleSince(int64_t cutoff_ms) {
    const int64_t since = waiting_since_ms_.load(std::memory_order_relaxed);
    if (since == 0 || since > cutoff_ms) return;
    auto self = shared_from_this();
    asio::post(strand_, [self, cutoff_ms] {
      const int64_t waiting = self->waiting_since_ms_.load(std::memory_order_relaxed);
      if (self->closed_ || self->busy_ || waiting == 0 || waiting > cutoff_ms) return;
      LOG(INFO) << "[thrift_server] closing connection from " << self->session_.peer()
                << ": nothing received for " << self->core_->config.idle_timeout_ms << " ms"
                << (self->session_.buffered() > 0 ? " in the middle of a message" : "")
                << " (idle timeout)";
      self->Close();
    });
  }

  // On the strand, or once no thread runs the event loop.
  void Close() {
    if (closed_) return;
    closed_ = true;
    linger_timer_.cancel();
    waiting_since_ms_.store(0, std::memory_order_relaxed);
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
    core_->Remove(shared_from_this());
  }

 private:
  static std::string PeerOf(const tcp::socket& socket) {
    boost::system::error_code ec;
    auto endpoint = socket.remote_endpoint(ec);
    return ec ? std::string("unknown peer")
              : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  }

  // Lets the session run the next buffered call, or reads more. Called whenever the connection is
  // idle and something changed.
  void Pump() {
    // Replies that go out at once let the next buffered call run here too; a client pipelining
    // many calls yields the thread after a few so other connections are not starved.
    for (int inline_calls = 0;; ++inline_calls) {
      if (busy_ || closed_) return;
      if (close_after_reply_) {
        Close();
        return;
      }
      if (inline_calls == kMaxInlineCalls) {
        auto self = shared_from_this();
        asio::post(strand_, [self] { self->Pump(); });
        return;
      }
      // Parsing and running a call both hold the loop thread; standby threads watch these.
      loop_->CallStarting();
      WireSession::Step step = session_.Next();
      loop_->CallFinished();
      switch (step.action) {
        case WireSession::Step::Action::kRead:
          ReadMore();
          return;
        case WireSession::Step::Action::kWrite:
          if (!WriteNow(step.write)) return;  // finishes asynchronously, or failed
          session_.Written();
          continue;
        case WireSession::Step::Action::kClose:
          if (!step.reason.empty()) {
            LOG(WARNING) << "[thrift_server] closing connection from " << session_.peer() << ": "
                         << step.reason;
          }
          if (session_.format() && session_.format()->transport == WireTransport::kHttp) {
            Linger();
          } else {
            Close();
          }
          return;
      }
    }
  }

  // An HTTP client may still be sending (a body we refused, a header over the limit) when its
  // error response goes out; closing a socket with unread bytes resets it, and the client may
  // lose the response. So stop sending, discard what still arrives, and close on the client's
  // EOF or after kLingerTime, as HTTP servers do.
  void Linger() {
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    if (ec) {
      Close();
      return;
    }
    busy_ = true;  // nothing more is processed
    lingering_ = true;  // a server stop closes it at once
    linger_timer_.expires_after(kLingerTime);
    auto self = shared_from_this();
    linger_timer_.async_wait(asio::bind_executor(
        strand_, [self](const boost::system::error_code&) { self->Close(); }));
    DiscardInput();
  }

  void DiscardInput() {
    auto self = shared_from_this();
    socket_.async_read_some(
        asio::buffer(discard_, sizeof(discard_)),
        asio::bind_executor(strand_, [self](const boost::system::error_code& ec, size_t) {
          if (self->closed_) return;
          if (ec) {
            self->Close();
            return;
          }
          self->DiscardInput();
        }));
  }

  void ReadMore() {
    size_t space = 0;
    uint8_t* into = session_.ReadSpace(&space);
    if (core_->config.idle_timeout_ms > 0) {
      waiting_since_ms_.store(NowMs(), std::memory_order_relaxed);
    }
    auto self = shared_from_this();
    socket_.async_read_some(
        asio::buffer(into, space),
        asio::bind_executor(strand_, [self](const boost::system::error_code& ec, size_t n) {
          self->OnRead(ec, n);
        }));
  }

  void OnRead(const boost::system::error_code& ec, size_t n) {
    waiting_since_ms_.store(0, std::memory_order_relaxed);
    if (closed_) return;
    if (ec) {
      if (ec != asio::error::eof && ec != asio::error::operation_aborted) {
        LOG(WARNING) << "[thrift_server] read from " << session_.peer()
                     << " failed: " << ec.message();
      } else if (session_.buffered() > 0) {
        VLOG(1) << "[thrift_server] " << session_.peer() << " disconnected with "
                << session_.buffered() << " bytes of an incomplete message";
      } else {
        VLOG(1) << "[thrift_server] " << session_.peer() << " disconnected";
      }
      Close();
      return;
    }
    session_.Received(n);
    Pump();
  }

  // Sends a reply with one non-blocking send and returns true when all of it went out, which is
  // the usual case: finishing inline saves a trip through the event loop (one epoll_wait and a
  // handler) per call. Whatever the socket does not take at once is written asynchronously.
  bool WriteNow(const std::vector<WireSession::Span>& spans) {
    std::vector<asio::const_buffer> buffers;
    buffers.reserve(spans.size());
    size_t total = 0;
    for (const auto& span : spans) {
      buffers.emplace_back(span.data, span.size);
      total += span.size;
    }
    boost::system::error_code ec;
    size_t sent = socket_.write_some(buffers, ec);
    if (!ec && sent == total) return true;
    if (ec && ec != asio::error::would_block && ec != asio::error::try_again) {
      VLOG(1) << "[thrift_server] reply to " << session_.peer()
              << " not delivered: " << ec.message();
      Close();
      return false;
    }
    // Drop what was sent from the front of the buffer sequence; async_write does the rest.
    std::vector<asio::const_buffer> rest;
    for (const auto& buffer : buffers) {
      if (sent >= buffer.size()) {
        sent -= buffer.size();
        continue;
      }
      rest.push_back(buffer + sent);
      sent = 0;
    }
    busy_ = true;
    auto self = shared_from_this();
    asio::async_write(socket_, rest,
                      asio::bind_executor(strand_, [self](const boost::system::error_code& e,
                                                          size_t) { self->OnWritten(e); }));
    return false;
  }

  void OnWritten(const boost::system::error_code& ec) {
    if (closed_) return;
    if (ec) {
      VLOG(1) << "[thrift_server] reply to " << session_.peer()
              << " not delivered: " << ec.message();
      Close();
      return;
    }
    session_.Written();
    busy_ = false;
    Pump();
  }

  ServerCore* const core_;
  EventLoop* const loop_;
  Strand strand_;
  tcp::socket socket_;
  WireSession session_;
  asio::steady_timer linger_timer_{loop_->io};
  uint8_t discard_[4096];

  // When the connection started waiting for bytes (steady ms), or 0 while it is not waiting.
  // Written on the strand, read by the idle sweep.
  std::atomic<int64_t> waiting_since_ms_{0};
  bool busy_ = false;  // a reply is being written
  bool closed_ = false;
  bool close_after_reply_ = false;
  bool lingering_ = false;
};

EventLoop* ServerCore::LeastLoadedLoop() {
  EventLoop* best = loops.front().get();
  for (const auto& loop : loops) {
    if (loop->connections.load(std::memory_order_relaxed) <
        best->connections.load(std::memory_order_relaxed)) {
      best = loop.get();
    }
  }
  return best;
}

void ServerCore::Add(std::shared_ptr<Connection> conn) {
  std::lock_guard<std::mutex> lock(mu);
  conn->loop()->connections.fetch_add(1, std::memory_order_relaxed);
  connections.insert(std::move(conn));
}

std::vector<std::shared_ptr<Connection>> ServerCore::Snapshot() {
  std::lock_guard<std::mutex> lock(mu);
  return {connections.begin(), connections.end()};
}

void ServerCore::Remove(const std::shared_ptr<Connection>& conn) {
  std::lock_guard<std::mutex> lock(mu);
  if (connections.erase(conn) > 0) {
    conn->loop()->connections.fetch_sub(1, std::memory_order_relaxed);
  }
  live_cv.notify_all();
}

}  // namespace

class ThriftServer::Impl {
 public:
  Impl(ThriftServerConfig config, std::shared_ptr<TProcessor> processor)
      : core_(std::move(config)), acceptor_(core_.loops.front()->io) {
    core_.processor = std::move(processor);
    core_.session_config.forcing = core_.config.forcing;
    core_.session_config.max_message_bytes = core_.config.max_message_bytes;
    core_.session_config.stats = &core_.stats;
    // The processor reads each message from its own buffer, already bounded by
    // max_message_bytes; libthrift's default 100 MB budget must not be stricter than that.
    core_.thrift_config = std::make_shared<TConfiguration>(
        static_cast<int>(std::min<size_t>(core_.config.max_message_bytes, INT_MAX)));
  }

  ~Impl() { Stop(); }

  bool Start(std::string* error) {
    if (started_) {
      *error = "server already started";
      return false;
    }
    const ThriftServerConfig& config = core_.config;
    if (config.max_message_bytes == 0) {
      *error = "max_message_bytes must be positive";
      return false;
    }
    boost::system::error_code ec;
    tcp::resolver resolver(core_.loops.front()->io);
    auto endpoints = resolver.resolve(config.bind_address, std::to_string(config.port),
                                      tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec || endpoints.empty()) {
      *error = "cannot resolve bind address '" + config.bind_address + "': " + ec.message();
      return false;
    }
    tcp::endpoint endpoint = endpoints.begin()->endpoint();
    if (acceptor_.open(endpoint.protocol(), ec) ||
        acceptor_.set_option(tcp::acceptor::reuse_address(true), ec) ||
        acceptor_.bind(endpoint, ec) ||
        acceptor_.listen(asio::socket_base::max_listen_connections, ec)) {
      *error = "cannot listen on " + config.bind_address + ":" + std::to_string(config.port) +
               ": " + ec.message();
      acceptor_.close(ec);
      return false;
    }
    port_ = acceptor_.local_endpoint(ec).port();

    for (auto& loop : core_.loops) loop->Start();
    asio::post(accept_strand_, [this] { Accept(); });
    started_ = true;
    if (config.idle_timeout_ms > 0) asio::post(accept_strand_, [this] { ScheduleIdleSweep(); });
    LOG(INFO) << "[thrift_server] listening on " << endpoint.address().to_string() << ":"
              << port_ << " (" << ModeDescription(config.forcing) << ", " << core_.loops.size()
              << " event loops, idle timeout "
              << (config.idle_timeout_ms > 0 ? std::to_string(config.idle_timeout_ms) + " ms"
                                             : std::string("off"))
              << ")";
    return true;
  }

  uint16_t port() const { return port_; }
  const WireStats& stats() const { return core_.stats; }
  std::vector<int> ConnectionsPerLoop() const {
    std::vector<int> counts;
    for (const auto& loop : core_.loops) {
      counts.push_back(loop->connections.load(std::memory_order_relaxed));
    }
    return counts;
  }

  void Stop() {
    if (!started_ || stopped_) return;
    stopped_ = true;
    LOG(INFO) << "[thrift_server] stopping";
    std::promise<void> began;
    asio::post(accept_strand_, [this, &began] {
      BeginStop();
      began.set_value();
    });
    began.get_future().wait();
    bool drained;
    {
      std::unique_lock<std::mutex> lock(core_.mu);
      drained = core_.live_cv.wait_for(lock, kStopGrace,
                                       [this] { return core_.connections.empty(); });
    }
    for (auto& loop : core_.loops) loop->StopAndJoin();
    // No thread runs the loop any more, so what is left can be closed from here.
    const std::vector<std::shared_ptr<Connection>> remaining = core_.Snapshot();
    for (const auto& conn : remaining) conn->Close();
    if (!drained || !remaining.empty()) {
      LOG(WARNING) << "[thrift_server] " << remaining.size() << " connection(s) still busy after "
                   << kStopGrace.count() << " s; closed without their replies";
    }
    LOG(INFO) << "[thrift_server] stopped";
  }

 private:
  // Acceptor work runs on accept_strand_.
  void Accept() {
    // The new socket belongs to the loop that will serve it from the start.
    EventLoop* loop = core_.LeastLoadedLoop();
    acceptor_.async_accept(loop->io, asio::bind_executor(accept_strand_, [this, loop](
        const boost::system::error_code& ec, tcp::socket socket) {
      if (stopping_ || ec == asio::error::operation_aborted) return;
      if (ec) {
        // Usually out of file descriptors; retrying at once would spin.
        LOG(WARNING) << "[thrift_server] accept failed: " << ec.message();
        retry_timer_.expires_after(kAcceptRetryDelay);
        retry_timer_.async_wait(
            asio::bind_executor(accept_strand_, [this](const boost::system::error_code& timer_ec) {
              if (!timer_ec && !stopping_) Accept();
            }));
        return;
      }
      boost::system::error_code opt_ec;
      socket.set_option(tcp::no_delay(true), opt_ec);
      auto conn = std::make_shared<Connection>(&core_, loop, std::move(socket));
      core_.Add(conn);
      conn->Start();
      Accept();
    }));
  }

  static std::string ModeDescription(const WireForcing& forcing) {
    std::string transport = forcing.transport ? WireTransportName(*forcing.transport)
                                              : "buffered/framed/http";
    std::string protocol = forcing.protocol ? WireProtocolName(*forcing.protocol)
                                            : "binary/compact";
    const bool detected = !forcing.transport || !forcing.protocol;
    return transport + ", " + protocol + (detected ? " detected per connection" : "");
  }

  // On accept_strand_. Checks often enough that a connection outlives the timeout by at most a
  // quarter of it (and by at most a second).
  void ScheduleIdleSweep() {
    if (stopping_) return;
    const int64_t timeout = core_.config.idle_timeout_ms;
    const int64_t period = std::clamp<int64_t>(timeout / 4, 10, 1000);
    sweep_timer_.expires_after(std::chrono::milliseconds(period));
    sweep_timer_.async_wait(
        asio::bind_executor(accept_strand_, [this, timeout](const boost::system::error_code& ec) {
          if (ec || stopping_) return;
          const int64_t cutoff = NowMs() - timeout;
          for (const auto& conn : core_.Snapshot()) conn->CloseIfIdleSince(cutoff);
          ScheduleIdleSweep();
        }));
  }

  // On accept_strand_.
  void BeginStop() {
    stopping_ = true;
    boost::system::error_code ec;
    acceptor_.close(ec);
    retry_timer_.cancel();
    sweep_timer_.cancel();
    for (const auto& conn : core_.Snapshot()) conn->OnServerStopping();
  }

  // Declared first so it is destroyed last: sockets and handlers refer to its io_context.
  ServerCore core_;
  Strand accept_strand_{asio::make_strand(core_.loops.front()->io)};
  tcp::acceptor acceptor_;
  asio::steady_timer retry_timer_{core_.loops.front()->io};
  asio::steady_timer sweep_timer_{core_.loops.front()->io};
  bool stopping_ = false;  // accept_strand_ only
  uint16_t port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
};

ThriftServer::ThriftServer(ThriftServerConfig config, std::shared_ptr<TProcessor> processor)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(processor))) {}

ThriftServer::~ThriftServer() { Stop(); }

bool ThriftServer::Start(std::string* error) { return impl_->Start(error); }

uint16_t ThriftServer::port() const { return impl_->port(); }
const WireStats& ThriftServer::stats() const { return impl_->stats(); }
std::vector<int> ThriftServer::ConnectionsPerLoop() const { return impl_->ConnectionsPerLoop(); }

void ThriftServer::Stop() { impl_->Stop(); }

}  // namespace hbemu::server
