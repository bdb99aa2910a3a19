// The test controls' shared state (server/control/control_state.h) used from many threads at
// once, as call threads, the admin thread and main use it: clock changes and their listeners,
// hooks, the switch calls check, and /metrics. Run under ThreadSanitizer (label concurrency).
#include "server/control/control_state.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace hbemu::server::control {
namespace {

TEST(ControlStateTest, ClockChangesHooksAndMetricsFromManyThreadsAtOnce) {
  ControlState state;
  std::atomic<int> heard{0};
  state.OnClockChange([&heard] { heard.fetch_add(1, std::memory_order_relaxed); });
  ASSERT_TRUE(state.clock()->Freeze(1000000).ok());
  std::vector<std::thread> threads;
  // Two threads move the clock and tell the listeners, as control requests do.
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&state] {
      for (int i = 0; i < 500; ++i) {
        ASSERT_TRUE(state.clock()->Advance(1).ok());
        state.ClockChanged();
      }
    });
  }
  // One registers listeners and hooks while they run, one reads the clock, the switch and
  // /metrics as call threads and the console do.
  threads.emplace_back([&state] {
    for (int i = 0; i < 200; ++i) {
      state.OnClockChange([] {});
      CallHook* hook = state.HookFor(i % 2 ? "thrift1" : "thrift2");
      ASSERT_NE(hook, nullptr);
      state.Refresh();
    }
  });
  threads.emplace_back([&state] {
    int64_t last = 0;
    for (int i = 0; i < 2000; ++i) {
      const int64_t now = state.clock()->NowMillis();
      ASSERT_GE(now, last) << "advances only move the clock forward";
      last = now;
      ASSERT_FALSE(state.PrometheusText().empty());
    }
  });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(state.clock()->NowMillis(), 1000000 + 2 * 500);
  EXPECT_EQ(heard.load(), 2 * 500);
}

}  // namespace
}  // namespace hbemu::server::control
