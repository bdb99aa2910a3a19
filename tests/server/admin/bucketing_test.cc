#include "server/admin/bucketing.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace hbemu::server::admin {
namespace {

constexpr int64_t kNow = 1000;

BucketSpec Bytes(int n) {
  BucketSpec spec;
  spec.bytes = n;
  return spec;
}

std::vector<std::string> Labels(const std::vector<PrefixBucket>& buckets) {
  std::vector<std::string> out;
  for (const PrefixBucket& b : buckets) out.push_back(PrefixLabel(b.prefix, b.rest));
  return out;
}

uint64_t SumWrites(const std::vector<PrefixBucket>& buckets) {
  uint64_t sum = 0;
  for (const PrefixBucket& b : buckets) sum += b.writes;
  return sum;
}

TEST(BucketingTest, SaltedKeysShowOneEvenBucketPerSaltAtTwoBytes) {
  HeatMap heat;
  const std::string salts = "0123456789abcdef";
  for (int i = 0; i < 320; ++i) {
    heat.Record(std::string(1, salts[i % 16]) + ":" + std::to_string(100000 + i), true, kNow);
  }
  const std::vector<PrefixBucket> buckets = GroupBuckets(heat.Read(kNow), Bytes(2));
  ASSERT_EQ(buckets.size(), 16u);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(buckets[i].prefix, std::string(1, salts[i]) + ":");
    EXPECT_FALSE(buckets[i].rest);
    EXPECT_EQ(buckets[i].writes, 20u);
    EXPECT_EQ(buckets[i].window_writes[kWindows - 1], 20u);  // the current window
    EXPECT_EQ(buckets[i].reads, 0u);
  }
}

TEST(BucketingTest, MonotonicKeysAreOneBucketAtOneByteAndShowTheirStructureLonger) {
  HeatMap heat;
  // Timestamps in front, across a boundary of their leading digits.
  for (int i = 0; i < 20; ++i) heat.Record(std::to_string(1699999990 + i) + "-ev", true, kNow);
  const HeatMap::Snapshot s = heat.Read(kNow);
  EXPECT_EQ(Labels(GroupBuckets(s, Bytes(1))), (std::vector<std::string>{"1"}));
  EXPECT_EQ(GroupBuckets(s, Bytes(1))[0].writes, 20u);
  EXPECT_EQ(Labels(GroupBuckets(s, Bytes(2))), (std::vector<std::string>{"16", "17"}));
  const std::vector<PrefixBucket> four = GroupBuckets(s, Bytes(4));
  EXPECT_EQ(Labels(four), (std::vector<std::string>{"1699", "1700"}));
  EXPECT_EQ(four[0].writes, 10u);
  EXPECT_EQ(four[1].writes, 10u);
}

TEST(BucketingTest, OneByteIsTheExactFirstByteCount) {
  HeatMap heat;
  heat.Record("", false, kNow);
  heat.Record(std::string("\0z", 2), false, kNow);
  heat.Record("b1", true, kNow);
  const std::vector<PrefixBucket> buckets = GroupBuckets(heat.Read(kNow), Bytes(1));
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(PrefixLabel(buckets[0].prefix), "\\x00");  // the empty row counts under \x00
  EXPECT_EQ(buckets[0].reads, 2u);
  EXPECT_EQ(buckets[1].prefix, "b");
  EXPECT_EQ(buckets[1].writes, 1u);
}

TEST(BucketingTest, ShortRowsAreTheirOwnBucketsAtLongerPrefixes) {
  HeatMap heat;
  for (const char* row : {"", "a", "ab", "abc", "abd"}) heat.Record(row, true, kNow);
  const std::vector<PrefixBucket> buckets = GroupBuckets(heat.Read(kNow), Bytes(3));
  EXPECT_EQ(Labels(buckets), (std::vector<std::string>{"(empty)", "a", "ab", "abc", "abd"}));
  EXPECT_EQ(SumWrites(buckets), 5u);
}

TEST(BucketingTest, DelimiterCutsAfterTheSaltWithinTheRecordedBytes) {
  HeatMap heat;
  for (const char* row : {"12:x", "12:y", "7:zzz", "nodelimiter"}) heat.Record(row, true, kNow);
  BucketSpec spec;
  spec.delimiter = ':';
  const std::vector<PrefixBucket> buckets = GroupBuckets(heat.Read(kNow), spec);
  EXPECT_EQ(Labels(buckets), (std::vector<std::string>{"12:", "7:", "node"}));
  EXPECT_EQ(buckets[0].writes, 2u);
  EXPECT_EQ(BucketPrefix("12:x", spec), "12:");
  EXPECT_EQ(BucketPrefix("abcd", Bytes(2)), "ab");
  EXPECT_EQ(BucketPrefix("a", Bytes(2)), "a");
}

// A row whose first kPrefixBytes bytes are 'k' then the low three bytes of `i`.
std::string DistinctPrefixRow(int i) {
  std::string row = "k";
  row.push_back(static_cast<char>((i >> 16) & 0xff));
  row.push_back(static_cast<char>((i >> 8) & 0xff));
  row.push_back(static_cast<char>(i & 0xff));
  return row + "-tail";
}

TEST(BucketingTest, PrefixesBeyondTheCapAreCountedAsTheirFirstBytesRest) {
  HeatMap heat;
  const int extra = 88;
  for (int i = 0; i < kMaxPrefixes + extra; ++i) heat.Record(DistinctPrefixRow(i), true, kNow);
  heat.Record(DistinctPrefixRow(0), true, kNow);  // tracked before the cap: still exact
  heat.Record("zzzz", false, kNow);               // a first byte never tracked
  const HeatMap::Snapshot s = heat.Read(kNow);
  EXPECT_EQ(s.prefixes.size(), static_cast<size_t>(kMaxPrefixes));
  EXPECT_TRUE(s.prefixes_full);

  const std::vector<PrefixBucket> four = GroupBuckets(s, Bytes(4));
  ASSERT_EQ(four.size(), static_cast<size_t>(kMaxPrefixes) + 2);
  EXPECT_EQ(four[0].prefix, DistinctPrefixRow(0).substr(0, 4));
  EXPECT_EQ(four[0].writes, 2u);
  const PrefixBucket& rest = four[kMaxPrefixes];  // after every tracked "k..." prefix
  EXPECT_TRUE(rest.rest);
  EXPECT_EQ(PrefixLabel(rest.prefix, rest.rest), "k\u2026");
  EXPECT_EQ(rest.writes, static_cast<uint64_t>(extra));
  EXPECT_EQ(rest.window_writes[kWindows - 1], static_cast<uint64_t>(extra));
  EXPECT_EQ(PrefixLabel(four.back().prefix, four.back().rest), "z\u2026");
  EXPECT_EQ(four.back().reads, 1u);
  EXPECT_EQ(SumWrites(four), static_cast<uint64_t>(kMaxPrefixes + extra + 1));

  // Grouped by two bytes, the tracked prefixes fold together; the rest stays the rest.
  const std::vector<PrefixBucket> two = GroupBuckets(s, Bytes(2));
  EXPECT_EQ(SumWrites(two), static_cast<uint64_t>(kMaxPrefixes + extra + 1));
  EXPECT_EQ(Labels(two).back(), "z\u2026");
}

TEST(BucketingTest, ManyRandomPrefixesKeepTheTrackedSetBounded) {
  HeatMap heat;
  uint32_t x = 12345;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1664525u + 1013904223u;
    std::string row(4, '\0');
    for (int b = 0; b < 4; ++b) row[b] = static_cast<char>((x >> (8 * b)) & 0xff);
    heat.Record(row, true, kNow);
  }
  const HeatMap::Snapshot s = heat.Read(kNow);
  EXPECT_EQ(s.prefixes.size(), static_cast<size_t>(kMaxPrefixes));
  // Nothing is lost: every row is in a tracked prefix or its first byte's rest.
  EXPECT_EQ(SumWrites(GroupBuckets(s, Bytes(2))), 20000u);
  EXPECT_EQ(SumWrites(GroupBuckets(s, Bytes(1))), 20000u);
}

TEST(BucketingTest, PrefixWindowsMoveAndRecycleWithTheHeatMap) {
  HeatMap heat;
  heat.Record("0:a", true, 0);
  heat.Record("0:b", true, kWindowSeconds);
  std::vector<PrefixBucket> buckets = GroupBuckets(heat.Read(kWindowSeconds), Bytes(2));
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_EQ(buckets[0].window_writes[kWindows - 2], 1u);
  EXPECT_EQ(buckets[0].window_writes[kWindows - 1], 1u);
  // kWindows windows after window 0 its slot is reused and starts from zero.
  const int64_t later = static_cast<int64_t>(kWindows) * kWindowSeconds;
  heat.Record("0:c", true, later);
  buckets = GroupBuckets(heat.Read(later), Bytes(2));
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_EQ(buckets[0].window_writes[kWindows - 1], 1u);
  EXPECT_EQ(buckets[0].window_writes[0], 1u);  // window 1
  EXPECT_EQ(buckets[0].writes, 3u);            // totals never forget
}

TEST(BucketingTest, LabelsEscapeNonPrintableBytesAndTheBackslash) {
  EXPECT_EQ(PrefixLabel(std::string("\x00\xff", 2)), "\\x00\\xFF");
  EXPECT_EQ(PrefixLabel("a b"), "a\\x20b");
  EXPECT_EQ(PrefixLabel("a\\"), "a\\x5C");
  EXPECT_EQ(PrefixLabel("0:"), "0:");
  EXPECT_EQ(PrefixLabel(""), "(empty)");
  EXPECT_EQ(PrefixLabel(std::string("\x7f", 1), /*rest=*/true), "\\x7F\u2026");
}

TEST(BucketingTest, SpecParsesOneToFourBytesAndOneDelimiterByte) {
  BucketSpec spec;
  std::string error;
  ASSERT_TRUE(ParseBucketSpec("", "", &spec, &error));
  EXPECT_EQ(spec.bytes, 1);
  EXPECT_EQ(spec.delimiter, -1);
  ASSERT_TRUE(ParseBucketSpec("4", ":", &spec, &error));
  EXPECT_EQ(spec.bytes, 4);
  EXPECT_EQ(spec.delimiter, ':');
  ASSERT_TRUE(ParseBucketSpec("2", std::string(1, '\xff'), &spec, &error));
  EXPECT_EQ(spec.delimiter, 0xff);
  for (const char* bad : {"0", "5", "12", "x", "-1"}) {
    EXPECT_FALSE(ParseBucketSpec(bad, "", &spec, &error)) << bad;
    EXPECT_NE(error.find("prefix_bytes"), std::string::npos);
  }
  EXPECT_FALSE(ParseBucketSpec("", "::", &spec, &error));
  EXPECT_NE(error.find("delimiter"), std::string::npos);
}

}  // namespace
}  // namespace hbemu::server::admin
