#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace hbemu::server {

// Calls of the REST door by endpoint and status class, published for /metrics: the REST door
// counts into it and the admin door reads it, neither knowing the other. The endpoint names
// are the door's, fixed when it is made, so the series are bounded. Thread-safe (relaxed
// atomics: each figure exact, the set not one instant).
class RestCounters {
 public:
  static constexpr int kStatusClasses = 5;  // 1xx .. 5xx

  explicit RestCounters(std::vector<std::string> endpoint_names);

  // One call of endpoint `index` answered with `status`. An index out of range is ignored.
  void Record(size_t index, int status);

  struct Sample {
    std::string endpoint;
    std::string status_class;  // "2xx", ...
    uint64_t calls;
  };
  // Every (endpoint, class) pair with calls, in endpoint order.
  std::vector<Sample> Snapshot() const;

 private:
  const std::vector<std::string> names_;
  std::vector<std::array<std::atomic<uint64_t>, kStatusClasses>> calls_;
};

}  // namespace hbemu::server
