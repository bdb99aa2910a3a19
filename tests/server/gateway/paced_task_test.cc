// PacedTask (server/gateway/paced_task.h), which paces the process's malloc_trim calls: at most
// one run per interval, a lone request served at once, a burst folded into one later run.

#include "server/gateway/paced_task.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace hbemu::server {
namespace {

using std::chrono::milliseconds;

TEST(PacedTaskTest, ALoneRequestRunsAtOnceOnTheCallersThread) {
  std::thread::id ran_on;
  PacedTask task([&] { ran_on = std::this_thread::get_id(); }, milliseconds(200));
  task.Request();
  EXPECT_EQ(task.runs(), 1u);
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

TEST(PacedTaskTest, ABurstWithinTheIntervalIsFoldedIntoOneLaterRun) {
  std::atomic<int> runs{0};
  PacedTask task([&] { ++runs; }, milliseconds(200));
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) task.Request();
    });
  }
  for (std::thread& t : callers) t.join();
  const auto burst = std::chrono::steady_clock::now() - start;
  ASSERT_LT(burst, milliseconds(200)) << "the burst outlasted the interval; the counts below assume it did not";
  EXPECT_EQ(runs.load(), 1);  // the first request; the other 3,999 wait for the interval's end
  ASSERT_TRUE(testutil::WaitUntil([&] { return runs.load() == 2; }));
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(200));
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(runs.load(), 2);  // nothing owed after the folded run
}

TEST(PacedTaskTest, RunsAreAtLeastTheIntervalApartUnderASteadyStream) {
  std::mutex mu;
  std::vector<std::chrono::steady_clock::time_point> starts;
  PacedTask task(
      [&] {
        std::lock_guard<std::mutex> lock(mu);
        starts.push_back(std::chrono::steady_clock::now());
      },
      milliseconds(50));
  const auto until = std::chrono::steady_clock::now() + milliseconds(400);
  while (std::chrono::steady_clock::now() < until) {
    task.Request();
    std::this_thread::sleep_for(milliseconds(1));
  }
  ASSERT_TRUE(testutil::WaitUntil([&] {
    std::lock_guard<std::mutex> lock(mu);
    return !starts.empty() && std::chrono::steady_clock::now() - starts.back() > milliseconds(60);
  }));
  std::lock_guard<std::mutex> lock(mu);
  // About 400 requests: 400 ms / 50 ms runs, the first at once and the last after the stream.
  EXPECT_GE(starts.size(), 5u);
  EXPECT_LE(starts.size(), 10u);
  for (size_t i = 1; i < starts.size(); ++i) {
    EXPECT_GE(starts[i] - starts[i - 1], milliseconds(50)) << "run " << i;
  }
}

TEST(PacedTaskTest, ARequestAfterTheIntervalRunsAtOnceAgain) {
  std::atomic<int> runs{0};
  PacedTask task([&] { ++runs; }, milliseconds(30));
  task.Request();
  std::this_thread::sleep_for(milliseconds(60));
  task.Request();
  EXPECT_EQ(runs.load(), 2);
}

}  // namespace
}  // namespace hbemu::server
