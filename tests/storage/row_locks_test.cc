// What the striped row locks (row_locks.h) guarantee: one holder per row at a time, rows of
// other stripes in parallel, and multi-row batches that never deadlock, whatever order their
// rows come in and however they overlap. The counters below are plain integers: a missing
// exclusion shows as a wrong count, and as a data race under ThreadSanitizer.

#include "storage/row_locks.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace hbemu::storage {
namespace {

constexpr uint64_t kTable = 7;

// A row of `locks` in a stripe other than `row`'s: LockAll takes each stripe once.
std::string RowInAnotherStripe(RowLocks* locks, std::string_view row) {
  for (int i = 0;; ++i) {
    const std::string candidate = "other" + std::to_string(i);
    if (locks->LockAll(kTable, {row, candidate}).size() == 2) return candidate;
  }
}

TEST(RowLocksConcurrencyTest, OneHolderPerRowAtATime) {
  RowLocks locks;
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  int64_t counter = 0;  // guarded by the row lock of "r"
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kRounds; ++i) {
        auto lock = locks.Lock(kTable, "r");
        counter = counter + 1;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(counter, int64_t{kThreads} * kRounds);
}

TEST(RowLocksConcurrencyTest, ARowOfAnotherStripeIsNotHeldUpByAHeldRow) {
  RowLocks locks;
  const std::string other = RowInAnotherStripe(&locks, "held");
  auto held = locks.Lock(kTable, "held");
  std::atomic<bool> done{false};
  std::thread writer([&] {
    auto lock = locks.Lock(kTable, other);
    done = true;
  });
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done.load() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(done.load()) << "the other row waited for the held one";
  writer.join();
}

TEST(RowLocksConcurrencyTest, ABatchNamingARowTwiceTakesItsStripeOnce) {
  RowLocks locks;
  EXPECT_EQ(locks.LockAll(kTable, {"r", "r", "r"}).size(), 1u);  // a second take would hang
  RowLocks few(4);  // past stripes / 16 rows: the bitmap path
  std::vector<std::string> rows(100, "same");
  std::vector<std::string_view> views(rows.begin(), rows.end());
  EXPECT_EQ(few.LockAll(kTable, views).size(), 1u);
}

TEST(RowLocksConcurrencyTest, ABatchExcludesSingleRowWritersOfEachOfItsRows) {
  RowLocks locks;
  const std::string other = RowInAnotherStripe(&locks, "a");
  auto batch = locks.LockAll(kTable, {"a", other});
  std::atomic<bool> got{false};
  std::thread writer([&] {
    auto lock = locks.Lock(kTable, other);
    got = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(got.load()) << "a row of a held batch was taken by another writer";
  batch.clear();
  writer.join();
  EXPECT_TRUE(got.load());
}

// Threads take overlapping batches in shuffled orders (small ones sort their stripes, large
// ones walk a bitmap) and single rows, and count per row while they hold it. Two batches that
// took their stripes in their own orders would deadlock; the test would then never end.
TEST(RowLocksConcurrencyTest, OverlappingBatchesInAnyOrderNeverDeadlockAndStayExclusive) {
  RowLocks locks(64);
  constexpr int kRows = 40;
  constexpr int kThreads = 4;
  constexpr int kRounds = 2000;
  std::vector<std::string> names;
  for (int i = 0; i < kRows; ++i) names.push_back("row" + std::to_string(i));
  std::vector<int64_t> counts(kRows, 0);  // counts[i] guarded by the lock of names[i]
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(1234 + t);
      std::vector<int> order(kRows);
      for (int round = 0; round < kRounds; ++round) {
        for (int i = 0; i < kRows; ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);
        // 1 row (Lock), 2-3 rows (sorted stripes) or up to every row (bitmap), duplicates too.
        const int size = round % 3 == 0 ? 1 : round % 3 == 1 ? 2 + round % 2 : kRows;
        std::vector<int> chosen(order.begin(), order.begin() + size);
        if (size > 1) chosen.push_back(chosen.front());
        if (size == 1) {
          auto lock = locks.Lock(kTable, names[chosen[0]]);
          counts[chosen[0]] = counts[chosen[0]] + 1;
          continue;
        }
        std::vector<std::string_view> rows;
        for (int i : chosen) rows.push_back(names[i]);
        auto held = locks.LockAll(kTable, rows);
        for (size_t i = 0; i + 1 < chosen.size(); ++i) {  // the duplicate is counted once
          counts[chosen[i]] = counts[chosen[i]] + 1;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  int64_t expected = 0;
  for (int round = 0; round < kRounds; ++round) {
    expected += round % 3 == 0 ? 1 : round % 3 == 1 ? 2 + round % 2 : kRows;
  }
  EXPECT_EQ(total, expected * kThreads);
}

}  // namespace
}  // namespace hbemu::storage
