#include "server/rest/row_spec.h"

#include <gtest/gtest.h>

#include "server/rest/base64.h"

namespace hbemu::server::rest {
namespace {

bool Parse(const std::string& target, RowSpec* spec, const std::string* encoding = nullptr) {
  std::string error;
  return ParseRowSpec(ParseTarget(target), encoding, spec, &error);
}

TEST(RestRowSpecTest, RowColumnsAndVersionsAreSplitBeforeDecoding) {
  RowSpec spec;
  ASSERT_TRUE(Parse("/t/r%2F1/g,f:a/42?v=3", &spec));
  EXPECT_EQ(spec.row, "r/1");
  EXPECT_FALSE(spec.has_end_row);
  // HBase keeps the columns as a byte-ordered set.
  EXPECT_EQ(spec.columns, (std::vector<std::string>{"f:a", "g"}));
  EXPECT_EQ(spec.max_versions, 3);
}

TEST(RestRowSpecTest, OneTimestampReadsTheVersionsBeforeIt) {
  RowSpec spec;
  ASSERT_TRUE(Parse("/t/r/f:a/15", &spec));
  EXPECT_EQ(spec.start_time, 0);
  EXPECT_EQ(spec.end_time, 15);
  EXPECT_TRUE(spec.HasTimestamp());
}

TEST(RestRowSpecTest, TimeRangeIsStartInclusiveEndExclusiveAndAZeroEndMeansOneTimestamp) {
  RowSpec range;
  ASSERT_TRUE(Parse("/t/r/f/10,20", &range));
  EXPECT_FALSE(range.HasTimestamp());
  EXPECT_EQ(range.start_time, 10);
  EXPECT_EQ(range.end_time, 20);
  RowSpec zero_end;
  ASSERT_TRUE(Parse("/t/r/f/10,0", &zero_end));
  EXPECT_EQ(zero_end.start_time, 0);
  EXPECT_EQ(zero_end.end_time, 10);
}

TEST(RestRowSpecTest, StartCommaEndRowIsARangeAndAGlobEndsAtPrefixThenFF) {
  RowSpec range;
  ASSERT_TRUE(Parse("/t/a,c/f", &range));
  EXPECT_TRUE(range.has_end_row);
  EXPECT_EQ(range.row, "a");
  EXPECT_EQ(range.end_row, "c");
  RowSpec glob;
  ASSERT_TRUE(Parse("/t/pre*/f", &glob));
  EXPECT_TRUE(glob.has_end_row);
  EXPECT_EQ(glob.row, "pre");
  EXPECT_EQ(glob.end_row, "pre\xff");
  RowSpec bad;
  EXPECT_FALSE(Parse("/t/pre*,z/f", &bad));
}

TEST(RestRowSpecTest, PathPartsAreUrlDecodedWithPlusAsSpace) {
  RowSpec spec;
  ASSERT_TRUE(Parse("/t/a+b/f:c+d", &spec));
  EXPECT_EQ(spec.row, "a b");
  EXPECT_EQ(spec.columns, (std::vector<std::string>{"f:c d"}));
}

TEST(RestRowSpecTest, EscapedBytesThatAreNotUtf8BecomeReplacementCharacters) {
  RowSpec spec;
  ASSERT_TRUE(Parse("/t/%FF/f:%C3%A9%E2%82", &spec));
  EXPECT_EQ(spec.row, "\xEF\xBF\xBD");
  // A valid sequence stays; a truncated one is one replacement.
  EXPECT_EQ(spec.columns, (std::vector<std::string>{"f:\xC3\xA9\xEF\xBF\xBD"}));
}

TEST(RestRowSpecTest, Base64EncodingDecodesRowEndRowAndColumnsWithTheUrlAlphabet) {
  const std::string b64 = "b64";
  RowSpec spec;
  // "r?1" is "cj8x" and "\xfb\xff" is "-_8" in the URL-safe alphabet, unpadded.
  ASSERT_TRUE(Parse("/t/cj8x/" + Base64Encode("f:a") + ",-_8", &spec, &b64));
  EXPECT_EQ(spec.row, "r?1");
  EXPECT_EQ(spec.columns, (std::vector<std::string>{"f:a", "\xfb\xff"}));
  RowSpec range;
  ASSERT_TRUE(Parse("/t/YQ,Yw", &range, &b64));
  EXPECT_EQ(range.end_row, "c");
  RowSpec bad;
  EXPECT_FALSE(Parse("/t/!!notb64", &bad, &b64));
  const std::string unknown = "hex";
  EXPECT_FALSE(Parse("/t/cjE", &bad, &unknown));
}

TEST(RestRowSpecTest, MalformedTimesVersionsAndEmptyColumnsAreRefused) {
  RowSpec bad;
  EXPECT_FALSE(Parse("/t/r/f/notanumber", &bad));
  EXPECT_FALSE(Parse("/t/r/f/1,x", &bad));
  EXPECT_FALSE(Parse("/t/r?v=x", &bad));
  EXPECT_FALSE(Parse("/t/r/f,,g", &bad));
}

}  // namespace
}  // namespace hbemu::server::rest
