// Striped row locks (storage/row_locks.h): one row's writers exclude each other, and callers
// locking overlapping sets of rows in any order never deadlock. Run under ThreadSanitizer
// (label concurrency), which also sees any write to shared state the locks fail to cover.
#include "storage/row_locks.h"

#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace hbemu::storage {
namespace {

TEST(RowLocksTest, ThreadsHoldingOneRowsLockLoseNoUpdate) {
  RowLocks locks(8);
  int64_t counter = 0;  // guarded by row "r" of table 1 only
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 5000; ++i) {
        auto lock = locks.Lock(1, "r");
        ++counter;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(counter, 4 * 5000);
}

TEST(RowLocksTest, LockingOverlappingRowsInOppositeOrdersNeverDeadlocks) {
  RowLocks locks(4);  // few stripes: the rows below share some
  const std::vector<std::string> names = {"a", "b", "c", "d", "e", "f", "g", "h"};
  std::vector<std::string_view> forward(names.begin(), names.end());
  std::vector<std::string_view> backward(names.rbegin(), names.rend());
  int64_t total = 0;  // guarded by every row's stripe together
  auto run = [&](const std::vector<std::string_view>& rows) {
    for (int i = 0; i < 2000; ++i) {
      auto held = locks.LockAll(1, rows);
      ++total;
    }
  };
  std::thread one(run, forward);
  std::thread two(run, backward);
  run(forward);
  one.join();
  two.join();
  EXPECT_EQ(total, 3 * 2000);
}

}  // namespace
}  // namespace hbemu::storage
