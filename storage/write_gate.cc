#include "storage/write_gate.h"

namespace hbemu::storage {

// A write counts itself in, then looks for a change; a change counts itself in, then waits for
// the writes. Both are sequentially consistent, so at least one of the two sees the other: a
// write never runs alongside a change. The mutex is taken only when a change is about.
WriteGate::WriteHold WriteGate::EnterWrite() {
  for (;;) {
    writes_.fetch_add(1);
    if (changes_.load() == 0) return WriteHold(this);
    LeaveWrite();  // a change runs or waits: let it go first
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return changes_.load() == 0; });
  }
}

void WriteGate::LeaveWrite() {
  if (writes_.fetch_sub(1) == 1 && changes_.load() != 0) {
    // Under the mutex, so a change between its check and its wait cannot miss it.
    std::lock_guard<std::mutex> lock(mu_);
    cv_.notify_all();
  }
}

WriteGate::ChangeHold WriteGate::EnterChange() {
  std::unique_lock<std::mutex> lock(mu_);
  changes_.fetch_add(1);
  cv_.wait(lock, [this] { return writes_.load() == 0 && !changing_; });
  changing_ = true;
  return ChangeHold(this);
}

void WriteGate::LeaveChange() {
  std::lock_guard<std::mutex> lock(mu_);
  changing_ = false;
  changes_.fetch_sub(1);
  cv_.notify_all();
}

size_t WriteGate::writes_for_testing() const { return writes_.load(); }

size_t WriteGate::changes_for_testing() const { return changes_.load(); }

}  // namespace hbemu::storage
