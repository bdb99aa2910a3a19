#include "shell/value.h"

#include <gtest/gtest.h>

namespace hbemu::shell {
namespace {

Command Parse(const std::string& line) {
  Command c;
  std::string error;
  EXPECT_TRUE(ParseCommand(line, &c, &error)) << error;
  return c;
}

TEST(ValueTest, BareKeyValuePairsBecomeOneTrailingHash) {
  Command c = Parse("create 't1', 'f1', SPLITS => ['10', '20']");
  EXPECT_EQ(c.name, "create");
  ASSERT_EQ(c.args.size(), 3u);
  EXPECT_EQ(c.args[1].text, "f1");
  ASSERT_TRUE(c.args[2].IsHash());
  const Value* splits = c.args[2].Find("SPLITS");
  ASSERT_NE(splits, nullptr);
  ASSERT_EQ(splits->items.size(), 2u);
  EXPECT_EQ(splits->items[1].text, "20");
}

TEST(ValueTest, DoubleQuotedStringsDecodeRubyEscapes) {
  Command c = Parse(R"(put 't', "r\x00\xFF", 'f:q', "a\tb\\c\"\101")");
  EXPECT_EQ(c.args[1].text, std::string("r\0\xff", 3));
  EXPECT_EQ(c.args[3].text, "a\tb\\c\"A");
}

TEST(ValueTest, SingleQuotedStringsKeepBackslashesExceptQuoteAndBackslash) {
  Command c = Parse(R"(get 't', 'a\x00\'\\')");
  EXPECT_EQ(c.args[1].text, "a\\x00'\\");
}

TEST(ValueTest, ConstantsNumbersAndNestedHashes) {
  Command c = Parse("create('t', {NAME => 'f', VERSIONS => 3, TTL => -1, IN_MEMORY => true})");
  ASSERT_EQ(c.args.size(), 2u);
  const Value& h = c.args[1];
  EXPECT_EQ(h.Find("VERSIONS")->integer, 3);
  EXPECT_EQ(h.Find("TTL")->integer, -1);
  EXPECT_TRUE(h.Find("IN_MEMORY")->boolean);
  EXPECT_EQ(h.pairs[0].first.text, "NAME");  // VERSIONS and NAME evaluate to their names
}

TEST(ValueTest, CommentsAndLineBreaksInsideBrackets) {
  Command c = Parse("scan 't', {LIMIT => 1,  # first row only\n STARTROW => 'a'}");
  EXPECT_EQ(c.args[1].Find("LIMIT")->integer, 1);
  EXPECT_EQ(c.args[1].Find("STARTROW")->text, "a");
}

TEST(ValueTest, SyntaxErrorsAreReported) {
  Command c;
  std::string error;
  EXPECT_FALSE(ParseCommand("put 't', 'r", &c, &error));
  EXPECT_NE(error.find("unterminated string"), std::string::npos);
  EXPECT_FALSE(ParseCommand("scan 't', {LIMIT 1}", &c, &error));
  EXPECT_FALSE(ParseCommand("scan 't', org.apache.Filter.new", &c, &error));
  EXPECT_FALSE(ParseCommand("get 't', 'r',, 'f'", &c, &error));
}

// Ruby joins adjacent string literals: get 't' 'r' is get 'tr'.
TEST(ValueTest, AdjacentStringLiteralsAreOneString) {
  Command c;
  std::string error;
  ASSERT_TRUE(ParseCommand("get 't', 'r' \"1\"  '2'", &c, &error)) << error;
  ASSERT_EQ(c.args.size(), 2u);
  EXPECT_EQ(c.args[1].text, "r12");
}

TEST(ValueTest, OpenStateGivesDepthAndQuoteForTheContinuationPrompt) {
  EXPECT_EQ(OpenStateOf("create 't', {NAME => 'f',").depth, 1);
  EXPECT_EQ(OpenStateOf("create 't', {NAME => 'f',").quote, 0);
  EXPECT_EQ(OpenStateOf("put 't', 'r").quote, '\'');
  EXPECT_EQ(OpenStateOf("scan 't', {COLUMNS => ['a',").depth, 2);
}

TEST(ValueTest, InspectEscapesQuotesAndBackslashesAsRuby) {
  EXPECT_EQ(Value::String("\\x00z").Inspect(), "\"\\\\x00z\"");
  EXPECT_EQ(Value::String("a\"b").Inspect(), "\"a\\\"b\"");
}

TEST(ValueTest, ContinuationWhileBracketsOpenOrAfterCommaOrArrow) {
  EXPECT_TRUE(NeedsMoreInput("create 't', {NAME => 'f',"));
  EXPECT_TRUE(NeedsMoreInput("create 't',"));
  EXPECT_TRUE(NeedsMoreInput("scan 't', LIMIT =>"));
  EXPECT_TRUE(NeedsMoreInput("put 't', 'r"));
  EXPECT_FALSE(NeedsMoreInput("put 't', 'r', 'f:q', 'v' # done, {"));
  EXPECT_FALSE(NeedsMoreInput("list"));
}

// Bare constants are marked, and only HBase's shell constants are known: Ruby raises
// NameError for any other before the command runs.
TEST(ValueTest, BareConstantsAreMarkedAndCheckedAgainstHBases) {
  Command c;
  std::string error;
  ASSERT_TRUE(ParseCommand("scan 't', {BADOPTION => 1, LIMIT => 'LIMIT'}", &c, &error)) << error;
  ASSERT_EQ(c.args[1].pairs.size(), 2u);
  EXPECT_TRUE(c.args[1].pairs[0].first.constant);
  EXPECT_FALSE(c.args[1].pairs[1].second.constant);  // quoted
  EXPECT_FALSE(IsShellConstant("BADOPTION"));
  for (const char* name : {"VERSIONS", "TTL", "FILTER", "ROWPREFIXFILTER", "MAX_FILESIZE",
                           "METHOD", "FORMATTER", "SPLITS", "CONFIGURATION"}) {
    EXPECT_TRUE(IsShellConstant(name)) << name;
  }
}

}  // namespace
}  // namespace hbemu::shell
