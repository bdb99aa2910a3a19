#include "storage/row_clock.h"

#include <string>
#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace hbemu::storage {
namespace {

ClockMarks Mark(const std::string& family, const std::string& qualifier, int64_t ts) {
  ClockMarks marks;
  marks.Add(family, qualifier, false, ts);
  return marks;
}

TEST(RowClockTest, MarksArePerColumnRowAndTable) {
  RowClock clock;
  ClockMarks out;
  EXPECT_FALSE(clock.Marks(1, "r", 100, &out));
  clock.Record(1, "r", Mark("f", "a", 105), 100);  // a chain ran 5 ms ahead of the wall clock
  ASSERT_TRUE(clock.Marks(1, "r", 101, &out));
  EXPECT_EQ(out.ForColumn("f", "a"), 105);
  EXPECT_EQ(out.ForColumn("f", "b"), ClockMarks::kNone) << "other columns keep the wall clock";
  EXPECT_EQ(out.ForColumn("g", "a"), ClockMarks::kNone);
  EXPECT_EQ(out.ForFamily("f"), 105) << "a family delete goes past every column of it";
  EXPECT_EQ(out.ForRow(), 105);
  EXPECT_FALSE(clock.Marks(1, "s", 101, &out)) << "other rows have none";
  EXPECT_FALSE(clock.Marks(2, "r", 101, &out)) << "other tables have none";
  EXPECT_FALSE(clock.Marks(1, "r", 106, &out)) << "once the clock passes the mark it is gone";
}

TEST(RowClockTest, AFamilyMarkCoversEveryColumnOfItsFamily) {
  RowClock clock;
  ClockMarks marks = Mark("f", "a", 103);
  marks.Add("f", "ignored", true, 107);
  clock.Record(1, "r", marks, 100);
  ClockMarks out;
  ASSERT_TRUE(clock.Marks(1, "r", 100, &out));
  EXPECT_EQ(out.ForColumn("f", "a"), 107);
  EXPECT_EQ(out.ForColumn("f", "zz"), 107);
  EXPECT_EQ(out.ForColumn("g", "a"), ClockMarks::kNone);
}

TEST(RowClockTest, OnlyTheNewestMarkOfAColumnCountsAndOnlyMarksAheadAreKept) {
  RowClock clock;
  clock.Record(1, "r", Mark("f", "a", 105), 100);
  clock.Record(1, "r", Mark("f", "a", 103), 100);
  clock.Record(1, "r", Mark("f", "b", 100), 100);  // not ahead of the clock: nothing to keep
  ClockMarks out;
  ASSERT_TRUE(clock.Marks(1, "r", 100, &out));
  EXPECT_EQ(out.marks().size(), 1u);
  EXPECT_EQ(out.ForColumn("f", "a"), 105) << "an older mark does not lower it";
  EXPECT_EQ(out.ForColumn("f", "b"), ClockMarks::kNone);
  EXPECT_TRUE(clock.Marks(1, "r", 105, &out)) << "a mark at now still counts: one ms, one call";
}

TEST(RowClockTest, MarksTheClockHasPassedAreForgotten) {
  RowClock clock(1);
  constexpr int64_t kStep = 20;  // 5,000 rows over 100 s of clock
  for (int i = 0; i < 5000; ++i) {
    clock.Record(1, "r" + std::to_string(i), Mark("f", "a", 10 + i * kStep), 9 + i * kStep);
  }
  // Rows more than kForgetAfterMs behind the clock are pruned: the map stays bounded (the last
  // 10 s hold 500 rows) and the answers are unchanged.
  EXPECT_LT(clock.RowsHeld(), 1100u);
  const int64_t now = 10 + 4999 * kStep;
  ClockMarks out;
  ASSERT_TRUE(clock.Marks(1, "r4999", now, &out));
  EXPECT_EQ(out.ForColumn("f", "a"), now);
  EXPECT_FALSE(clock.Marks(1, "r0", now, &out));
  EXPECT_FALSE(clock.Marks(1, "r4998", now, &out)) << "a passed mark is no answer, kept or not";
  const int64_t much_later = now + RowClock::kForgetAfterMs + 1;
  clock.Record(1, "x", Mark("f", "a", much_later + 1), much_later);
  EXPECT_EQ(clock.RowsHeld(), 1u) << "a stripe the clock has passed is emptied at its next mark";
}

// Callers hold each row's lock, so threads here own their rows; they share stripes, the map and
// the newest-mark atomics (ThreadSanitizer, label concurrency).
// The threads share one clock that only moves forward, as the store's callers do (each reads it
// after taking its row lock): a mark may be dropped once that clock has passed it, never before.
TEST(RowClockTest, ThreadsRecordingAndReadingTheirOwnRowsSeeTheirOwnMarks) {
  RowClock clock(4);
  std::atomic<int64_t> now_ms{1000};
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&clock, &now_ms, &wrong, t] {
      ClockMarks out;
      for (int i = 0; i < 2000; ++i) {
        const std::string row = "t" + std::to_string(t) + "-" + std::to_string(i % 50);
        const int64_t now = now_ms.fetch_add(1);
        clock.Record(1, row, Mark("f", "q", now + 5), now);
        const int64_t later = now_ms.load();
        if (later > now + 5) continue;  // the clock has passed the mark: it may be gone
        if (!clock.Marks(1, row, later, &out) || out.ForColumn("f", "q") < now + 5) ++wrong[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
  EXPECT_LE(clock.RowsHeld(), 4u * 50u);
}

}  // namespace
}  // namespace hbemu::storage
