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

#include "server/limits.h"
#include "server/net/connection.h"
#include "server/net/monotonic_time.h"

namespace hbemu::server {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using apache::thrift::TConfiguration;
using apache::thrift::TProcessor;

constexpr auto kStopGrace = std::chrono::seconds(5);
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(100);
constexpr int64_t kRefusalLogPeriodMs = 10000;

}  // namespace

class ThriftServer::Impl {
 public:
  Impl(ThriftServerConfig config, std::shared_ptr<TProcessor> processor)
      : core_(std::move(config)), acceptor_(core_.loops.front()->io) {
    core_.processor = std::move(processor);
    core_.session_config.forcing = core_.config.forcing;
    core_.session_config.max_message_bytes = core_.config.max_message_bytes;
    const Limits& limits = CurrentLimits();
    core_.session_config.idle_buffer_bytes = static_cast<size_t>(limits.idle_buffer_bytes);
    core_.session_config.retained_buffer_bytes =
        static_cast<size_t>(limits.retained_buffer_bytes);
    core_.write_timeout_ms = limits.write_timeout_ms;
    core_.message_timeout_ms = limits.message_timeout_ms;
    core_.max_connections = limits.connections;
    core_.session_config.stats = &core_.stats;
    core_.session_config.hook = core_.config.call_hook;
    // The processor reads each message from its own buffer, already bounded by
    // max_message_bytes; libthrift's default 100 MB budget must not be stricter than that.
    // Its recursion limit is the skimmer's (Limits::thrift_depth).
    // make_shared takes its arguments by reference: a copy, so that libthrift's in-class
    // constant needs no out-of-line definition (an unoptimised build fails to link without).
    const int max_frame_size = TConfiguration::DEFAULT_MAX_FRAME_SIZE;
    core_.thrift_config = std::make_shared<TConfiguration>(
        static_cast<int>(std::min<size_t>(core_.config.max_message_bytes, INT_MAX)),
        max_frame_size, static_cast<int>(limits.thrift_depth));
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
    if (SweepPeriodMs() > 0) asio::post(accept_strand_, [this] { ScheduleStallSweep(); });
    LOG(INFO) << "[thrift_server] listening on " << endpoint.address().to_string() << ":"
              << port_ << " (" << ModeDescription(config.forcing) << ", " << core_.loops.size()
              << " event loops, idle timeout "
              << (config.idle_timeout_ms > 0 ? std::to_string(config.idle_timeout_ms) + " ms"
                                             : std::string("off"))
              << ", write timeout "
              << (core_.write_timeout_ms > 0 ? std::to_string(core_.write_timeout_ms) + " ms"
                                             : std::string("off"))
              << ", message timeout "
              << (core_.message_timeout_ms > 0 ? std::to_string(core_.message_timeout_ms) + " ms"
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

  size_t BusyCallThreads() const {
    return static_cast<size_t>(
        std::max<int64_t>(0, core_.stats.on_call_threads.load(std::memory_order_relaxed)));
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
    // Call threads end once their connection's call is done (each looks at the stop flag
    // between calls and wakes from a quiet socket within 50 ms).
    if (core_.call_threads) core_.call_threads->Stop();
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
      if (core_.max_connections > 0 &&
          core_.Count() >= static_cast<size_t>(core_.max_connections)) {
        Refuse(std::move(socket));
        return Accept();
      }
      boost::system::error_code opt_ec;
      socket.set_option(tcp::no_delay(true), opt_ec);
      auto conn = std::make_shared<Connection>(&core_, loop, std::move(socket));
      core_.Add(conn);
      conn->Start();
      Accept();
    }));
  }

  // On accept_strand_. A connection past Limits::connections is closed before it costs anything
  // but its descriptor for a moment: a client opening connections without end would otherwise
  // take descriptors and memory from every other client. Counted in the stats; logged at most
  // once per kRefusalLogPeriod so that a flood does not flood the log too.
  void Refuse(tcp::socket socket) {
    core_.stats.refused.fetch_add(1, std::memory_order_relaxed);
    boost::system::error_code ec;
    socket.close(ec);
    ++refused_since_log_;
    const int64_t now = MonotonicMs();
    if (last_refusal_log_ms_ != 0 && now - last_refusal_log_ms_ < kRefusalLogPeriodMs) return;
    LOG(WARNING) << "[thrift_server] port " << port_ << " has " << core_.max_connections
                 << " connections open (limit connections): refused " << refused_since_log_
                 << " new connection(s)"
                 << (last_refusal_log_ms_ == 0 ? std::string()
                                               : " in the last " +
                                                     std::to_string(now - last_refusal_log_ms_) +
                                                     " ms");
    last_refusal_log_ms_ = now;
    refused_since_log_ = 0;
  }

  static std::string ModeDescription(const WireForcing& forcing) {
    std::string transport = forcing.transport ? WireTransportName(*forcing.transport)
                                              : "buffered/framed/http";
    std::string protocol = forcing.protocol ? WireProtocolName(*forcing.protocol)
                                            : "binary/compact";
    const bool detected = !forcing.transport || !forcing.protocol;
    return transport + ", " + protocol + (detected ? " detected per connection" : "");
  }

  // How often the stall sweep looks: often enough that a connection outlives the idle, write or
  // message timeout by at most a quarter of it (and by at most a second); 0 when all are off.
  int64_t SweepPeriodMs() const {
    int64_t shortest = 0;
    for (int64_t timeout :
         {core_.config.idle_timeout_ms, core_.write_timeout_ms, core_.message_timeout_ms}) {
      if (timeout > 0 && (shortest == 0 || timeout < shortest)) shortest = timeout;
    }
    return shortest > 0 ? std::clamp<int64_t>(shortest / 4, 10, 1000) : 0;
  }

  // On accept_strand_.
  void ScheduleStallSweep() {
    if (stopping_) return;
    sweep_timer_.expires_after(std::chrono::milliseconds(SweepPeriodMs()));
    sweep_timer_.async_wait(
        asio::bind_executor(accept_strand_, [this](const boost::system::error_code& ec) {
          if (ec || stopping_) return;
          const int64_t now = MonotonicMs();
          for (const auto& conn : core_.Snapshot()) conn->CloseIfStalled(now);
          ScheduleStallSweep();
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
  int64_t last_refusal_log_ms_ = 0;  // accept_strand_ only
  uint64_t refused_since_log_ = 0;   // accept_strand_ only
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
size_t ThriftServer::BusyCallThreads() const { return impl_->BusyCallThreads(); }

void ThriftServer::Stop() { impl_->Stop(); }

}  // namespace hbemu::server
