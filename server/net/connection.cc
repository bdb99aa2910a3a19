#include "server/net/connection.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/post.hpp>
#include <glog/logging.h>

#include "server/net/monotonic_time.h"

namespace hbemu::server {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

constexpr auto kLingerTime = std::chrono::seconds(1);
constexpr int kMaxInlineCalls = 16;

tcp ProtocolOf(const tcp::socket& socket) {
  boost::system::error_code ec;
  const tcp::endpoint local = socket.local_endpoint(ec);
  return ec ? tcp::v4() : local.protocol();
}

}  // namespace

ServerCore::ServerCore(ThriftServerConfig server_config) : config(std::move(server_config)) {
  // By default half the cores: this server's clients (a test suite, a developer's program)
  // nearly always run on the same machine and need the other half. On 2 cores, two loops
  // measured slower than one (mutateRow at 4 connections 41-47k/s against 56-57k/s, server
  // CPU per call 27-31 us against 17 us): the loop threads and the clients fight for the cores,
  // and each wake-up finds fewer ready connections.
  const int count = config.event_loops > 0
                        ? config.event_loops
                        : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
  for (int i = 0; i < count; ++i) loops.push_back(std::make_unique<EventLoop>());
  if (config.call_threads > 0) {
    // Threads end after a quiet spell, so a server nobody calls holds none.
    call_threads = std::make_unique<CallThreads>(static_cast<size_t>(config.call_threads),
                                                 std::chrono::seconds(10));
    // The same bounded threads help a loop that long calls hold (EventLoop::Standby).
    for (auto& loop : loops) {
      loop->lend_thread = [threads = call_threads.get()](std::function<void()> job) {
        return threads->TryRun(std::move(job));
      };
    }
  }
}

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

size_t ServerCore::Count() {
  std::lock_guard<std::mutex> lock(mu);
  return connections.size();
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

Connection::Connection(ServerCore* core, EventLoop* loop, tcp::socket socket)
    : core_(core),
      loop_(loop),
      strand_(asio::make_strand(loop->io)),
      socket_(std::move(socket)),
      protocol_(ProtocolOf(socket_)),
      session_(core->session_config, core->processor.get(), core->thrift_config,
               PeerOf(socket_)),
      linger_timer_(loop->io) {}

Connection::~Connection() {
  if (driven_fd_ >= 0) ::close(driven_fd_);
}

void Connection::Start() {
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

void Connection::OnServerStopping() {
  stop_requested_.store(true);
  auto self = shared_from_this();
  asio::post(strand_, [self] {
    if (self->driven_.load(std::memory_order_acquire)) return;  // its call thread closes it
    self->close_after_reply_ = true;
    if (!self->busy_ || self->lingering_) self->Close();
  });
}

const char* Connection::StallReason(int64_t now_ms) const {
  const int64_t idle = core_->config.idle_timeout_ms;
  const int64_t write = core_->write_timeout_ms;
  const int64_t message = core_->message_timeout_ms;
  const int64_t waiting = waiting_since_ms_.load(std::memory_order_relaxed);
  if (idle > 0 && waiting != 0 && now_ms - waiting >= idle) return "idle timeout";
  const int64_t begun = message_since_ms_.load(std::memory_order_relaxed);
  if (message > 0 && waiting != 0 && begun != 0 && now_ms - begun >= message) {
    return "message timeout";
  }
  const int64_t replying = reply_since_ms_.load(std::memory_order_relaxed);
  if (message > 0 && replying != 0 && now_ms - replying >= message) return "message timeout";
  const int64_t stalled = write_stalled_since_ms_.load(std::memory_order_relaxed);
  if (stalled == 0) return nullptr;
  if (write > 0 && now_ms - stalled >= write) return "write timeout";
  if (idle > 0 && now_ms - stalled >= idle) return "idle timeout";
  return nullptr;
}

void Connection::CloseIfStalled(int64_t now_ms) {
  if (StallReason(now_ms) == nullptr) return;
  auto self = shared_from_this();
  asio::post(strand_, [self, now_ms] {
    if (self->driven_.load(std::memory_order_acquire) || self->closed_) return;
    const char* reason = self->StallReason(now_ms);
    if (reason == nullptr) return;
    const int64_t waiting = self->waiting_since_ms_.load(std::memory_order_relaxed);
    const int64_t stalled = self->write_stalled_since_ms_.load(std::memory_order_relaxed);
    const int64_t begun = self->message_since_ms_.load(std::memory_order_relaxed);
    const int64_t replying = self->reply_since_ms_.load(std::memory_order_relaxed);
    if (std::strcmp(reason, "message timeout") == 0) {
      LOG(INFO) << "[thrift_server] closing connection from " << self->session_.peer() << ": "
                << (waiting != 0 ? "its request began " + std::to_string(now_ms - begun) +
                                       " ms ago and has not all arrived"
                                 : "it has not taken the whole of its reply in " +
                                       std::to_string(now_ms - replying) + " ms")
                << " (message timeout)";
    } else if (waiting != 0) {
      LOG(INFO) << "[thrift_server] closing connection from " << self->session_.peer()
                << ": nothing received for " << now_ms - waiting << " ms"
                << (self->session_.buffered() > 0 ? " in the middle of a message" : "") << " ("
                << reason << ")";
    } else {
      LOG(INFO) << "[thrift_server] closing connection from " << self->session_.peer()
                << ": it took none of its reply for " << now_ms - stalled << " ms (" << reason
                << ")";
    }
    self->Close();
  });
}

void Connection::Close() {
  if (closed_) return;
  closed_ = true;
  linger_timer_.cancel();
  waiting_since_ms_.store(0, std::memory_order_relaxed);
  write_stalled_since_ms_.store(0, std::memory_order_relaxed);
  message_since_ms_.store(0, std::memory_order_relaxed);
  reply_since_ms_.store(0, std::memory_order_relaxed);
  boost::system::error_code ec;
  if (driven_fd_ >= 0) {
    ::shutdown(driven_fd_, SHUT_RDWR);
    ::close(driven_fd_);
    driven_fd_ = -1;
  }
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  core_->Remove(shared_from_this());
}

std::string Connection::PeerOf(const tcp::socket& socket) {
  boost::system::error_code ec;
  auto endpoint = socket.remote_endpoint(ec);
  return ec ? std::string("unknown peer")
            : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

void Connection::Pump() {
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
        NoteMessageDone();
        if (!WriteNow(step.write)) return;  // finishes asynchronously, or failed
        session_.Written();
        NoteReplySent();
        continue;
      case WireSession::Step::Action::kClose:
        LogCloseReason(step.reason);
        if (session_.format() && session_.format()->transport == WireTransport::kHttp) {
          Linger();
        } else {
          Close();
        }
        return;
    }
  }
}

void Connection::Linger() {
  boost::system::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_send, ec);
  if (ec) {
    Close();
    return;
  }
  busy_ = true;       // nothing more is processed
  lingering_ = true;  // a server stop closes it at once
  linger_timer_.expires_after(kLingerTime);
  auto self = shared_from_this();
  linger_timer_.async_wait(
      asio::bind_executor(strand_, [self](const boost::system::error_code&) { self->Close(); }));
  DiscardInput();
}

void Connection::DiscardInput() {
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

void Connection::ReadMore() {
  // Waiting on the loop is what makes a connection idle: a call thread serving a client that
  // calls back to back keeps its buffers until that client goes quiet.
  session_.Idle();
  size_t space = 0;
  uint8_t* into = session_.ReadSpace(&space);
  if (core_->config.idle_timeout_ms > 0 || core_->message_timeout_ms > 0) {
    const int64_t now = MonotonicMs();
    waiting_since_ms_.store(now, std::memory_order_relaxed);
    NoteWaiting(now);
  }
  auto self = shared_from_this();
  socket_.async_read_some(
      asio::buffer(into, space),
      asio::bind_executor(strand_, [self](const boost::system::error_code& ec, size_t n) {
        self->OnRead(ec, n);
      }));
}

void Connection::NoteWaiting(int64_t now_ms) {
  if (core_->message_timeout_ms <= 0) return;
  // Bytes buffered while waiting are the start of a request (a finished one has been consumed);
  // its clock starts with the first wait for the rest, a few microseconds after they arrived.
  if (session_.buffered() == 0) {
    message_since_ms_.store(0, std::memory_order_relaxed);
  } else if (message_since_ms_.load(std::memory_order_relaxed) == 0) {
    message_since_ms_.store(now_ms, std::memory_order_relaxed);
  }
}

bool Connection::RequestInTime() {
  const int64_t limit = core_->message_timeout_ms;
  if (limit <= 0 || session_.buffered() == 0) return true;
  const int64_t now = MonotonicMs();
  NoteWaiting(now);
  const int64_t begun = message_since_ms_.load(std::memory_order_relaxed);
  if (now - begun < limit) return true;
  LOG(INFO) << "[thrift_server] closing connection from " << session_.peer()
            << ": its request began " << now - begun
            << " ms ago and has not all arrived (message timeout)";
  return false;
}

void Connection::OnRead(const boost::system::error_code& ec, size_t n) {
  waiting_since_ms_.store(0, std::memory_order_relaxed);
  if (closed_) return;
  if (ec) {
    const bool ended = ec == asio::error::eof || ec == asio::error::operation_aborted;
    CloseForReadEnd(ended ? std::string() : ec.message());
    return;
  }
  session_.Received(n);
  if (TryHandToCallThread()) return;
  Pump();
}

void Connection::LogCloseReason(const std::string& reason) const {
  if (reason.empty()) return;
  LOG(WARNING) << "[thrift_server] closing connection from " << session_.peer() << ": " << reason;
}

void Connection::CloseForReadEnd(const std::string& error) {
  if (!error.empty()) {
    LOG(WARNING) << "[thrift_server] read from " << session_.peer() << " failed: " << error;
  } else if (session_.buffered() > 0) {
    VLOG(1) << "[thrift_server] " << session_.peer() << " disconnected with "
            << session_.buffered() << " bytes of an incomplete message";
  } else {
    VLOG(1) << "[thrift_server] " << session_.peer() << " disconnected";
  }
  Close();
}

bool Connection::WriteNow(const std::vector<WireSession::Span>& spans) {
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
  // Drop what was sent from the front of the buffer sequence; WriteRest does the rest.
  pending_.clear();
  for (const auto& buffer : buffers) {
    if (sent >= buffer.size()) {
      sent -= buffer.size();
      continue;
    }
    pending_.push_back(buffer + sent);
    sent = 0;
  }
  busy_ = true;
  const int64_t now = MonotonicMs();
  write_stalled_since_ms_.store(now, std::memory_order_relaxed);
  if (core_->message_timeout_ms > 0) reply_since_ms_.store(now, std::memory_order_relaxed);
  WriteRest();
  return false;
}

void Connection::WriteRest() {
  auto self = shared_from_this();
  socket_.async_write_some(
      pending_, asio::bind_executor(strand_, [self](const boost::system::error_code& ec,
                                                    size_t n) { self->OnWriteSome(ec, n); }));
}

void Connection::OnWriteSome(const boost::system::error_code& ec, size_t n) {
  if (closed_) return;
  if (ec) {
    VLOG(1) << "[thrift_server] reply to " << session_.peer()
            << " not delivered: " << ec.message();
    Close();
    return;
  }
  size_t first = 0;
  while (first < pending_.size() && n >= pending_[first].size()) n -= pending_[first++].size();
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(first));
  if (!pending_.empty()) {
    pending_.front() += n;
    write_stalled_since_ms_.store(MonotonicMs(), std::memory_order_relaxed);
    WriteRest();
    return;
  }
  write_stalled_since_ms_.store(0, std::memory_order_relaxed);
  reply_since_ms_.store(0, std::memory_order_relaxed);
  OnWritten();
}

void Connection::OnWritten() {
  session_.Written();
  NoteReplySent();
  busy_ = false;
  Pump();
}

void Connection::NoteReplySent() {
  if (core_->call_threads) last_reply_us_ = MonotonicUs();
}

}  // namespace hbemu::server
