// The steady clock in milliseconds and microseconds, for a connection's deadlines and pacing.
// Never the cells' clock (storage/clock.h), which the test controls may freeze or move.
#pragma once

#include <chrono>
#include <cstdint>

namespace hbemu::server {

inline int64_t MonotonicMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline int64_t MonotonicUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace hbemu::server
