// The scanner registry: ids, the idle timeout (enforced by the registry's own timer, with no
// further call needed), the open_scanners cap (the longest idle is closed), and ids that wrap
// around without landing on a scanner still open.

#include "server/gateway/scanner_registry.h"

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "storage/clock.h"
#include "tests/test_util.h"

namespace hbemu::server {
namespace {

constexpr int64_t kNow = 1'700'000'000'000;

// Entries carry no scanner here: the registry never looks inside one.
int32_t AddEmpty(ScannerRegistry* registry) { return registry->Add(nullptr, false, "t"); }

TEST(ScannerRegistryTest, IdsCountUpFromZeroAndClosedIdsAreInvalid) {
  storage::ManualClock clock(kNow);
  ScannerRegistry registry(&clock, 60000, 100);
  EXPECT_EQ(AddEmpty(&registry), 0);
  EXPECT_EQ(AddEmpty(&registry), 1);
  EXPECT_NE(registry.Find(0), nullptr);
  EXPECT_TRUE(registry.Remove(0));
  EXPECT_FALSE(registry.Remove(0));
  EXPECT_EQ(registry.Find(0), nullptr);
  EXPECT_EQ(AddEmpty(&registry), 2);  // never reused before a wrap
  EXPECT_EQ(registry.size(), 2u);
}

TEST(ScannerRegistryTest, IdleScannerIsClosedByTheTimerWithoutAnyFurtherCall) {
  storage::ManualClock clock(kNow);
  ScannerRegistry registry(&clock, 50, 100);
  const int32_t idle = AddEmpty(&registry);
  std::weak_ptr<ScannerRegistry::Entry> idle_entry = registry.Find(idle);
  clock.Advance(51);
  // Nothing calls the registry from here on: only its timer can close the scanner.
  ASSERT_TRUE(testutil::WaitUntil([&] { return idle_entry.expired(); }));
  EXPECT_EQ(registry.expired(), 1u);
  EXPECT_EQ(registry.evicted(), 0u);
  EXPECT_EQ(registry.size(), 0u);
  EXPECT_EQ(registry.Find(idle), nullptr);
}

TEST(ScannerRegistryTest, UseRestartsTheIdleTimerAndAScannerInUseIsNotExpired) {
  storage::ManualClock clock(kNow);
  ScannerRegistry registry(&clock, 50, 100);
  const int32_t used = AddEmpty(&registry);
  const int32_t held = AddEmpty(&registry);
  const int32_t idle = AddEmpty(&registry);
  std::weak_ptr<ScannerRegistry::Entry> idle_entry = registry.Find(idle);
  std::shared_ptr<ScannerRegistry::Entry> in_call = registry.Find(held);  // a call in progress
  clock.Advance(40);
  ASSERT_NE(registry.Find(used), nullptr);
  clock.Advance(40);  // `idle` and `held` are 80 ms idle, `used` 40
  ASSERT_TRUE(testutil::WaitUntil([&] { return idle_entry.expired(); }));
  EXPECT_NE(registry.Find(used), nullptr);
  in_call.reset();
  EXPECT_NE(registry.Find(held), nullptr);  // still open: it was in use when the timer came
  EXPECT_EQ(registry.size(), 2u);
}

TEST(ScannerRegistryTest, FindOfAnExpiredScannerFailsEvenBeforeTheTimerRuns) {
  storage::ManualClock clock(kNow);
  ScannerRegistry registry(&clock, 60000, 100);
  const int32_t id = AddEmpty(&registry);
  clock.Advance(60001);
  EXPECT_EQ(registry.Find(id), nullptr);
  EXPECT_EQ(registry.expired(), 1u);
}

TEST(ScannerRegistryTest, PastTheCapTheLongestIdleScannerIsClosed) {
  storage::ManualClock clock(kNow);
  ScannerRegistry registry(&clock, 60000, 3);
  const int32_t a = AddEmpty(&registry);
  clock.Advance(1);
  const int32_t b = AddEmpty(&registry);
  clock.Advance(1);
  const int32_t c = AddEmpty(&registry);
  clock.Advance(1);
  ASSERT_NE(registry.Find(a), nullptr);  // a is now the most recently used; b the longest idle
  const int32_t d = AddEmpty(&registry);
  EXPECT_EQ(registry.size(), 3u);
  EXPECT_EQ(registry.Find(b), nullptr);
  EXPECT_NE(registry.Find(a), nullptr);
  EXPECT_NE(registry.Find(c), nullptr);
  EXPECT_NE(registry.Find(d), nullptr);
  EXPECT_EQ(registry.evicted(), 1u);
  EXPECT_EQ(registry.expired(), 1u);
  for (int i = 0; i < 1000; ++i) AddEmpty(&registry);
  EXPECT_EQ(registry.size(), 3u);
  EXPECT_EQ(registry.evicted(), 1001u);
}

TEST(ScannerRegistryTest, AScannerInUseWhenEvictedStaysUsableByThatCall) {
  storage::ManualClock clock(kNow);
  ScannerRegistry registry(&clock, 60000, 1);
  const int32_t a = AddEmpty(&registry);
  std::shared_ptr<ScannerRegistry::Entry> in_call = registry.Find(a);
  AddEmpty(&registry);
  EXPECT_EQ(registry.size(), 1u);
  EXPECT_EQ(registry.Find(a), nullptr);
  EXPECT_EQ(in_call->table, "t");  // the call's own reference keeps it alive until it ends
}

TEST(ScannerRegistryTest, IdsWrapToZeroAndSkipIdsStillOpen) {
  storage::ManualClock clock(kNow);
  ScannerRegistry registry(&clock, 60000, 100);
  const int32_t zero = AddEmpty(&registry);
  const int32_t one = AddEmpty(&registry);
  ASSERT_EQ(zero, 0);
  ASSERT_EQ(one, 1);
  ASSERT_TRUE(registry.Remove(zero));
  std::weak_ptr<ScannerRegistry::Entry> one_entry = registry.Find(one);
  registry.SetNextIdForTesting(INT32_MAX);
  EXPECT_EQ(AddEmpty(&registry), INT32_MAX);
  EXPECT_EQ(AddEmpty(&registry), 0);  // free again
  EXPECT_EQ(AddEmpty(&registry), 2);  // 1 is still open: skipped
  EXPECT_FALSE(one_entry.expired());
  EXPECT_EQ(registry.Find(one), one_entry.lock());
  EXPECT_EQ(registry.size(), 4u);
}

TEST(ScannerRegistryTest, ManyOpenAndCloseCyclesFromSeveralThreadsKeepTheCap) {
  storage::ManualClock clock(kNow);
  ScannerRegistry registry(&clock, 60000, 64);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        const int32_t id = AddEmpty(&registry);
        if (auto entry = registry.Find(id)) std::lock_guard<std::mutex> lock(entry->mu);
        if (i % 3 == 0) registry.Remove(id);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_LE(registry.size(), 64u);
}

}  // namespace
}  // namespace hbemu::server
