#include "server/net/event_loop.h"

#include <pthread.h>

#include <chrono>
#include <exception>

#include <boost/asio/post.hpp>
#include <glog/logging.h>

namespace hbemu::server {
namespace {

constexpr auto kStandbyPoll = std::chrono::milliseconds(1);
constexpr auto kStandbyStint = std::chrono::milliseconds(50);
constexpr int kStandbyIdlePolls = 100;

}  // namespace

void EventLoop::Start() {
  work_guard_.emplace(io.get_executor());
  threads_.emplace_back([this] { Run(); });
  threads_.emplace_back([this] { Standby(); });
}

void EventLoop::StopAndJoin() {
  work_guard_.reset();
  stop_ = true;
  WakeStandby();
  io.stop();
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

void EventLoop::Run() {
  // Named so that `top -H` (and a test counting the loop's wake-ups) can tell it apart.
  pthread_setname_np(pthread_self(), "hbemu-loop");
  for (;;) {
    try {
      io.run();
      return;
    } catch (const std::exception& e) {
      LOG(ERROR) << "[thrift_server] event loop handler threw: " << e.what();
    }
  }
}

void EventLoop::WakeStandby() {
  {
    std::lock_guard<std::mutex> lock(standby_mu_);
    standby_asleep_ = false;
  }
  standby_cv_.notify_one();
}

void EventLoop::Standby() {
  pthread_setname_np(pthread_self(), "hbemu-standby");
  uint64_t finished = calls_finished.load(std::memory_order_relaxed);
  int idle_polls = 0;
  while (!stop_) {
    std::this_thread::sleep_for(kStandbyPoll);
    const uint64_t now_finished = calls_finished.load(std::memory_order_relaxed);
    const int running = calls_running.load(std::memory_order_relaxed);
    const bool stuck = running >= loop_threads.load(std::memory_order_relaxed) &&
                       now_finished == finished;
    idle_polls = running == 0 && now_finished == finished ? idle_polls + 1 : 0;
    finished = now_finished;
    if (idle_polls >= kStandbyIdlePolls) {
      std::unique_lock<std::mutex> lock(standby_mu_);
      standby_asleep_ = true;
      if (calls_running.load() == 0) {
        standby_cv_.wait(lock, [this] { return !standby_asleep_.load() || stop_; });
      }
      standby_asleep_ = false;
      idle_polls = 0;
      finished = calls_finished.load(std::memory_order_relaxed);
      continue;
    }
    if (!stuck) continue;
    // Counted before it starts, so the next poll does not add another for the same calls.
    loop_threads.fetch_add(1, std::memory_order_relaxed);
    // A lent thread leaves the standby watching: if the helper too gets stuck in a call, the
    // next poll adds one more. Two slow calls used to hold the loop and the standby, and every
    // other connection of the loop waited for one of them to end (4.2 s in one measurement).
    if (lend_thread && lend_thread([this] { Help(); })) continue;
    Help();
    finished = calls_finished.load(std::memory_order_relaxed);
  }
}

void EventLoop::Help() {
  try {
    // Long enough to amortise joining, short enough to step back once the loop is free.
    io.run_for(kStandbyStint);
  } catch (const std::exception& e) {
    LOG(ERROR) << "[thrift_server] event loop handler threw: " << e.what();
  }
  loop_threads.fetch_sub(1, std::memory_order_relaxed);
  // Leaving run_for can leave the reactor task queued with nobody told: the loop's own
  // thread may be asleep waiting for work. A no-op post wakes it, and it takes over epoll.
  boost::asio::post(io, [] {});
}

}  // namespace hbemu::server
