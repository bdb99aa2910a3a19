#include "storage/write_gate.h"

namespace hbemu::storage {

WriteGate::WriteHold WriteGate::EnterWrite() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return changes_ == 0; });
  ++writes_;
  return WriteHold(this);
}

void WriteGate::LeaveWrite() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--writes_ == 0 && changes_ > 0) cv_.notify_all();
}

WriteGate::ChangeHold WriteGate::EnterChange() {
  std::unique_lock<std::mutex> lock(mu_);
  ++changes_;
  cv_.wait(lock, [this] { return writes_ == 0 && !changing_; });
  changing_ = true;
  return ChangeHold(this);
}

void WriteGate::LeaveChange() {
  std::lock_guard<std::mutex> lock(mu_);
  changing_ = false;
  --changes_;
  cv_.notify_all();
}

size_t WriteGate::writes_for_testing() const {
  std::lock_guard<std::mutex> lock(mu_);
  return writes_;
}

size_t WriteGate::changes_for_testing() const {
  std::lock_guard<std::mutex> lock(mu_);
  return changes_;
}

}  // namespace hbemu::storage
