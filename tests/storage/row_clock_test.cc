#include "storage/row_clock.h"

#include <gtest/gtest.h>

namespace hbemu::storage {
namespace {

TEST(RowClockTest, NowNeverGoesBelowWhatWasAssignedInTheRow) {
  RowClock clock;
  EXPECT_EQ(clock.Now(1, "r", 100), 100);
  clock.Assigned(1, "r", 105, 100);  // an increment chain ran 5 ms ahead of the wall clock
  EXPECT_EQ(clock.Now(1, "r", 101), 105);
  EXPECT_EQ(clock.Now(1, "s", 101), 101) << "other rows keep the wall clock";
  EXPECT_EQ(clock.Now(2, "r", 101), 101) << "other tables keep the wall clock";
  EXPECT_EQ(clock.Now(1, "r", 200), 200) << "once the clock catches up it wins";
  clock.Assigned(1, "r", 103, 101);
  EXPECT_EQ(clock.Now(1, "r", 101), 105) << "an older assignment does not lower the floor";
}

TEST(RowClockTest, AssignmentsTheClockHasPassedAreForgotten) {
  RowClock clock;
  for (int i = 0; i < 5000; ++i) clock.Assigned(1, "r" + std::to_string(i), 10 + i, 9 + i);
  // All entries but the newest are behind this clock; pruning keeps the map bounded and the
  // answers unchanged.
  EXPECT_EQ(clock.Now(1, "r4999", 5000), 5009);
  EXPECT_EQ(clock.Now(1, "r0", 5000), 5000);
}

}  // namespace
}  // namespace hbemu::storage
