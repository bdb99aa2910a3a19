#include "server/admin/format.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "server/admin/process_stats.h"

namespace hbemu::server::admin {
namespace {

// Expected texts are what Go's strconv.FormatFloat(v, 'g', -1, 64) prints (the Prometheus
// client's formatting).
TEST(ShortestNumberTest, MatchesGoShortestFormattingThatPrometheusUses) {
  EXPECT_EQ(ShortestNumber(50 / 1e6), "5e-05");  // was 5.0000000000000002e-05
  EXPECT_EQ(ShortestNumber(0.0001), "0.0001");
  EXPECT_EQ(ShortestNumber(0.00025), "0.00025");
  EXPECT_EQ(ShortestNumber(0.001), "0.001");
  EXPECT_EQ(ShortestNumber(2.5), "2.5");
  EXPECT_EQ(ShortestNumber(10), "10");
  EXPECT_EQ(ShortestNumber(100000), "100000");
  EXPECT_EQ(ShortestNumber(1e6), "1e+06");
  EXPECT_EQ(ShortestNumber(123456789), "1.23456789e+08");
  EXPECT_EQ(ShortestNumber(12345.678), "12345.678");
  EXPECT_EQ(ShortestNumber(0.35781199999999996), "0.35781199999999996");
  EXPECT_EQ(ShortestNumber(0), "0");
  EXPECT_EQ(ShortestNumber(-0.0), "-0");
  EXPECT_EQ(ShortestNumber(-1.5e-7), "-1.5e-07");
  EXPECT_EQ(ShortestNumber(1e21), "1e+21");
  EXPECT_EQ(ShortestNumber(1e100), "1e+100");
}

TEST(ShortestNumberTest, SpellsInfinitiesAndNaNAsPrometheusDoes) {
  EXPECT_EQ(ShortestNumber(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(ShortestNumber(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(ShortestNumber(std::nan("")), "NaN");
}

TEST(ShortestNumberTest, ReadsBackAsTheSameDouble) {
  for (double v : {0.1, 1.0 / 3, 2.0 / 3 * 1e-9, 6.02214076e23, 0.35781199999999996, 5e-324}) {
    EXPECT_EQ(std::strtod(ShortestNumber(v).c_str(), nullptr), v) << ShortestNumber(v);
  }
}

TEST(HumanFormatTest, CountsGetThousandsSeparators) {
  EXPECT_EQ(HumanCount(0), "0");
  EXPECT_EQ(HumanCount(999), "999");
  EXPECT_EQ(HumanCount(1000), "1,000");
  EXPECT_EQ(HumanCount(1234567), "1,234,567");
  EXPECT_EQ(HumanCount(18446744073709551615ull), "18,446,744,073,709,551,615");
}

TEST(HumanFormatTest, BytesInBinaryUnits) {
  EXPECT_EQ(HumanBytes(512), "512 B");
  EXPECT_EQ(HumanBytes(1536), "1.5 KiB");
  EXPECT_EQ(HumanBytes(4 << 20), "4.0 MiB");
  EXPECT_EQ(HumanBytes(1ull << 31), "2.0 GiB");
}

TEST(HumanFormatTest, SecondsWithThreeSignificantDigitsAndNoFloatNoise) {
  EXPECT_EQ(HumanSeconds(0.35781199999999996), "358 ms");
  EXPECT_EQ(HumanSeconds(0), "0 s");
  EXPECT_EQ(HumanSeconds(85e-6), "85 \u00b5s");
  EXPECT_EQ(HumanSeconds(0.00123), "1.23 ms");
  EXPECT_EQ(HumanSeconds(4.56), "4.56 s");
  EXPECT_EQ(HumanSeconds(12.0), "12 s");
  EXPECT_EQ(HumanSeconds(59.99), "1 min 00 s");
  EXPECT_EQ(HumanSeconds(200), "3 min 20 s");
  EXPECT_EQ(HumanSeconds(7500), "2 h 05 min");
  EXPECT_EQ(HumanSeconds(-2), "-2 s");
}

TEST(HumanFormatTest, TimeOfDayIsUtcWithMilliseconds) {
  EXPECT_EQ(UtcTimeOfDay(1795934972835), "06:49:32.835");
  EXPECT_EQ(UtcTimeOfDay(0), "00:00:00.000");
  EXPECT_EQ(UtcTimeOfDay(-1), "");
}

TEST(ProcessStatsTest, CpuSecondsAreWholeMicrosecondsSoTheyPrintWithoutNoise) {
  volatile double sink = 0;
  for (int i = 0; i < 3000000; ++i) sink = sink + i * 1e-9;  // some user CPU to read back
  const double cpu = ReadProcessStats().cpu_seconds;
  const std::string text = ShortestNumber(cpu);
  const size_t dot = text.find('.');
  if (dot != std::string::npos) EXPECT_LE(text.size() - dot - 1, 6u) << text;
  EXPECT_EQ(std::llround(cpu * 1e6) / 1e6, cpu);
}

}  // namespace
}  // namespace hbemu::server::admin
