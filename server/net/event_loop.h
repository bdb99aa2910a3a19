#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace hbemu::server {

// One event loop: an io_context run by its own thread, which also runs the calls of the
// connections assigned to it (inline: a hand-off to another thread costs more than a point
// read). A standby thread watches it: whenever every thread running the loop has been inside
// the same calls for a whole poll (1 ms), it has one more thread join the loop for a while, so
// long calls (a big scan, a slow disk) never stall the loop's other connections for much longer
// than that, however many of them run at once. The extra threads are lent (lend_thread: the
// server's call threads, so their number is bounded); when none is free, the standby joins
// itself.
struct EventLoop {
  boost::asio::io_context io;
  // Calls running now, and calls finished so far: the standby thread reads them to tell a loop
  // that is stuck in a long call from a busy one.
  std::atomic<int> calls_running{0};
  std::atomic<uint64_t> calls_finished{0};
  std::atomic<int> loop_threads{1};  // the loop's own thread plus those helping it now
  std::atomic<int> connections{0};   // open connections assigned here, for balancing
  // Set before Start, or left empty: runs a job on a thread of its own and returns true, or
  // returns false when no thread is free.
  std::function<bool(std::function<void()>)> lend_thread;

  void Start();

  // On the loop, before parsing or running a call.
  void CallStarting() {
    // The increment is a full barrier, so either this load sees the standby asleep or the
    // standby's own check after announcing its sleep sees this call.
    calls_running.fetch_add(1);
    if (standby_asleep_.load()) WakeStandby();
  }
  void CallFinished() {
    calls_finished.fetch_add(1, std::memory_order_relaxed);
    calls_running.fetch_sub(1, std::memory_order_relaxed);
  }

  // Drops calls not yet started; a call still running is waited for, since a thread cannot be
  // abandoned safely.
  void StopAndJoin();

 private:
  void Run();

  void WakeStandby();

  // On a thread that loop_threads already counts: runs the loop for one stint, then leaves.
  void Help();

  // Polls every kStandbyPoll while the loop works; after kStandbyIdlePolls polls without a call
  // it sleeps until the loop starts one, so an idle server costs no wake-ups.
  void Standby();

  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>>
      work_guard_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  std::mutex standby_mu_;
  std::condition_variable standby_cv_;
  std::atomic<bool> standby_asleep_{false};
};

}  // namespace hbemu::server
