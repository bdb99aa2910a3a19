#pragma once

#include <atomic>
#include <cstdint>

namespace hbemu::storage {

// Wall-clock milliseconds since the epoch. Injected so TTL and "now" timestamps are
// deterministic in tests.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t NowMillis() const = 0;
  // The process-wide system clock.
  static Clock* System();
};

// A clock that only moves when told to. Thread-safe.
class ManualClock : public Clock {
 public:
  explicit ManualClock(int64_t now_ms) : now_ms_(now_ms) {}
  int64_t NowMillis() const override { return now_ms_.load(); }
  void Set(int64_t now_ms) { now_ms_.store(now_ms); }
  void Advance(int64_t delta_ms) { now_ms_.fetch_add(delta_ms); }

 private:
  std::atomic<int64_t> now_ms_;
};

}  // namespace hbemu::storage
