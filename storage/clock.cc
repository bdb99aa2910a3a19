#include "storage/clock.h"

#include <chrono>

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

}  // namespace

Clock* Clock::System() {
  static SystemClock clock;
  return &clock;
}

}  // namespace hbemu::storage
