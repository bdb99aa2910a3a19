#include "storage/clock.h"

#include <gtest/gtest.h>

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
  clock.Freeze(1000000);
  EXPECT_TRUE(clock.frozen());
  EXPECT_EQ(clock.NowMillis(), 1000000);
  EXPECT_EQ(clock.NowMillis(), 1000000);
  clock.Advance(2 * 86400000LL);
  EXPECT_EQ(clock.NowMillis(), 1000000 + 2 * 86400000LL);
  clock.Advance(-500);
  EXPECT_EQ(clock.NowMillis(), 1000000 + 2 * 86400000LL - 500);
}

TEST(ControlledClockTest, AdvancingARunningClockShiftsIt) {
  ControlledClock clock;
  clock.Advance(3600000);
  const int64_t system = Clock::System()->NowMillis();
  EXPECT_GE(clock.NowMillis(), system + 3600000);
  EXPECT_FALSE(clock.frozen());
}

TEST(ControlledClockTest, OffsetRunsTheClockAndResumeGoesBackToTheSystemClock) {
  ControlledClock clock;
  clock.Freeze(5);
  clock.SetOffset(-86400000);
  EXPECT_FALSE(clock.frozen());
  EXPECT_LE(clock.NowMillis(), Clock::System()->NowMillis() - 86400000 + 1);
  clock.Resume();
  const int64_t before = Clock::System()->NowMillis();
  EXPECT_GE(clock.NowMillis(), before);
  EXPECT_LE(clock.offset_ms(), 1);
}

TEST(ControlledClockTest, FreezeNowKeepsTheCurrentReading) {
  ControlledClock clock;
  clock.Advance(10000);
  const int64_t expected = Clock::System()->NowMillis() + 10000;
  clock.FreezeNow();
  EXPECT_GE(clock.NowMillis(), expected);
  EXPECT_LE(clock.NowMillis(), expected + 1000);
}

}  // namespace
}  // namespace hbemu::storage
