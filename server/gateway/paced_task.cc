#include "server/gateway/paced_task.h"

#include <pthread.h>

#include <utility>

namespace hbemu::server {

PacedTask::PacedTask(std::function<void()> work, std::chrono::milliseconds min_interval)
    : work_(std::move(work)), min_interval_(min_interval) {}

PacedTask::~PacedTask() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (later_.joinable()) later_.join();
}

void PacedTask::Request() {
  std::unique_lock<std::mutex> lock(mu_);
  const Clock::time_point now = Clock::now();
  if (!running_ && !pending_ && (!ran_ || now - last_run_ >= min_interval_)) {
    running_ = true;
    ran_ = true;
    last_run_ = now;
    ++runs_;
    lock.unlock();
    work_();
    lock.lock();
    running_ = false;
    cv_.notify_all();
    return;
  }
  if (pending_) return;  // already folded into the next run
  pending_ = true;
  if (!later_.joinable()) later_ = std::thread([this] { RunLater(); });
  cv_.notify_all();
}

void PacedTask::RunLater() {
  pthread_setname_np(pthread_self(), "hbemu-paced");
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (!pending_) {
      cv_.wait(lock);
      continue;
    }
    const Clock::time_point due = last_run_ + min_interval_;
    if (running_ || Clock::now() < due) {
      cv_.wait_until(lock, running_ ? Clock::now() + min_interval_ : due);
      continue;
    }
    pending_ = false;
    running_ = true;
    last_run_ = Clock::now();
    ++runs_;
    lock.unlock();
    work_();
    lock.lock();
    running_ = false;
  }
}

uint64_t PacedTask::runs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return runs_;
}

}  // namespace hbemu::server
