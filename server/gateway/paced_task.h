// Work that many threads ask for but that must run at most once in a while, without leaving a
// request unserved (returning free memory to the system after large calls: free_memory.h).

#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace hbemu::server {

// Runs `work` at most once per `min_interval`. A request when the last run is at least that old
// runs the work at once on the caller's thread (so a lone large call is followed by its trim as
// before); requests within the interval are folded into one run at its end, on a thread of the
// task's own, however many came. Thread-safe.
class PacedTask {
 public:
  PacedTask(std::function<void()> work, std::chrono::milliseconds min_interval);
  ~PacedTask();  // a run folded but not yet made is dropped
  PacedTask(const PacedTask&) = delete;
  PacedTask& operator=(const PacedTask&) = delete;

  void Request();
  // Tests: runs made so far.
  uint64_t runs() const;

 private:
  using Clock = std::chrono::steady_clock;
  void RunLater();  // the folding thread

  const std::function<void()> work_;
  const Clock::duration min_interval_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool running_ = false;    // guarded by mu_: a run is under way
  bool pending_ = false;    // guarded by mu_: a folded run is owed
  bool stopping_ = false;   // guarded by mu_
  Clock::time_point last_run_;  // guarded by mu_: when the last run started
  bool ran_ = false;        // guarded by mu_: last_run_ is set
  uint64_t runs_ = 0;       // guarded by mu_
  std::thread later_;       // started at the first folded request
};

}  // namespace hbemu::server
