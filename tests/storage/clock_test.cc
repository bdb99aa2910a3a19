#include "storage/clock.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

TEST(ControlledClockTest, FollowsTheSystemClockUntilTold) {
  ControlledClock clock;
  const int64_t before = Clock::System()->NowMillis();
  const int64_t now = clock.NowMillis();
  EXPECT_GE(now, before);
  EXPECT_LE(now, Clock::System()->NowMillis());
  EXPECT_FALSE(clock.frozen());
}

TEST(ControlledClockTest, FrozenClockStaysPutAndAdvancesOnlyWhenTold) {
  ControlledClock clock;
  ASSERT_OK(clock.Freeze(1000000));
  EXPECT_TRUE(clock.frozen());
  EXPECT_EQ(clock.NowMillis(), 1000000);
  EXPECT_EQ(clock.NowMillis(), 1000000);
  ASSERT_OK(clock.Advance(2 * 86400000LL));
  EXPECT_EQ(clock.NowMillis(), 1000000 + 2 * 86400000LL);
  ASSERT_OK(clock.Advance(-500));
  EXPECT_EQ(clock.NowMillis(), 1000000 + 2 * 86400000LL - 500);
}

TEST(ControlledClockTest, AdvancingARunningClockShiftsIt) {
  ControlledClock clock;
  ASSERT_OK(clock.Advance(3600000));
  const int64_t system = Clock::System()->NowMillis();
  EXPECT_GE(clock.NowMillis(), system + 3600000);
  EXPECT_FALSE(clock.frozen());
}

TEST(ControlledClockTest, OffsetRunsTheClockAndResumeGoesBackToTheSystemClock) {
  ControlledClock clock;
  ASSERT_OK(clock.Freeze(5));
  ASSERT_OK(clock.SetOffset(-86400000));
  EXPECT_FALSE(clock.frozen());
  EXPECT_LE(clock.NowMillis(), Clock::System()->NowMillis() - 86400000 + 1);
  clock.Resume();
  const int64_t before = Clock::System()->NowMillis();
  EXPECT_GE(clock.NowMillis(), before);
  EXPECT_LE(clock.offset_ms(), 1);
}

TEST(ControlledClockTest, FreezeNowKeepsTheCurrentReading) {
  ControlledClock clock;
  ASSERT_OK(clock.Advance(10000));
  const int64_t expected = Clock::System()->NowMillis() + 10000;
  clock.FreezeNow();
  EXPECT_GE(clock.NowMillis(), expected);
  EXPECT_LE(clock.NowMillis(), expected + 1000);
}

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// Before 1970 every server-dated write would be acknowledged and never read back.
TEST(ControlledClockTest, FreezingBefore1970IsRefusedAndLeavesTheClockAsItWas) {
  ControlledClock clock;
  ASSERT_OK(clock.Freeze(1000));
  const Status s = clock.Freeze(-5);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("freezing at -5"), std::string::npos) << s.message();
  EXPECT_EQ(clock.NowMillis(), 1000);
  EXPECT_OK(clock.Freeze(0));
  EXPECT_EQ(clock.NowMillis(), 0);
}

TEST(ControlledClockTest, MovingAFrozenClockBefore1970IsRefused) {
  ControlledClock clock;
  ASSERT_OK(clock.Freeze(1000));
  EXPECT_EQ(clock.Advance(-1001).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(clock.NowMillis(), 1000);
  EXPECT_OK(clock.Advance(-1000));
  EXPECT_EQ(clock.NowMillis(), 0);
}

TEST(ControlledClockTest, AnOffsetOrMoveBefore1970OfARunningClockIsRefused) {
  ControlledClock clock;
  const int64_t system = Clock::System()->NowMillis();
  EXPECT_EQ(clock.SetOffset(-system - 60000).code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(clock.frozen());
  EXPECT_LE(clock.offset_ms(), 1);
  EXPECT_EQ(clock.Advance(-system - 60000).code(), Status::Code::kInvalidArgument);
  EXPECT_LE(clock.offset_ms(), 1);
  EXPECT_GE(clock.NowMillis(), system);
}

// Advances of 9e15 ms (the most one control call gives) summed past INT64_MAX used to wrap the
// reading around to a large negative time.
TEST(ControlledClockTest, AdvancesThatWouldSumPastTheTopAreRefused) {
  ControlledClock clock;
  ASSERT_OK(clock.Freeze(0));
  int refused = 0;
  for (int i = 0; i < 1100; ++i) {
    if (!clock.Advance(9'000'000'000'000'000LL).ok()) ++refused;
    ASSERT_GE(clock.NowMillis(), 0);
    ASSERT_LE(clock.NowMillis(), ControlledClock::kLatestMillis);
  }
  EXPECT_GT(refused, 0);
  EXPECT_EQ(clock.Advance(kMax).code(), Status::Code::kInvalidArgument);
  ASSERT_OK(clock.Freeze(ControlledClock::kLatestMillis));
  EXPECT_EQ(clock.Advance(1).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(clock.Freeze(kMax).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(clock.NowMillis(), ControlledClock::kLatestMillis);
}

TEST(ControlledClockTest, ARunningClockNearTheTopStaysInRange) {
  ControlledClock clock;
  const int64_t system = Clock::System()->NowMillis();
  ASSERT_OK(clock.SetOffset(ControlledClock::kLatestMillis - system - 1));
  EXPECT_LE(clock.NowMillis(), ControlledClock::kLatestMillis);
  EXPECT_GE(clock.NowMillis(), ControlledClock::kLatestMillis - 1000);
  for (int i = 0; i < 20; ++i) EXPECT_FALSE(clock.Advance(kMax / 2).ok());
  EXPECT_LE(clock.NowMillis(), ControlledClock::kLatestMillis);
  EXPECT_GT(clock.NowMillis(), 0);
}

}  // namespace
}  // namespace hbemu::storage
