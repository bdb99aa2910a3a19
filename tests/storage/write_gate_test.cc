// WriteGate (storage/write_gate.h): a schema change waits for the writes in flight and keeps
// later writes out until it is done, and a stream of writes cannot keep a waiting change out.

#include "storage/write_gate.h"

#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

TEST(WriteGateTest, WritesShareTheGate) {
  WriteGate gate;
  auto a = gate.EnterWrite();
  auto b = gate.EnterWrite();
  EXPECT_EQ(gate.writes_for_testing(), 2u);
}

TEST(WriteGateTest, AChangeWaitsForTheWritesInFlight) {
  WriteGate gate;
  std::atomic<bool> changed{false};
  std::thread changer;
  {
    auto write = gate.EnterWrite();
    changer = std::thread([&] {
      auto change = gate.EnterChange();
      changed = true;
    });
    ASSERT_TRUE(testutil::WaitUntil([&] { return gate.changes_for_testing() == 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(changed.load());
  }
  changer.join();
  EXPECT_TRUE(changed.load());
  EXPECT_EQ(gate.changes_for_testing(), 0u);
}

// A write arriving while a change waits goes after the change, although another write still
// holds the gate: a steady stream of overlapping writes would otherwise keep the change out.
TEST(WriteGateTest, AWaitingChangeGoesBeforeLaterWrites) {
  WriteGate gate;
  std::atomic<int> order{0}, change_at{0}, write_at{0};
  std::thread changer, writer;
  {
    auto first = gate.EnterWrite();
    changer = std::thread([&] {
      auto change = gate.EnterChange();
      change_at = ++order;
    });
    ASSERT_TRUE(testutil::WaitUntil([&] { return gate.changes_for_testing() == 1; }));
    writer = std::thread([&] {
      auto write = gate.EnterWrite();
      write_at = ++order;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(order.load(), 0);  // neither got in while the first write holds the gate
  }
  changer.join();
  writer.join();
  EXPECT_EQ(change_at.load(), 1);
  EXPECT_EQ(write_at.load(), 2);
}

TEST(WriteGateTest, AChangeKeepsOutOtherChanges) {
  WriteGate gate;
  std::atomic<bool> second{false};
  std::thread other;
  {
    auto change = gate.EnterChange();
    other = std::thread([&] {
      auto again = gate.EnterChange();
      second = true;
    });
    ASSERT_TRUE(testutil::WaitUntil([&] { return gate.changes_for_testing() == 2; }));
    EXPECT_FALSE(second.load());
  }
  other.join();
  EXPECT_TRUE(second.load());
}

}  // namespace
}  // namespace hbemu::storage
