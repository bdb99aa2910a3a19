#include "server/thrift_server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstring>
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
#include <thrift/TApplicationException.h>
#include <thrift/TConfiguration.h>
#include <thrift/TProcessor.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "server/message_skimmer.h"

namespace hbemu::server {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using apache::thrift::TApplicationException;
using apache::thrift::TConfiguration;
using apache::thrift::TProcessor;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;

constexpr size_t kFrameHeaderBytes = 4;
constexpr size_t kMinReadSpace = 64 * 1024;
// A connection keeps a buffer this big across calls; one that grew for a bigger message is
// released once it drains, so a single large call does not pin memory for the connection's life.
constexpr size_t kKeepBufferBytes = 8 * 1024 * 1024;
constexpr auto kStopGrace = std::chrono::seconds(5);
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(100);
constexpr auto kStandbyPoll = std::chrono::milliseconds(1);
constexpr auto kStandbyStint = std::chrono::milliseconds(50);

// How one connection frames and encodes messages. It is per connection rather than per server so
// that a later change can choose it from the first bytes a client sends.
struct WireFormat {
  bool framed = false;
  WireProtocol protocol = WireProtocol::kBinary;
};

std::shared_ptr<TProtocol> MakeProtocol(WireProtocol protocol,
                                        const std::shared_ptr<TMemoryBuffer>& buffer) {
  // Templating on TMemoryBuffer makes the protocol's transport calls non-virtual.
  if (protocol == WireProtocol::kCompact) {
    return std::make_shared<apache::thrift::protocol::TCompactProtocolT<TMemoryBuffer>>(buffer);
  }
  return std::make_shared<apache::thrift::protocol::TBinaryProtocolT<TMemoryBuffer>>(buffer);
}

uint32_t ReadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

void WriteBigEndian32(uint32_t v, uint8_t* p) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

// A transport/protocol mismatch is the most common reason a client "just hangs or gets
// disconnected", so say so when the first bytes look like another configuration.
std::string MismatchHint(const WireFormat& format, const uint8_t* p, size_t n) {
  auto looks_binary = [&](size_t at) { return n >= at + 2 && p[at] == 0x80 && p[at + 1] == 0x01; };
  auto looks_compact = [&](size_t at) { return n >= at + 1 && p[at] == 0x82; };
  if (format.framed && (looks_binary(0) || looks_compact(0))) {
    return " (looks unframed: is the client using TFramedTransport?)";
  }
  if (!format.framed && n >= 4 && p[0] == 0 && (looks_binary(4) || looks_compact(4))) {
    return " (looks framed, but the server is not in framed mode)";
  }
  size_t body = format.framed ? kFrameHeaderBytes : 0;
  if (format.protocol == WireProtocol::kBinary && looks_compact(body)) {
    return " (looks like TCompactProtocol, but the server is in binary mode)";
  }
  if (format.protocol == WireProtocol::kCompact && looks_binary(body)) {
    return " (looks like TBinaryProtocol, but the server is in compact mode)";
  }
  return "";
}

class Connection;

using Strand = asio::strand<asio::io_context::executor_type>;

// What connections share: settings, the processor and the event loop, which several threads run.
// Everything but the connection set is immutable while serving.
struct ServerCore {
  ThriftServerConfig config;
  std::shared_ptr<TProcessor> processor;
  std::shared_ptr<TConfiguration> thrift_config;
  asio::io_context io;

  // Calls running now, and calls finished so far: standby threads read them to tell a loop that
  // is stuck in a long call from a busy one.
  std::atomic<int> calls_running{0};
  std::atomic<uint64_t> calls_finished{0};

  // Guards the set; live_cv tells Stop() when it empties.
  std::mutex mu;
  std::condition_variable live_cv;
  std::unordered_set<std::shared_ptr<Connection>> connections;

  void Add(std::shared_ptr<Connection> conn);
  void Remove(const std::shared_ptr<Connection>& conn);
};

// One client socket. Everything it does runs on its own strand, so its state needs no lock. A
// call runs on the event-loop thread that read its last bytes (no hand-off to another thread,
// which on a small machine costs more than a point read); while it runs, the other threads of
// the loop serve every other connection.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(ServerCore* core, tcp::socket socket, WireFormat format)
      : core_(core),
        strand_(asio::make_strand(core->io)),
        socket_(std::move(socket)),
        format_(format),
        buffer_(kMinReadSpace) {
    boost::system::error_code ec;
    auto endpoint = socket_.remote_endpoint(ec);
    peer_ = ec ? std::string("unknown peer")
               : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  }

  // Any thread.
  void Start() {
    auto self = shared_from_this();
    asio::post(strand_, [self] {
      VLOG(1) << "[thrift_server] connection from " << self->peer_;
      self->ProcessBuffered();
    });
  }

  // Any thread. The server is stopping: an idle connection closes now, a busy one after its
  // reply.
  void OnServerStopping() {
    auto self = shared_from_this();
    asio::post(strand_, [self] {
      self->close_after_reply_ = true;
      if (!self->busy_) self->Close();
    });
  }

  // On the strand, or once no thread runs the event loop.
  void Close() {
    if (closed_) return;
    closed_ = true;
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
    core_->Remove(shared_from_this());
  }

 private:
  size_t buffered() const { return end_ - begin_; }

  // Runs the next complete buffered message, or reads more. Called whenever the connection is
  // idle and something changed.
  void ProcessBuffered() {
    if (busy_ || closed_) return;
    if (close_after_reply_) {
      Close();
      return;
    }
    if (buffered() < want_) {
      ReadMore();
      return;
    }
    const uint8_t* start = buffer_.data() + begin_;
    size_t max = core_->config.max_message_bytes;
    if (format_.framed) {
      if (buffered() < kFrameHeaderBytes) {
        want_ = kFrameHeaderBytes;
        ReadMore();
        return;
      }
      uint32_t frame = ReadBigEndian32(start);
      if (frame == 0) {
        LOG(WARNING) << "[thrift_server] closing connection from " << peer_ << ": empty frame";
        Close();
        return;
      }
      if (frame > max) {
        LOG(WARNING) << "[thrift_server] closing connection from " << peer_ << ": frame of "
                     << frame << " bytes exceeds the limit of " << max << " bytes"
                     << MismatchHint(format_, start, buffered());
        Close();
        return;
      }
      want_ = kFrameHeaderBytes + frame;
      if (buffered() < want_) {
        ReadMore();
        return;
      }
      Dispatch(begin_ + kFrameHeaderBytes, frame, want_);
      return;
    }
    SkimResult skim = SkimMessage(format_.protocol, start, buffered(), max);
    switch (skim.status) {
      case SkimResult::Status::kComplete:
        Dispatch(begin_, skim.bytes, skim.bytes);
        return;
      case SkimResult::Status::kNeedMore:
        want_ = skim.bytes;
        ReadMore();
        return;
      case SkimResult::Status::kTooLarge:
        LOG(WARNING) << "[thrift_server] closing connection from " << peer_ << ": message of "
                     << (skim.bytes ? "at least " + std::to_string(skim.bytes) + " bytes"
                                    : "unknown size (" + skim.error + ")")
                     << " exceeds the limit of " << max << " bytes"
                     << MismatchHint(format_, start, buffered());
        Close();
        return;
      case SkimResult::Status::kMalformed:
        LOG(WARNING) << "[thrift_server] closing connection from " << peer_
                     << ": malformed " << WireProtocolName(format_.protocol)
                     << " message: " << skim.error << MismatchHint(format_, start, buffered());
        Close();
        return;
    }
  }

  void ReadMore() {
    MakeReadSpace();
    auto self = shared_from_this();
    socket_.async_read_some(
        asio::buffer(buffer_.data() + end_, buffer_.size() - end_),
        asio::bind_executor(strand_, [self](const boost::system::error_code& ec, size_t n) {
          self->OnRead(ec, n);
        }));
  }

  // Makes room for at least the rest of want_ (so a large message arrives without repeated
  // regrowth) and never less than kMinReadSpace.
  void MakeReadSpace() {
    if (begin_ == end_) {
      begin_ = end_ = 0;
      if (buffer_.size() > kKeepBufferBytes && want_ <= kKeepBufferBytes) {
        std::vector<uint8_t>(kMinReadSpace).swap(buffer_);
      }
    }
    size_t space = std::max(want_ > buffered() ? want_ - buffered() : 0, kMinReadSpace);
    if (buffer_.size() - end_ >= space) return;
    if (begin_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, buffered());
      end_ -= begin_;
      begin_ = 0;
    }
    if (buffer_.size() - end_ >= space) return;
    // Double for streams of growing messages, but not far past the largest message allowed.
    size_t cap = core_->config.max_message_bytes + kFrameHeaderBytes + kMinReadSpace;
    size_t grown = std::max(end_ + space, std::min(buffer_.size() * 2, cap));
    buffer_.resize(grown);
  }

  void OnRead(const boost::system::error_code& ec, size_t n) {
    if (closed_) return;
    if (ec) {
      if (ec != asio::error::eof && ec != asio::error::operation_aborted) {
        LOG(WARNING) << "[thrift_server] read from " << peer_ << " failed: " << ec.message();
      } else if (buffered() > 0) {
        VLOG(1) << "[thrift_server] " << peer_ << " disconnected with " << buffered()
                << " bytes of an incomplete message";
      } else {
        VLOG(1) << "[thrift_server] " << peer_ << " disconnected";
      }
      Close();
      return;
    }
    end_ += n;
    ProcessBuffered();
  }

  void Dispatch(size_t offset, size_t length, size_t consumed) {
    busy_ = true;
    consumed_ = consumed;
    want_ = 1;
    core_->calls_running.fetch_add(1, std::memory_order_relaxed);
    RunCall(buffer_.data() + offset, length);
  }

  void RunCall(const uint8_t* message, size_t length) {
    auto in = std::make_shared<TMemoryBuffer>(const_cast<uint8_t*>(message),
                                              static_cast<uint32_t>(length),
                                              TMemoryBuffer::OBSERVE, core_->thrift_config);
    auto out = NewReplyBuffer();
    std::string error;
    try {
      if (!core_->processor->process(MakeProtocol(format_.protocol, in),
                                     MakeProtocol(format_.protocol, out), nullptr)) {
        error = "processor refused the message (not a call?)";
      }
    } catch (const std::exception& e) {
      // Typically arguments that do not decode; the stream cannot be trusted past this point.
      error = e.what();
    } catch (...) {
      error = "unknown exception from processor";
    }
    if (error.empty()) {
      if (auto replacement = MapUndeclaredException(out)) out = std::move(replacement);
      if (format_.framed) {
        uint8_t* bytes;
        uint32_t size;
        out->getBuffer(&bytes, &size);
        WriteBigEndian32(size - static_cast<uint32_t>(kFrameHeaderBytes), bytes);
      }
    }
    core_->calls_finished.fetch_add(1, std::memory_order_relaxed);
    core_->calls_running.fetch_sub(1, std::memory_order_relaxed);
    OnCallDone(out, error);
  }

  std::shared_ptr<TMemoryBuffer> NewReplyBuffer() const {
    auto out = std::make_shared<TMemoryBuffer>();
    if (format_.framed) {
      // Room for the length, filled in once the reply is complete, so the reply goes out as one
      // buffer without a copy.
      const uint8_t placeholder[kFrameHeaderBytes] = {};
      out->write(placeholder, kFrameHeaderBytes);
    }
    return out;
  }

  // The generated C++ processor reports an undeclared handler exception as
  // TApplicationException(UNKNOWN, e.what()); HBase's Java server (and so its clients) use
  // INTERNAL_ERROR with a fixed text. Returns the rewritten reply, or null to keep `reply`.
  std::shared_ptr<TMemoryBuffer> MapUndeclaredException(
      const std::shared_ptr<TMemoryBuffer>& reply) const {
    uint8_t* bytes;
    uint32_t size;
    reply->getBuffer(&bytes, &size);
    size_t header = format_.framed ? kFrameHeaderBytes : 0;
    if (size <= header) return nullptr;  // oneway: no reply at all
    // The message type sits at a fixed offset, so an ordinary reply is let through unparsed.
    const uint8_t* message = bytes + header;
    const size_t length = size - header;
    if (format_.protocol == WireProtocol::kBinary && length >= 4 && message[0] == 0x80 &&
        message[1] == 0x01 && message[3] != apache::thrift::protocol::T_EXCEPTION) {
      return nullptr;
    }
    if (format_.protocol == WireProtocol::kCompact && length >= 2 && message[0] == 0x82 &&
        ((message[1] >> 5) & 0x07) != apache::thrift::protocol::T_EXCEPTION) {
      return nullptr;
    }
    std::string method;
    int32_t seqid = 0;
    TApplicationException original;
    try {
      auto view = std::make_shared<TMemoryBuffer>(bytes + header, size - header);
      auto protocol = MakeProtocol(format_.protocol, view);
      apache::thrift::protocol::TMessageType type;
      protocol->readMessageBegin(method, type, seqid);
      if (type != apache::thrift::protocol::T_EXCEPTION) return nullptr;
      original.read(protocol.get());
    } catch (const std::exception&) {
      return nullptr;  // not ours to judge; send it as the processor wrote it
    }
    if (original.getType() != TApplicationException::UNKNOWN) return nullptr;
    // Mostly bad client input (HBase answers it the same way), so not an ERROR.
    LOG(WARNING) << "[thrift_server] " << method << " from " << peer_
                 << " failed with an undeclared exception: " << original.what();
    auto out = NewReplyBuffer();
    auto protocol = MakeProtocol(format_.protocol, out);
    TApplicationException mapped(TApplicationException::INTERNAL_ERROR,
                                 "Internal error processing " + method);
    protocol->writeMessageBegin(method, apache::thrift::protocol::T_EXCEPTION, seqid);
    mapped.write(protocol.get());
    protocol->writeMessageEnd();
    return out;
  }

  void OnCallDone(const std::shared_ptr<TMemoryBuffer>& reply, const std::string& error) {
    if (closed_) return;
    if (!error.empty()) {
      LOG(WARNING) << "[thrift_server] closing connection from " << peer_ << ": " << error;
      Close();
      return;
    }
    begin_ += consumed_;
    uint8_t* bytes;
    uint32_t size;
    reply->getBuffer(&bytes, &size);
    auto self = shared_from_this();
    if (size <= (format_.framed ? kFrameHeaderBytes : 0)) {
      asio::post(strand_, [self] { self->OnWritten({}); });
      return;
    }
    asio::async_write(socket_, asio::buffer(bytes, size),
                      asio::bind_executor(strand_, [self, reply](const boost::system::error_code& ec,
                                                                 size_t) { self->OnWritten(ec); }));
  }

  void OnWritten(const boost::system::error_code& ec) {
    if (closed_) return;
    if (ec) {
      VLOG(1) << "[thrift_server] reply to " << peer_ << " not delivered: " << ec.message();
      Close();
      return;
    }
    busy_ = false;
    ProcessBuffered();
  }

  ServerCore* const core_;
  Strand strand_;
  tcp::socket socket_;
  const WireFormat format_;
  std::string peer_;

  // Received bytes not yet consumed are buffer_[begin_, end_).
  std::vector<uint8_t> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  // Fewest buffered bytes worth looking at again; saves re-skimming a large message per read.
  size_t want_ = 1;
  // Bytes the running call will consume once its reply is out (frame header included).
  size_t consumed_ = 0;

  bool busy_ = false;  // a call is running or its reply is being written
  bool closed_ = false;
  bool close_after_reply_ = false;
};

void ServerCore::Add(std::shared_ptr<Connection> conn) {
  std::lock_guard<std::mutex> lock(mu);
  connections.insert(std::move(conn));
}

void ServerCore::Remove(const std::shared_ptr<Connection>& conn) {
  std::lock_guard<std::mutex> lock(mu);
  connections.erase(conn);
  live_cv.notify_all();
}

}  // namespace

class ThriftServer::Impl {
 public:
  Impl(ThriftServerConfig config, std::shared_ptr<TProcessor> processor) : acceptor_(core_.io) {
    core_.config = std::move(config);
    core_.processor = std::move(processor);
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
    tcp::resolver resolver(core_.io);
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

    int workers = config.worker_threads > 0
                      ? config.worker_threads
                      : std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
    work_guard_.emplace(core_.io.get_executor());
    asio::post(accept_strand_, [this] { Accept(); });
    io_threads_.emplace_back([this] { RunLoop(); });
    for (int i = 1; i < workers; ++i) io_threads_.emplace_back([this] { RunStandby(); });
    started_ = true;
    LOG(INFO) << "[thrift_server] listening on " << endpoint.address().to_string() << ":"
              << port_ << " (" << (config.framed ? "framed" : "buffered") << ", "
              << (config.compact ? "compact" : "binary") << ", " << workers << " threads)";
    return true;
  }

  uint16_t port() const { return port_; }

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
    // Calls not yet started are dropped; a call still running is waited for, since a thread
    // cannot be abandoned safely.
    work_guard_.reset();
    standby_stop_ = true;
    core_.io.stop();
    for (std::thread& t : io_threads_) t.join();
    // No thread runs the loop any more, so what is left can be closed from here.
    std::vector<std::shared_ptr<Connection>> remaining;
    {
      std::lock_guard<std::mutex> lock(core_.mu);
      remaining.assign(core_.connections.begin(), core_.connections.end());
    }
    for (const auto& conn : remaining) conn->Close();
    if (!drained || !remaining.empty()) {
      LOG(WARNING) << "[thrift_server] " << remaining.size() << " connection(s) still busy after "
                   << kStopGrace.count() << " s; closed without their replies";
    }
    LOG(INFO) << "[thrift_server] stopped";
  }

 private:
  void RunLoop() {
    for (;;) {
      try {
        core_.io.run();
        return;
      } catch (const std::exception& e) {
        LOG(ERROR) << "[thrift_server] event loop handler threw: " << e.what();
      }
    }
  }

  // One thread runs the loop and the calls inline: on a small machine, handing the loop from
  // thread to thread on every call costs more than a point read. The other threads stand by and
  // join the loop only while every thread in it has been inside the same calls for a whole
  // kStandbyPoll, so a long call (a big scan, a slow disk) never stalls the other connections for
  // longer than about that.
  void RunStandby() {
    uint64_t finished = core_.calls_finished.load(std::memory_order_relaxed);
    while (!standby_stop_) {
      std::this_thread::sleep_for(kStandbyPoll);
      const uint64_t now_finished = core_.calls_finished.load(std::memory_order_relaxed);
      const bool stuck = core_.calls_running.load(std::memory_order_relaxed) >=
                             loop_threads_.load(std::memory_order_relaxed) &&
                         now_finished == finished;
      finished = now_finished;
      if (!stuck) continue;
      loop_threads_.fetch_add(1, std::memory_order_relaxed);
      try {
        // Long enough to amortise joining, short enough to step back once the loop is free.
        core_.io.run_for(kStandbyStint);
      } catch (const std::exception& e) {
        LOG(ERROR) << "[thrift_server] event loop handler threw: " << e.what();
      }
      loop_threads_.fetch_sub(1, std::memory_order_relaxed);
      // Leaving run_for can leave the reactor task queued with nobody told: the main loop thread
      // may be asleep waiting for work. A no-op post wakes it, and it takes over epoll.
      asio::post(core_.io, [] {});
      finished = core_.calls_finished.load(std::memory_order_relaxed);
    }
  }

  // Acceptor work runs on accept_strand_.
  void Accept() {
    acceptor_.async_accept(asio::bind_executor(accept_strand_, [this](
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
      WireFormat format;
      format.framed = core_.config.framed;
      format.protocol = core_.config.compact ? WireProtocol::kCompact : WireProtocol::kBinary;
      auto conn = std::make_shared<Connection>(&core_, std::move(socket), format);
      core_.Add(conn);
      conn->Start();
      Accept();
    }));
  }

  // On accept_strand_.
  void BeginStop() {
    stopping_ = true;
    boost::system::error_code ec;
    acceptor_.close(ec);
    retry_timer_.cancel();
    std::vector<std::shared_ptr<Connection>> connections;
    {
      std::lock_guard<std::mutex> lock(core_.mu);
      connections.assign(core_.connections.begin(), core_.connections.end());
    }
    for (const auto& conn : connections) conn->OnServerStopping();
  }

  // Declared first so it is destroyed last: sockets and handlers refer to its io_context.
  ServerCore core_;
  Strand accept_strand_{asio::make_strand(core_.io)};
  tcp::acceptor acceptor_;
  asio::steady_timer retry_timer_{core_.io};
  bool stopping_ = false;  // accept_strand_ only
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_guard_;
  std::vector<std::thread> io_threads_;
  std::atomic<bool> standby_stop_{false};
  std::atomic<int> loop_threads_{1};  // the main loop thread plus standby threads in the loop
  uint16_t port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
};

ThriftServer::ThriftServer(ThriftServerConfig config, std::shared_ptr<TProcessor> processor)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(processor))) {}

ThriftServer::~ThriftServer() { Stop(); }

bool ThriftServer::Start(std::string* error) { return impl_->Start(error); }

uint16_t ThriftServer::port() const { return impl_->port(); }

void ThriftServer::Stop() { impl_->Stop(); }

}  // namespace hbemu::server
