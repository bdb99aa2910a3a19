#include "server/net/call_threads.h"

#include <pthread.h>

#include <algorithm>
#include <memory>

namespace hbemu::server {

struct CallThreads::Worker {
  std::thread thread;
  std::condition_variable cv;
  std::function<void()> job;  // set by TryRun, taken by the worker
};

CallThreads::CallThreads(size_t max_threads, std::chrono::milliseconds idle_exit)
    : max_threads_(max_threads), idle_exit_(idle_exit) {}

CallThreads::~CallThreads() { Stop(); }

bool CallThreads::TryRun(std::function<void()> job) {
  std::vector<std::unique_ptr<Worker>> ended;
  bool taken = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return false;
    ended.swap(ended_);
    if (!idle_.empty()) {
      Worker* worker = idle_.back();
      idle_.pop_back();
      worker->job = std::move(job);
      worker->cv.notify_one();
    } else if (live_.size() < max_threads_) {
      auto worker = std::make_unique<Worker>();
      worker->job = std::move(job);
      Worker* raw = worker.get();
      live_.push_back(std::move(worker));
      // Run() takes mu_ first, so the thread member is set before the worker looks at itself.
      raw->thread = std::thread([this, raw] { Run(raw); });
    } else {
      taken = false;
    }
  }
  // A worker in ended_ has let go of mu_ for good, so its thread is about to return.
  for (auto& worker : ended) worker->thread.join();
  return taken;
}

void CallThreads::Run(Worker* worker) {
  pthread_setname_np(pthread_self(), "hbemu-call");
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    std::function<void()> job = std::move(worker->job);
    worker->job = nullptr;
    lock.unlock();
    job();
    job = nullptr;  // what the job captured goes before the lock is taken again
    lock.lock();
    if (stopping_) break;
    idle_.push_back(worker);
    worker->cv.wait_for(lock, idle_exit_, [&] { return worker->job != nullptr || stopping_; });
    if (worker->job != nullptr) continue;  // TryRun took it off idle_
    idle_.erase(std::find(idle_.begin(), idle_.end(), worker));
    break;
  }
  auto it = std::find_if(live_.begin(), live_.end(),
                         [worker](const std::unique_ptr<Worker>& w) { return w.get() == worker; });
  ended_.push_back(std::move(*it));
  live_.erase(it);
  ended_cv_.notify_all();
}

void CallThreads::Stop() {
  std::vector<std::unique_ptr<Worker>> ended;
  {
    std::unique_lock<std::mutex> lock(mu_);
    stopping_ = true;
    for (Worker* worker : idle_) worker->cv.notify_one();
    ended_cv_.wait(lock, [this] { return live_.empty(); });
    ended.swap(ended_);
  }
  for (auto& worker : ended) worker->thread.join();
}

size_t CallThreads::threads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return live_.size();
}

size_t CallThreads::busy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return live_.size() - idle_.size();
}

}  // namespace hbemu::server
