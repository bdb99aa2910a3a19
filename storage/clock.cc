#include "storage/clock.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>

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

// The reading `base + delta` if it is one the clock may show, else an error naming `what`.
Status ReadingAfter(int64_t base, int64_t delta, const std::string& what, int64_t* out) {
  int64_t sum = 0;
  if (__builtin_add_overflow(base, delta, &sum) || sum < ControlledClock::kEarliestMillis ||
      sum > ControlledClock::kLatestMillis) {
    return Status::InvalidArgument(
        what + " would take the clock outside " +
        std::to_string(ControlledClock::kEarliestMillis) + ".." +
        std::to_string(ControlledClock::kLatestMillis) +
        " ms since 1970 (server-dated writes before 1970 would be invisible); the clock is "
        "unchanged");
  }
  *out = sum;
  return Status::OK();
}

}  // namespace

Clock* Clock::System() {
  static SystemClock clock;
  return &clock;
}

int64_t ControlledClock::SystemMillis() { return Clock::System()->NowMillis(); }

int64_t ControlledClock::NowMillis() const {
  if (frozen_.load(std::memory_order_acquire)) return frozen_ms_.load(std::memory_order_relaxed);
  // A running clock keeps moving after a change was checked (and the system clock can be set
  // back), so its reading is held inside the range rather than trusted to stay there.
  int64_t now = 0;
  if (__builtin_add_overflow(SystemMillis(), offset_ms_.load(std::memory_order_relaxed), &now)) {
    return kLatestMillis;
  }
  return std::clamp(now, kEarliestMillis, kLatestMillis);
}

int64_t ControlledClock::offset_ms() const { return NowMillis() - SystemMillis(); }

Status ControlledClock::Freeze(int64_t at_ms) {
  int64_t reading = 0;
  HBEMU_RETURN_IF_ERROR(ReadingAfter(at_ms, 0, "freezing at " + std::to_string(at_ms), &reading));
  std::lock_guard<std::mutex> lock(controlled_clock_changes);
  frozen_ms_.store(reading, std::memory_order_relaxed);
  frozen_.store(true, std::memory_order_release);
  return Status::OK();
}

void ControlledClock::FreezeNow() {
  std::lock_guard<std::mutex> lock(controlled_clock_changes);
  frozen_ms_.store(NowMillis(), std::memory_order_relaxed);
  frozen_.store(true, std::memory_order_release);
}

Status ControlledClock::Advance(int64_t delta_ms) {
  std::lock_guard<std::mutex> lock(controlled_clock_changes);
  int64_t reading = 0;
  const std::string what = "moving by " + std::to_string(delta_ms) + " ms";
  if (frozen_.load(std::memory_order_relaxed)) {
    HBEMU_RETURN_IF_ERROR(
        ReadingAfter(frozen_ms_.load(std::memory_order_relaxed), delta_ms, what, &reading));
    frozen_ms_.store(reading, std::memory_order_relaxed);
  } else {
    int64_t offset = 0;
    if (__builtin_add_overflow(offset_ms_.load(std::memory_order_relaxed), delta_ms, &offset)) {
      offset = delta_ms < 0 ? std::numeric_limits<int64_t>::min()
                            : std::numeric_limits<int64_t>::max();  // refused just below
    }
    HBEMU_RETURN_IF_ERROR(ReadingAfter(SystemMillis(), offset, what, &reading));
    offset_ms_.store(offset, std::memory_order_relaxed);
  }
  return Status::OK();
}

Status ControlledClock::SetOffset(int64_t offset_ms) {
  int64_t reading = 0;
  HBEMU_RETURN_IF_ERROR(ReadingAfter(SystemMillis(), offset_ms,
                                     "an offset of " + std::to_string(offset_ms) + " ms",
                                     &reading));
  std::lock_guard<std::mutex> lock(controlled_clock_changes);
  offset_ms_.store(offset_ms, std::memory_order_relaxed);
  frozen_.store(false, std::memory_order_release);
  return Status::OK();
}

void ControlledClock::Resume() {
  std::lock_guard<std::mutex> lock(controlled_clock_changes);
  offset_ms_.store(0, std::memory_order_relaxed);
  frozen_.store(false, std::memory_order_release);
}

}  // namespace hbemu::storage
