#include "server/admin/heat_map.h"

#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace hbemu::server::admin {
namespace {

uint64_t Sum(const std::array<uint64_t, kBuckets>& counts) {
  uint64_t sum = 0;
  for (uint64_t c : counts) sum += c;
  return sum;
}

TEST(HeatMapTest, TimesBefore1970CountInTheFirstWindow) {
  HeatMap heat;
  heat.Record("a", /*write=*/true, -1);
  heat.Record("a", /*write=*/true, -1000000000);
  heat.Record("a", /*write=*/false, -kWindowSeconds * 3 - 1);
  HeatMap::Snapshot before = heat.Read(-5);
  EXPECT_EQ(before.total_writes[static_cast<unsigned char>('a')], 2u);
  EXPECT_EQ(Sum(before.writes.back()), 2u);
  EXPECT_EQ(Sum(before.reads.back()), 1u);
  WindowedCounter calls;
  calls.Add(-7, 3);
  EXPECT_EQ(calls.Read(-7).back(), 3u);
  EXPECT_EQ(calls.Read(0).back(), 3u);  // the same first window, read from 1970
}

TEST(HeatMapTest, BucketIsTheFirstByteOfTheRow) {
  EXPECT_EQ(BucketOf("row1"), 'r');
  EXPECT_EQ(BucketOf(std::string("\xff\x00", 2)), 0xff);
  EXPECT_EQ(BucketOf(std::string("\x00z", 2)), 0);
  EXPECT_EQ(BucketOf(""), 0);
}

TEST(HeatMapTest, BucketLabelShowsPrintableBytesAndEscapesTheRest) {
  EXPECT_EQ(BucketLabel('a'), "a");
  EXPECT_EQ(BucketLabel(0), "\\x00");
  EXPECT_EQ(BucketLabel(' '), "\\x20");
  EXPECT_EQ(BucketLabel(0xff), "\\xFF");
  EXPECT_EQ(BucketLabel('\\'), "\\x5C");  // so longer labels read back unambiguously
}

TEST(HeatMapTest, PrefixKeysKeepTheFirstBytesInByteOrder) {
  const std::vector<std::string> rows = {"", std::string("\0", 1), "a", std::string("a\0", 2),
                                         "ab", "abcd", "b", std::string("\xff\xff\xff\xff", 4)};
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(PrefixOfKey(PrefixKeyOf(rows[i])), rows[i]);
    EXPECT_NE(PrefixKeyOf(rows[i]), 0u);  // 0 marks a free slot
    if (i > 0) {
      EXPECT_LT(PrefixKeyOf(rows[i - 1]), PrefixKeyOf(rows[i])) << i;
    }
  }
  EXPECT_EQ(PrefixKeyOf("abcdef"), PrefixKeyOf("abcdxyz"));  // only kPrefixBytes are recorded
  EXPECT_EQ(PrefixOfKey(PrefixKeyOf("abcdef")), "abcd");
}

TEST(HeatMapTest, RegionOfFollowsSplitKeysWithInclusiveStarts) {
  const std::vector<std::string> splits = {"b", "d"};
  EXPECT_EQ(RegionOf(splits, ""), 0);
  EXPECT_EQ(RegionOf(splits, "a\xff"), 0);
  EXPECT_EQ(RegionOf(splits, "b"), 1);  // a region starts at its split key
  EXPECT_EQ(RegionOf(splits, "c"), 1);
  EXPECT_EQ(RegionOf(splits, "d"), 2);
  EXPECT_EQ(RegionOf(splits, "zzz"), 2);
  EXPECT_EQ(RegionOf({}, "anything"), 0);
}

TEST(HeatMapTest, RegionsBeyondTheCapShareTheLastColumn) {
  std::vector<std::string> splits;
  for (int i = 0; i < 100; ++i) splits.push_back(std::string(1, static_cast<char>(i + 1)));
  EXPECT_EQ(RegionOf(splits, std::string(1, static_cast<char>(99))), kMaxRegions - 1);
}

TEST(HeatMapTest, MonotonicKeysHeatOneBucketAndSaltedKeysSpreadEvenly) {
  HeatMap monotonic;
  HeatMap salted;
  const char* salts = "0123456789abcdef";
  for (int i = 0; i < 160; ++i) {
    monotonic.Record("row" + std::to_string(100000 + i), /*write=*/true, 1000);
    salted.Record(std::string(1, salts[i % 16]) + ":" + std::to_string(100000 + i), true, 1000);
  }
  HeatMap::Snapshot m = monotonic.Read(1000);
  HeatMap::Snapshot s = salted.Read(1000);
  EXPECT_EQ(m.total_writes['r'], 160u);
  EXPECT_EQ(Sum(m.total_writes), 160u);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(s.total_writes[static_cast<unsigned char>(salts[i])], 10u);
  EXPECT_EQ(Sum(s.total_writes), 160u);
  EXPECT_EQ(Sum(s.total_reads), 0u);
  // The current window is the last column.
  EXPECT_EQ(m.writes[kWindows - 1]['r'], 160u);
  EXPECT_EQ(m.first_window + kWindows - 1, WindowOf(1000));
}

TEST(HeatMapTest, WindowsMoveWithTimeAndOldOnesAreRecycled) {
  HeatMap heat;
  heat.Record("a", false, 0);
  heat.Record("a", false, kWindowSeconds);  // the next window
  heat.Record("a", false, kWindowSeconds);
  HeatMap::Snapshot now = heat.Read(kWindowSeconds);
  EXPECT_EQ(now.reads[kWindows - 2]['a'], 1u);
  EXPECT_EQ(now.reads[kWindows - 1]['a'], 2u);
  // kWindows windows later the first window's slot is reused and starts from zero.
  const int64_t later = static_cast<int64_t>(kWindows) * kWindowSeconds;
  heat.Record("b", false, later);
  HeatMap::Snapshot after = heat.Read(later);
  EXPECT_EQ(after.reads[kWindows - 1]['a'], 0u);
  EXPECT_EQ(after.reads[kWindows - 1]['b'], 1u);
  EXPECT_EQ(after.reads[kWindows - 2]['a'], 0u);  // window 11: never written
  EXPECT_EQ(after.reads[0]['a'], 2u);             // window 1 is still within reach
  EXPECT_EQ(after.total_reads['a'], 3u);          // totals never forget
}

TEST(HeatMapTest, StaleClockReadingIsDroppedFromWindowsButKeptInTotals) {
  HeatMap heat;
  const int64_t later = static_cast<int64_t>(kWindows) * kWindowSeconds;
  heat.Record("x", true, later);
  heat.Record("x", true, 0);  // same slot, older window: must not clear the newer one
  HeatMap::Snapshot s = heat.Read(later);
  EXPECT_EQ(s.writes[kWindows - 1]['x'], 1u);
  EXPECT_EQ(s.total_writes['x'], 2u);
}

TEST(HeatMapTest, CountsPerRegionFollowTheSplitKeys) {
  HeatMap heat;
  heat.SetRegions({"m"});
  heat.Record("a", true, 5);
  heat.Record("n", true, 5);
  heat.Record("z", false, 5);
  HeatMap::Snapshot s = heat.Read(5);
  EXPECT_EQ(s.regions, 2);
  EXPECT_EQ(s.region_total_writes[0], 1u);
  EXPECT_EQ(s.region_total_writes[1], 1u);
  EXPECT_EQ(s.region_total_reads[1], 1u);
  EXPECT_EQ(s.region_writes[kWindows - 1][1], 1u);
  // New boundaries start the region counts again.
  heat.SetRegions({"c", "m"});
  s = heat.Read(5);
  EXPECT_EQ(s.regions, 3);
  EXPECT_EQ(s.region_total_writes[1], 0u);
  EXPECT_EQ(heat.split_keys(), (std::vector<std::string>{"c", "m"}));
}

void ExpectSameSnapshots(const HeatMap::Snapshot& a, const HeatMap::Snapshot& b) {
  EXPECT_EQ(a.first_window, b.first_window);
  EXPECT_EQ(a.regions, b.regions);
  EXPECT_EQ(a.reads, b.reads);
  EXPECT_EQ(a.writes, b.writes);
  EXPECT_EQ(a.region_reads, b.region_reads);
  EXPECT_EQ(a.region_writes, b.region_writes);
  EXPECT_EQ(a.total_reads, b.total_reads);
  EXPECT_EQ(a.total_writes, b.total_writes);
  EXPECT_EQ(a.region_total_reads, b.region_total_reads);
  EXPECT_EQ(a.region_total_writes, b.region_total_writes);
  ASSERT_EQ(a.prefixes.size(), b.prefixes.size());
  for (size_t i = 0; i < a.prefixes.size(); ++i) {
    EXPECT_EQ(a.prefixes[i].prefix, b.prefixes[i].prefix);
    EXPECT_EQ(a.prefixes[i].total_reads, b.prefixes[i].total_reads);
    EXPECT_EQ(a.prefixes[i].reads, b.prefixes[i].reads);
  }
}

// Scan replies count runs of rows at once (metrics.h NoteReads): a run that SameCells joins
// must count exactly as its rows one by one, across buckets, prefixes, regions, empty rows.
TEST(HeatMapTest, ARunOfRowsInTheSameCellsCountsAsEachRowWould) {
  const std::vector<std::string> rows = {"",     "",     std::string(1, '\0'), "a",  "ab",
                                         "abcd", "abcde", "abcdf", "abce",      "az", "b1",
                                         "b2",   "m0",   "m1",    "n",          "n"};
  for (bool regions : {false, true}) {
    SCOPED_TRACE(regions ? "split at m1" : "one region");
    HeatMap one_by_one, in_runs;
    if (regions) {
      one_by_one.SetRegions({"m1"});
      in_runs.SetRegions({"m1"});
    }
    for (const std::string& row : rows) one_by_one.Record(row, /*write=*/false, 50);
    size_t run = 0, joined = 0;
    for (size_t i = 1; i <= rows.size(); ++i) {
      if (i < rows.size() && in_runs.SameCells(rows[run], rows[i])) continue;
      in_runs.Record(rows[run], /*write=*/false, 50, static_cast<uint32_t>(i - run));
      joined += i - run - 1;
      run = i;
    }
    EXPECT_GE(joined, 4u);  // "" "", "abcde" "abcdf", "b1" "b2", "n" "n"
    EXPECT_FALSE(in_runs.SameCells("m0", "m1") && regions);
    ExpectSameSnapshots(in_runs.Read(50), one_by_one.Read(50));
  }
}

// Several threads meet new prefixes at once (racing to add them) while a reader reads: every
// row is counted exactly once in the totals, and the tracked set never passes the cap.
TEST(HeatMapTest, ConcurrentRecordsAddEachPrefixOnceAndCountEveryRow) {
  HeatMap heat;
  constexpr int kThreads = 4;
  constexpr int kPrefixes = kMaxPrefixes + 64;  // some threads also hit the cap
  constexpr int kRounds = 3;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&heat] {
      for (int round = 0; round < kRounds; ++round) {
        for (int p = 0; p < kPrefixes; ++p) {
          heat.Record("p" + std::to_string(1000 + p).substr(1) + "-row", true, 5);
        }
      }
    });
  }
  std::thread reader([&heat] {
    for (int i = 0; i < 20; ++i) (void)heat.Read(5);
  });
  for (std::thread& t : threads) t.join();
  reader.join();
  const HeatMap::Snapshot s = heat.Read(5);
  EXPECT_EQ(s.prefixes.size(), static_cast<size_t>(kMaxPrefixes));
  EXPECT_TRUE(s.prefixes_full);
  uint64_t tracked = 0;
  for (size_t i = 0; i < s.prefixes.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(s.prefixes[i - 1].prefix, s.prefixes[i].prefix);  // each prefix once, in order
    }
    // A prefix is tracked from its first row or never (once the cap is reached).
    EXPECT_EQ(s.prefixes[i].total_writes, static_cast<uint64_t>(kThreads * kRounds));
    tracked += s.prefixes[i].total_writes;
  }
  EXPECT_EQ(s.total_writes['p'], static_cast<uint64_t>(kThreads * kRounds * kPrefixes));
  EXPECT_EQ(tracked, static_cast<uint64_t>(kMaxPrefixes * kThreads * kRounds));
}

TEST(WindowedCounterTest, RateUsesTheLastTwoCompleteWindows) {
  WindowedCounter counter;
  counter.Add(0, 30);
  counter.Add(kWindowSeconds, 10);
  counter.Add(2 * kWindowSeconds, 500);  // the window still filling is left out
  EXPECT_DOUBLE_EQ(counter.RatePerSecond(2 * kWindowSeconds), 40.0 / (2 * kWindowSeconds));
  std::array<uint64_t, kWindows> counts = counter.Read(2 * kWindowSeconds);
  EXPECT_EQ(counts[kWindows - 1], 500u);
  EXPECT_EQ(counts[kWindows - 3], 30u);
}

}  // namespace
}  // namespace hbemu::server::admin
