#include "storage/clock.h"

#include <chrono>
#include <mutex>

namespace hbemu::storage {
namespace {

class SystemClock : public Clock {
 public:
  int64_t NowMillis() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

// Changes are rare (a test's control call), so one lock for every ControlledClock will do.
std::mutex controlled_clock_changes;

}  // namespace

Clock* Clock::System() {
  static SystemClock clock;
  return &clock;
}

int64_t ControlledClock::SystemMillis() { return Clock::System()->NowMillis(); }

int64_t ControlledClock::NowMillis() const {
  if (frozen_.load(std::memory_order_acquire)) return frozen_ms_.load(std::memory_order_relaxed);
  return SystemMillis() + offset_ms_.load(std::memory_order_relaxed);
}

int64_t ControlledClock::offset_ms() const { return NowMillis() - SystemMillis(); }

void ControlledClock::Freeze(int64_t at_ms) {
  std::lock_guard<std::mutex> lock(controlled_clock_changes);
  frozen_ms_.store(at_ms, std::memory_order_relaxed);
  frozen_.store(true, std::memory_order_release);
}

void ControlledClock::Advance(int64_t delta_ms) {
  std::lock_guard<std::mutex> lock(controlled_clock_changes);
  if (frozen_.load(std::memory_order_relaxed)) {
    frozen_ms_.fetch_add(delta_ms, std::memory_order_relaxed);
  } else {
    offset_ms_.fetch_add(delta_ms, std::memory_order_relaxed);
  }
}

void ControlledClock::SetOffset(int64_t offset_ms) {
  std::lock_guard<std::mutex> lock(controlled_clock_changes);
  offset_ms_.store(offset_ms, std::memory_order_relaxed);
  frozen_.store(false, std::memory_order_release);
}

}  // namespace hbemu::storage
