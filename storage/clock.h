#pragma once

#include <atomic>
#include <cstdint>
#include <limits>

#include "storage/status.h"

namespace hbemu::storage {

// Wall-clock milliseconds since the epoch. Injected so TTL and "now" timestamps are
// deterministic in tests.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t NowMillis() const = 0;
  // True while the clock is stopped (the test controls' freeze): the store then dates each
  // server-dated write of a column past the previous one, as a millisecond between calls would.
  virtual bool stopped() const { return false; }
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

// The clock of --test-controls: the system clock shifted by an offset, or frozen at a reading.
// Everything in the store that reads "now" (server-assigned timestamps, TTL expiry, the row
// clock) and the scanner registries read it, so a test can move time instead of sleeping.
// Reads are two atomic loads; changes are serialised. Thread-safe.
//
// Its reading stays in [kEarliestMillis, kLatestMillis]: a change that would take it outside is
// refused (InvalidArgument) and leaves it as it was. Before 1970 every server-dated write would
// be acknowledged and stay invisible (reads cover timestamps from 0, as HBase's); at the top
// the newest write timestamp (LATEST_TIMESTAMP - 1) stays above the reading, so a frozen
// clock's writes can still go one past each other, and no sum of changes wraps.
class ControlledClock : public Clock {
 public:
  static constexpr int64_t kEarliestMillis = 0;
  static constexpr int64_t kLatestMillis = std::numeric_limits<int64_t>::max() - 2;

  int64_t NowMillis() const override;
  // Stops the clock at `at_ms` (ms since the epoch).
  Status Freeze(int64_t at_ms);
  // Stops the clock at its current reading.
  void FreezeNow();
  // Moves the clock by `delta_ms` (negative goes back), frozen or not.
  Status Advance(int64_t delta_ms);
  // Runs again, `offset_ms` ahead of the system clock (behind when negative).
  Status SetOffset(int64_t offset_ms);
  // Back to the system clock: running, no offset.
  void Resume();
  bool frozen() const { return frozen_.load(std::memory_order_acquire); }
  bool stopped() const override { return frozen(); }
  // How far ahead of the system clock the reading is (changes with time while frozen).
  int64_t offset_ms() const;

 private:
  static int64_t SystemMillis();
  std::atomic<bool> frozen_{false};
  std::atomic<int64_t> frozen_ms_{0};
  std::atomic<int64_t> offset_ms_{0};
};

}  // namespace hbemu::storage
