// The call-thread half of Connection (connection.h): a connection calling back to back is taken
// off its event loop and served with blocking socket calls until it goes quiet.

#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <boost/asio/post.hpp>
#include <glog/logging.h>

#include "server/net/connection.h"
#include "server/net/monotonic_time.h"

namespace hbemu::server {
namespace {

namespace asio = boost::asio;

// A call that arrives this soon after the connection's last reply marks a client calling back
// to back (a loop in a test suite or a benchmark; a few microseconds to a few hundred for
// Python), worth a call thread.
constexpr int64_t kBackToBackUs = 2000;
// How long a call thread waits for a connection's next call before handing it back to its loop.
constexpr auto kDriveQuiet = std::chrono::milliseconds(50);
// How long a blocked send waits before the call thread looks whether the server is stopping or
// the client has taken nothing for too long.
constexpr auto kSendPatience = std::chrono::milliseconds(500);

timeval ToTimeval(std::chrono::milliseconds d) {
  timeval tv;
  tv.tv_sec = static_cast<time_t>(d.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((d.count() % 1000) * 1000);
  return tv;
}

// For a call thread's blocking recv/send. The descriptor is out of asio while driven; giving it
// back (ReassignDescriptor) makes it non-blocking again.
void MakeBlocking(int fd) {
  int non_blocking = 0;
  ioctl(fd, FIONBIO, &non_blocking);
}

}  // namespace

bool Connection::TryHandToCallThread() {
  if (!core_->call_threads || last_reply_us_ == 0 || close_after_reply_) return false;
  // HTTP keeps its event-loop path (lingering, keep-alive), and it is rarely hot.
  if (!session_.format() || session_.format()->transport == WireTransport::kHttp) return false;
  if (MonotonicUs() - last_reply_us_ > kBackToBackUs) return false;
  if (!ReleaseDescriptor()) return false;
  driven_.store(true, std::memory_order_release);
  auto self = shared_from_this();
  core_->stats.on_call_threads.fetch_add(1, std::memory_order_relaxed);
  if (core_->call_threads->TryRun([self] { self->Drive(); })) return true;
  core_->stats.on_call_threads.fetch_sub(1, std::memory_order_relaxed);
  driven_.store(false, std::memory_order_release);
  if (!ReassignDescriptor()) {
    Close();
    return true;  // nothing left to pump
  }
  return false;
}

bool Connection::ReleaseDescriptor() {
  boost::system::error_code ec;
  const int fd = socket_.release(ec);
  if (ec) return false;
  driven_fd_ = fd;
  return true;
}

bool Connection::ReassignDescriptor() {
  boost::system::error_code ec;
  socket_.assign(protocol_, driven_fd_, ec);
  if (ec) {
    LOG(WARNING) << "[thrift_server] cannot give the connection from " << session_.peer()
                 << " back to its event loop: " << ec.message();
    return false;  // driven_fd_ stays ours to close
  }
  driven_fd_ = -1;
  socket_.non_blocking(true, ec);  // WriteNow's first send must not block
  return true;
}

void Connection::Drive() {
  const int fd = driven_fd_;
  if (!blocking_options_set_) {
    blocking_options_set_ = true;
    const timeval quiet = ToTimeval(kDriveQuiet);
    const int64_t deadline = SendDeadlineMs();
    const timeval patience = ToTimeval(deadline > 0 ? std::min<std::chrono::milliseconds>(
                                                          kSendPatience,
                                                          std::chrono::milliseconds(deadline))
                                                    : kSendPatience);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &quiet, sizeof(quiet));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &patience, sizeof(patience));
  }
  MakeBlocking(fd);
  struct Count {  // however the drive ends
    WireStats& stats;
    ~Count() { stats.on_call_threads.fetch_sub(1, std::memory_order_relaxed); }
  } count{core_->stats};
  for (;;) {
    if (stop_requested_.load()) {
      Close();
      return;
    }
    WireSession::Step step = session_.Next();
    switch (step.action) {
      case WireSession::Step::Action::kWrite:
        NoteMessageDone();
        if (!SendAll(step.write)) {
          Close();
          return;
        }
        session_.Written();
        continue;
      case WireSession::Step::Action::kRead: {
        // A request trickling in faster than kDriveQuiet would otherwise keep this thread.
        if (!RequestInTime()) {
          Close();
          return;
        }
        size_t space = 0;
        uint8_t* into = session_.ReadSpace(&space);
        const ssize_t n = ::recv(fd, into, space, 0);
        if (n > 0) {
          session_.Received(static_cast<size_t>(n));
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
          HandBack();  // quiet for kDriveQuiet
          return;
        }
        CloseForReadEnd(n < 0 ? strerror(errno) : std::string());
        return;
      }
      case WireSession::Step::Action::kClose:
        LogCloseReason(step.reason);
        Close();
        return;
    }
  }
}

int64_t Connection::SendDeadlineMs() const {
  const int64_t write = core_->write_timeout_ms, idle = core_->config.idle_timeout_ms;
  if (write > 0 && idle > 0) return std::min(write, idle);
  return std::max<int64_t>(write, idle);
}

const char* Connection::SendDeadlineName() const {
  const int64_t write = core_->write_timeout_ms, idle = core_->config.idle_timeout_ms;
  return write > 0 && (idle <= 0 || write <= idle) ? "write timeout" : "idle timeout";
}

bool Connection::SendAll(const std::vector<WireSession::Span>& spans) {
  std::vector<iovec> iov;
  iov.reserve(spans.size());
  for (const auto& span : spans) {
    if (span.size > 0) iov.push_back({const_cast<uint8_t*>(span.data), span.size});
  }
  // A client that takes nothing of its reply for this long is closed, as on the event loop.
  const int64_t deadline = SendDeadlineMs();
  int64_t progress_ms = 0;  // when the client last took something; set once a send blocks
  // When the reply began, once one send has not taken all of it: the whole reply must go out
  // within the message timeout, however steadily the client takes a little of it.
  // (The first send may have blocked up to kSendPatience before this clock starts.)
  int64_t began_ms = 0;
  const int64_t whole_limit = core_->message_timeout_ms;
  size_t first = 0;
  for (bool first_send = true; first < iov.size(); first_send = false) {
    if (whole_limit > 0 && !first_send) {
      const int64_t now = MonotonicMs();
      if (began_ms == 0) began_ms = now;
      if (now - began_ms >= whole_limit) {
        LOG(INFO) << "[thrift_server] closing connection from " << session_.peer()
                  << ": it has not taken the whole of its reply in " << now - began_ms
                  << " ms (message timeout)";
        return false;
      }
    }
    msghdr msg{};
    msg.msg_iov = iov.data() + first;
    msg.msg_iovlen = iov.size() - first;
    const ssize_t sent = ::sendmsg(driven_fd_, &msg, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if ((errno == EAGAIN || errno == EWOULDBLOCK) && !stop_requested_.load()) {
        // SO_SNDTIMEO ran out with nothing sent: the send blocked that long.
        const int64_t now = MonotonicMs();
        if (progress_ms == 0) {
          progress_ms = now - std::min<int64_t>(deadline, kSendPatience.count());
        }
        if (deadline == 0 || now - progress_ms < deadline) continue;
        LOG(INFO) << "[thrift_server] closing connection from " << session_.peer()
                  << ": it took none of its reply for " << now - progress_ms << " ms ("
                  << SendDeadlineName() << ")";
        return false;
      }
      VLOG(1) << "[thrift_server] reply to " << session_.peer()
              << " not delivered: " << strerror(errno);
      return false;
    }
    if (progress_ms != 0) progress_ms = MonotonicMs();
    size_t left = static_cast<size_t>(sent);
    while (first < iov.size() && left >= iov[first].iov_len) left -= iov[first++].iov_len;
    if (left > 0) {
      iov[first].iov_base = static_cast<uint8_t*>(iov[first].iov_base) + left;
      iov[first].iov_len -= left;
    }
  }
  return true;
}

void Connection::HandBack() {
  if (stop_requested_.load()) {
    Close();
    return;
  }
  auto self = shared_from_this();
  asio::post(strand_, [self] {
    self->driven_.store(false, std::memory_order_release);
    if (!self->ReassignDescriptor()) {
      self->Close();
      return;
    }
    self->last_reply_us_ = 0;  // it went quiet: the next call starts on the loop again
    if (self->stop_requested_.load()) self->close_after_reply_ = true;
    self->Pump();
  });
}

}  // namespace hbemu::server
