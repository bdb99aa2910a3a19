#include "server/net/call_threads.h"

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace hbemu::server {
namespace {

using std::chrono::milliseconds;

using testutil::WaitUntil;

TEST(CallThreadsTest, RunsAtMostMaxThreadsAtOnceAndRefusesTheRest) {
  CallThreads threads(2, milliseconds(10000));
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> running{0};
  auto blocking_job = [&] {
    running++;
    released.wait();
    running--;
  };
  ASSERT_TRUE(threads.TryRun(blocking_job));
  ASSERT_TRUE(threads.TryRun(blocking_job));
  EXPECT_FALSE(threads.TryRun([] { ADD_FAILURE() << "ran beyond the limit"; }));
  ASSERT_TRUE(WaitUntil([&] { return running.load() == 2; }));
  EXPECT_EQ(threads.busy(), 2u);
  release.set_value();
  ASSERT_TRUE(WaitUntil([&] { return threads.busy() == 0; }));
  // Finished threads are reused, not multiplied.
  std::atomic<int> ran{0};
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(WaitUntil([&] { return threads.TryRun([&] { ran++; }); }));
  }
  ASSERT_TRUE(WaitUntil([&] { return ran.load() == 50; }));
  EXPECT_LE(threads.threads(), 2u);
}

TEST(CallThreadsTest, ThreadsEndAfterAQuietSpell) {
  CallThreads threads(4, milliseconds(50));
  std::atomic<bool> ran{false};
  ASSERT_TRUE(threads.TryRun([&] { ran = true; }));
  ASSERT_TRUE(WaitUntil([&] { return ran.load(); }));
  EXPECT_EQ(threads.threads(), 1u);
  EXPECT_TRUE(WaitUntil([&] { return threads.threads() == 0; }));
  // And a later job starts a new one.
  std::atomic<bool> ran_again{false};
  ASSERT_TRUE(threads.TryRun([&] { ran_again = true; }));
  EXPECT_TRUE(WaitUntil([&] { return ran_again.load(); }));
}

TEST(CallThreadsTest, StopWaitsForRunningJobsAndRefusesNewOnes) {
  CallThreads threads(2, milliseconds(10000));
  std::atomic<bool> finished{false};
  std::atomic<bool> started{false};
  ASSERT_TRUE(threads.TryRun([&] {
    started = true;
    std::this_thread::sleep_for(milliseconds(200));
    finished = true;
  }));
  ASSERT_TRUE(WaitUntil([&] { return started.load(); }));
  threads.Stop();
  EXPECT_TRUE(finished.load());
  EXPECT_EQ(threads.threads(), 0u);
  EXPECT_FALSE(threads.TryRun([] { ADD_FAILURE() << "ran after Stop"; }));
}

}  // namespace
}  // namespace hbemu::server
