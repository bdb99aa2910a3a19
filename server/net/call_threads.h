#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hbemu::server {

// A bounded set of threads, each of which takes one job at a time and keeps it as long as the
// job runs: the server gives each a connection that is calling back to back, to be served with
// blocking socket calls (see Connection::Drive in thrift_server.cc). Threads start on demand,
// are reused, and end after `idle_exit` without a job, so an idle server holds none.
//
// Thread-safe.
class CallThreads {
 public:
  CallThreads(size_t max_threads, std::chrono::milliseconds idle_exit);
  ~CallThreads();  // calls Stop()
  CallThreads(const CallThreads&) = delete;
  CallThreads& operator=(const CallThreads&) = delete;

  // Runs `job` on a free thread (starting one if fewer than max_threads exist) and returns
  // true; false when every thread is busy, or after Stop(): the caller then does the work
  // itself.
  bool TryRun(std::function<void()> job);

  // Refuses new jobs and waits for the running ones to return (making them return is the
  // caller's business) and for every thread to end.
  void Stop();

  // Threads alive now, busy or waiting for a job.
  size_t threads() const;
  // Threads running a job now.
  size_t busy() const;

 private:
  struct Worker;
  void Run(Worker* worker);

  const size_t max_threads_;
  const std::chrono::milliseconds idle_exit_;
  mutable std::mutex mu_;
  std::condition_variable ended_cv_;  // live_ lost a worker
  bool stopping_ = false;
  std::vector<std::unique_ptr<Worker>> live_;  // running a job or waiting in idle_
  std::vector<Worker*> idle_;
  // Workers whose thread is returning, to be joined by the next TryRun or Stop.
  std::vector<std::unique_ptr<Worker>> ended_;
};

}  // namespace hbemu::server
