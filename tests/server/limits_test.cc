#include "server/limits.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace hbemu {
namespace {

TEST(LimitsTest, EveryLimitHasAUniqueNameAndAnExplanation) {
  std::set<std::string> names;
  for (const LimitInfo& info : AllLimits()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_NE(std::string(info.meaning), "");
    EXPECT_NE(std::string(info.past_it), "");
    EXPECT_GT(Limits().*(info.field), 0) << info.name;
  }
}

TEST(LimitsTest, AssignmentTakesByteSuffixes) {
  Limits limits;
  std::string error;
  ASSERT_TRUE(ParseLimitAssignment("filter_string_bytes=2M", &limits, &error)) << error;
  EXPECT_EQ(limits.filter_string_bytes, 2 << 20);
  ASSERT_TRUE(ParseLimitAssignment("admin_value_bytes=3k", &limits, &error)) << error;
  EXPECT_EQ(limits.admin_value_bytes, 3 << 10);
  ASSERT_TRUE(ParseLimitAssignment("filter_depth=40", &limits, &error)) << error;
  EXPECT_EQ(limits.filter_depth, 40);
}

TEST(LimitsTest, SuffixesAreOnlyForByteLimits) {
  Limits limits;
  std::string error;
  EXPECT_FALSE(ParseLimitAssignment("filter_depth=4k", &limits, &error));
  EXPECT_NE(error.find("filter_depth"), std::string::npos);
}

TEST(LimitsTest, UnknownNameListsTheKnownOnes) {
  Limits limits;
  std::string error;
  EXPECT_FALSE(ParseLimitAssignment("no_such_limit=1", &limits, &error));
  EXPECT_NE(error.find("filter_depth"), std::string::npos) << error;
}

TEST(LimitsTest, BadValuesAreRefused) {
  Limits limits;
  std::string error;
  EXPECT_FALSE(ParseLimitAssignment("filter_depth", &limits, &error));
  EXPECT_FALSE(ParseLimitAssignment("filter_depth=", &limits, &error));
  EXPECT_FALSE(ParseLimitAssignment("filter_depth=-1", &limits, &error));
  EXPECT_FALSE(ParseLimitAssignment("filter_depth=12x", &limits, &error));
  EXPECT_FALSE(ParseLimitAssignment("reply_bytes=99999999999999999G", &limits, &error));
  EXPECT_EQ(limits.filter_depth, Limits().filter_depth);
}

// --limit message_bytes=8G was accepted and then cut to 32 bits where the wire uses it.
TEST(LimitsTest, ValuesPastALimitsLargestAreRefusedWithIt) {
  Limits limits;
  std::string error;
  EXPECT_FALSE(ParseLimitAssignment("message_bytes=8G", &limits, &error));
  EXPECT_NE(error.find("at most 2147483647 bytes"), std::string::npos) << error;
  EXPECT_EQ(limits.message_bytes, Limits().message_bytes);
  EXPECT_TRUE(ParseLimitAssignment("message_bytes=2147483647", &limits, &error)) << error;
  EXPECT_FALSE(ParseLimitAssignment("write_timeout_ms=999999999999", &limits, &error));
  EXPECT_FALSE(ParseLimitAssignment("open_scanners=9999999999", &limits, &error));
  EXPECT_FALSE(ParseLimitAssignment("filter_depth=100000", &limits, &error));
  EXPECT_TRUE(ParseLimitAssignment("filter_depth=10", &limits, &error)) << error;
}

TEST(LimitsTest, EveryDefaultIsWithinItsLargestValue) {
  const Limits defaults;
  for (const LimitInfo& info : AllLimits()) {
    Limits limits;
    std::string error;
    EXPECT_TRUE(ParseLimitAssignment(std::string(info.name) + "=" +
                                         std::to_string(defaults.*(info.field)),
                                     &limits, &error))
        << info.name << ": " << error;
  }
}

TEST(LimitsTest, DescriptionIsATableRowPerLimit) {
  const std::string table = DescribeLimits(Limits());
  for (const LimitInfo& info : AllLimits()) {
    EXPECT_NE(table.find(std::string("`") + info.name + "`"), std::string::npos) << info.name;
  }
  EXPECT_NE(table.find("| `filter_string_bytes` | 4 MiB |"), std::string::npos) << table;
}

}  // namespace
}  // namespace hbemu
