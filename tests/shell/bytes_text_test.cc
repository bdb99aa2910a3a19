#include "shell/bytes_text.h"

#include <gtest/gtest.h>

#include "shell/descriptors.h"

namespace hbemu::shell {
namespace {

TEST(BytesTextTest, ToStringBinaryEscapesAsHBaseDoes) {
  EXPECT_EQ(ToStringBinary("abc XYZ 09"), "abc XYZ 09");
  EXPECT_EQ(ToStringBinary(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(ToStringBinary("\xff\x7f\n"), "\\xFF\\x7F\\x0A");
  EXPECT_EQ(ToStringBinary("\\"), "\\x5C");  // the backslash is escaped too
  EXPECT_EQ(ToStringBinary("`~!@#$%^&*()-_=+[]{}|;:'\",.<>/?"), "`~!@#$%^&*()-_=+[]{}|;:'\",.<>/?");
}

TEST(BytesTextTest, DecodeLongIsBigEndianEightBytes) {
  int64_t v = 0;
  ASSERT_TRUE(DecodeLong(std::string("\0\0\0\0\0\0\x01\x02", 8), &v));
  EXPECT_EQ(v, 258);
  ASSERT_TRUE(DecodeLong(std::string(8, '\xff'), &v));
  EXPECT_EQ(v, -1);
  EXPECT_FALSE(DecodeLong("1234", &v));
}

TEST(BytesTextTest, TtlIsPrintedInHBaseWords) {
  EXPECT_EQ(FormatTtl(0x7fffffff), "FOREVER");
  EXPECT_EQ(FormatTtl(30), "30 SECONDS");
  EXPECT_EQ(FormatTtl(86400), "86400 SECONDS (1 DAY)");
  EXPECT_EQ(FormatTtl(90061), "90061 SECONDS (1 DAY 1 HOUR 1 MINUTE 1 SECOND)");
  EXPECT_EQ(FormatTtl(7200), "7200 SECONDS (2 HOURS)");
}

TEST(BytesTextTest, HexStringSplitSpacesKeysEvenly) {
  auto splits = ComputeSplits("HexStringSplit", 4);
  ASSERT_EQ(splits.size(), 3u);
  EXPECT_EQ(splits[0], "40000000");
  EXPECT_EQ(splits[1], "80000000");
  EXPECT_EQ(splits[2], "c0000000");
  EXPECT_EQ(ComputeSplits("HexStringSplit", 15)[0], "11111111");
  auto uniform = ComputeSplits("UniformSplit", 2);
  ASSERT_EQ(uniform.size(), 1u);
  EXPECT_EQ(uniform[0], std::string("\x80\0\0\0\0\0\0\0", 8));
}

// HBase's shell hands each SPLITS string to Java and reads it with Bytes.toBytesBinary: escape
// text is the byte, a lone malformed byte (double-quoted "\xFF" in Ruby) is U+FFFD, whose low
// byte 0xFD starts the region in HBase 2.6.1 (checked with its shell).
TEST(BytesTextTest, SplitKeyBytesReadsAsHBaseShellDoes) {
  EXPECT_EQ(SplitKeyBytes("a\\x00\\xFF"), std::string("a\0\xff", 3));
  EXPECT_EQ(SplitKeyBytes("c\xff"), "c\xfd");
  EXPECT_EQ(SplitKeyBytes("a\\x27b\\x5c"), "a'b\\");
  EXPECT_EQ(SplitKeyBytes("\xc3\xa9"), "\xe9");  // one char, its low 8 bits
  EXPECT_EQ(SplitKeyBytes("q\\xZZ"), "qxZZ");      // a bogus escape drops its backslash
}

}  // namespace
}  // namespace hbemu::shell
