#include "shell/cell_format.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "shell/shell.h"

namespace hbemu::shell {
namespace {

class UtcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("TZ", "UTC", 1);
    tzset();
    SetTimestampFormatEpoch(false);
  }
  void TearDown() override { SetTimestampFormatEpoch(false); }
};

// java.time.LocalDateTime.toString: zero seconds and millis are left out.
TEST_F(UtcTest, TimestampPrintsAsJavaLocalDateTime) {
  EXPECT_EQ(TimestampText(0), "1970-01-01T00:00");
  EXPECT_EQ(TimestampText(1000), "1970-01-01T00:00:01");
  EXPECT_EQ(TimestampText(1500), "1970-01-01T00:00:01.500");
  EXPECT_EQ(TimestampText(1700000000123), "2023-11-14T22:13:20.123");
  EXPECT_EQ(TimestampText(1700000000000), "2023-11-14T22:13:20");
}

TEST_F(UtcTest, EpochSettingPrintsMillis) {
  SetTimestampFormatEpoch(true);
  EXPECT_EQ(TimestampText(1700000000123), "1700000000123");
}

TEST(ConvertBytesTest, BytesConvertersAsHBaseShell) {
  const std::string seven("\0\0\0\0\0\0\0\x07", 8);
  EXPECT_EQ(ConvertBytes(seven, "toLong"), "7");
  EXPECT_EQ(ConvertBytes(seven, "c(org.apache.hadoop.hbase.util.Bytes).toLong"), "7");
  EXPECT_EQ(ConvertBytes(std::string("\xff\xff\xff\xfe", 4), "toInt"), "-2");
  EXPECT_EQ(ConvertBytes(std::string("\0\x05", 2), "toShort"), "5");
  EXPECT_EQ(ConvertBytes(seven, ""), "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x07");
  EXPECT_EQ(ConvertBytes("a\x01", "toString"), "a\x01");
  EXPECT_EQ(ConvertBytes("\x01\xab", "toHex"), "01ab");
}

TEST(ConvertBytesTest, ShortValueFailsWithJavasText) {
  try {
    ConvertBytes("abc", "toLong");
    FAIL() << "no error";
  } catch (const ShellError& e) {
    EXPECT_STREQ(e.what(), "offset (0) + length (8) exceed the capacity of the array: 3");
  }
}

TEST(ColumnSpecTest, ConverterSuffixIsSplitOff) {
  ColumnSpec c = ParseColumnSpec("f:q:toLong");
  EXPECT_EQ(c.family, "f");
  EXPECT_EQ(c.qualifier, "q");
  EXPECT_EQ(c.converter, "toLong");
  c = ParseColumnSpec("f:a:b");  // "b" is no converter: part of the qualifier
  EXPECT_EQ(c.qualifier, "a:b");
  EXPECT_EQ(c.converter, "");
  c = ParseColumnSpec("f:n:c(org.apache.hadoop.hbase.util.Bytes).toInt");
  EXPECT_EQ(c.qualifier, "n");
  EXPECT_EQ(c.converter, "c(org.apache.hadoop.hbase.util.Bytes).toInt");
  c = ParseColumnSpec("f");
  EXPECT_FALSE(c.has_qualifier);
  c = ParseColumnSpec("f:");
  EXPECT_TRUE(c.has_qualifier);
  EXPECT_EQ(c.qualifier, "");
}

TEST_F(UtcTest, CellPrinterAppliesColumnConverterAndMaxLength) {
  CellPrinter p;
  p.converters["f:n"] = "toLong";
  const std::string seven("\0\0\0\0\0\0\0\x07", 8);
  EXPECT_EQ(p.Cell("f", "n", 1000, seven), "timestamp=1970-01-01T00:00:01, value=7");
  EXPECT_EQ(p.Cell("f", "m", 1000, "v\x01"), "timestamp=1970-01-01T00:00:01, value=v\\x01");
  p.maxlength = 20;
  EXPECT_EQ(p.Cell("f", "m", 1000, "v"), "timestamp=1970-01-01");
  p.formatter = "toString";
  EXPECT_EQ(p.Name("r\x01"), "r\x01");
}

// The shell parses FILTER strings before sending them; the messages are ParseFilter's, as the
// real shell prints them (checked against HBase 2.6.1's shell: tests/shell/transcript/real.out).
TEST(FilterCheckTest, BadFiltersGiveParseFiltersReason) {
  auto error = [](const std::string& text) -> std::string {
    try {
      CheckFilterString(text);
    } catch (const ShellError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error("ValueFiltr(=, 'binary:1')"), "Filter Name ValueFiltr not supported");
  EXPECT_EQ(error("ValueFilter(=, 'binary:1'"), "Incorrect Filter String");
  EXPECT_EQ(error("ValueFilter(=)"), "Incorrect filter string ValueFilter(=)");
  EXPECT_EQ(error("PrefixFilter('r1') XOR KeyOnlyFilter()"), "Filter Name XOR not supported");
  EXPECT_EQ(error("PrefixFilter('r1') AND ValueFilter(=, 'binary:v2')"), "");
}

}  // namespace
}  // namespace hbemu::shell
