#include "server/control/faults.h"

#include <gtest/gtest.h>

namespace hbemu::server::control {
namespace {

using nlohmann::json;

FaultRule Rule(const json& doc) {
  FaultRule rule;
  std::string error;
  EXPECT_TRUE(FaultRule::FromJson(doc, &rule, &error)) << error;
  return rule;
}

DecodedCall Call(const std::string& method, const std::string& table, const std::string& row) {
  DecodedCall call;
  call.decoded = true;
  call.method = method;
  call.table = table;
  call.row = row;
  return call;
}

TEST(FaultRuleTest, MatchesByServiceMethodTableAndRowPrefixWithWildcards) {
  const FaultRule rule = Rule({{"service", "thrift1"}, {"method", "get*"}, {"table", "t*"},
                               {"row_prefix", "user1"}});
  EXPECT_TRUE(rule.Matches("thrift1", Call("getRow", "t1", "user12")));
  EXPECT_FALSE(rule.Matches("thrift2", Call("getRow", "t1", "user12")));
  EXPECT_FALSE(rule.Matches("thrift1", Call("mutateRow", "t1", "user12")));
  EXPECT_FALSE(rule.Matches("thrift1", Call("getRow", "other", "user12")));
  EXPECT_FALSE(rule.Matches("thrift1", Call("getRow", "t1", "user2")));
  EXPECT_TRUE(Rule(json::object()).Matches("thrift2", Call("put", "x", "")));
}

TEST(FaultRuleTest, ABatchMatchesWhenAnyOfItsRowsHasThePrefix) {
  const FaultRule rule = Rule({{"row_prefix", "b"}});
  DecodedCall call = Call("mutateRows", "t", "a1");
  call.rows = {"a1", "b7"};
  call.row_count = 2;
  EXPECT_TRUE(rule.Matches("thrift1", call));
  call.rows = {"a1", "c7"};
  EXPECT_FALSE(rule.Matches("thrift1", call));
}

TEST(FaultRuleTest, BadRulesAreRefusedWithAReason) {
  FaultRule rule;
  std::string error;
  EXPECT_FALSE(FaultRule::FromJson({{"action", "explode"}}, &rule, &error));
  EXPECT_NE(error.find("action"), std::string::npos);
  EXPECT_FALSE(FaultRule::FromJson({{"probability", 2}}, &rule, &error));
  EXPECT_FALSE(FaultRule::FromJson({{"times", 0}}, &rule, &error));
  EXPECT_FALSE(FaultRule::FromJson({{"action", "delay"}}, &rule, &error));
  EXPECT_FALSE(FaultRule::FromJson({{"table", 5}}, &rule, &error));
}

// "times": 1e300 was converted to int64 (INT64_MIN): a rule that never ran out.
TEST(FaultRuleTest, NumbersThatAreNotWholeOrOutOfRangeAreRefused) {
  FaultRule rule;
  std::string error;
  for (const nlohmann::json& doc :
       {nlohmann::json{{"times", 1e300}}, {{"times", 1.5}}, {{"times", -2}},
        {{"times", 1000000001}}, {{"times", 9223372036854775808ULL}}, {{"seed", -1}},
        {{"seed", 1e300}}, {{"seed", 0.5}}, {{"action", "delay"}, {"delay_ms", 0.5}},
        {{"action", "delay"}, {"delay_ms", 600001}}, {{"action", "delay"}, {"delay_ms", -1}}}) {
    EXPECT_FALSE(FaultRule::FromJson(doc, &rule, &error)) << doc.dump();
    EXPECT_NE(error.find(doc.begin().key() == "action" ? "delay_ms" : doc.begin().key()),
              std::string::npos)
        << error;
  }
  ASSERT_TRUE(FaultRule::FromJson({{"times", 1000000000}, {"seed", 18446744073709551615ULL}},
                                  &rule, &error))
      << error;
  EXPECT_EQ(rule.times, 1000000000);
  EXPECT_EQ(rule.seed, 18446744073709551615ULL);
  ASSERT_TRUE(FaultRule::FromJson({{"times", 3.0}}, &rule, &error)) << error;
  EXPECT_EQ(rule.times, 3);
  ASSERT_TRUE(FaultRule::FromJson({{"times", -1}}, &rule, &error)) << error;
  EXPECT_EQ(rule.times, -1);
}

TEST(FaultRuleTest, AnUnknownMethodIsRefusedAndAnOperationHitsItsThriftCalls) {
  FaultRule rule;
  std::string error;
  EXPECT_FALSE(FaultRule::FromJson({{"method", "getRowWithColums"}}, &rule, &error));
  EXPECT_NE(error.find("getRowWithColumns"), std::string::npos) << error;
  const FaultRule put = Rule({{"method", "Table.put"}, {"table", "t"}});
  EXPECT_TRUE(put.Matches("thrift1", Call("mutateRows", "t", "r")));
  EXPECT_FALSE(put.Matches("thrift1", Call("mutateRow", "t", "r")));
  EXPECT_EQ(put.ToJson()["method"], "Table.put");
  EXPECT_EQ(put.ToJson()["methods"], json::array({"mutateRows", "mutateRowsTs"}));
}

TEST(FaultRuleTest, CanRetryFollowsTheExceptionClassUnlessGiven) {
  EXPECT_TRUE(Rule({{"exception", "org.apache.hadoop.hbase.NotServingRegionException"}}).CanRetry());
  EXPECT_FALSE(Rule({{"exception", "org.apache.hadoop.hbase.DoNotRetryIOException"}}).CanRetry());
  EXPECT_TRUE(Rule({{"exception", "org.apache.hadoop.hbase.DoNotRetryIOException"},
                    {"can_retry", true}}).CanRetry());
}

TEST(FaultRulesTest, ARuleWithTimesHitsThatManyCallsThenStaysListedButSpent) {
  FaultRules rules;
  int64_t id = 0;
  std::string error;
  ASSERT_TRUE(rules.Add(Rule({{"times", 2}}), &id, &error)) << error;
  EXPECT_TRUE(rules.Hit("thrift1", Call("getRow", "t", "r")).has_value());
  EXPECT_TRUE(rules.Hit("thrift1", Call("getRow", "t", "r")).has_value());
  EXPECT_FALSE(rules.Hit("thrift1", Call("getRow", "t", "r")).has_value());
  const json listed = rules.List();
  EXPECT_EQ(listed["rules"][0]["triggered"], 2);
  EXPECT_EQ(listed["rules"][0]["times"], 0);
  EXPECT_EQ(listed["triggered"]["fail"], 2);
  EXPECT_EQ(rules.triggered(FaultAction::kFail), 2u);
}

TEST(FaultRulesTest, FirstMatchingRuleWinsAndRemoveAndClearWork) {
  FaultRules rules;
  int64_t first = 0, second = 0;
  std::string error;
  ASSERT_TRUE(rules.Add(Rule({{"table", "a"}, {"action", "close_before"}}), &first, &error));
  ASSERT_TRUE(rules.Add(Rule({{"action", "close_after"}}), &second, &error));
  EXPECT_EQ(rules.Hit("thrift2", Call("put", "a", "r"))->id, first);
  EXPECT_EQ(rules.Hit("thrift2", Call("put", "b", "r"))->id, second);
  EXPECT_TRUE(rules.Remove(first));
  EXPECT_FALSE(rules.Remove(first));
  EXPECT_EQ(rules.Hit("thrift2", Call("put", "a", "r"))->action, FaultAction::kCloseAfter);
  rules.Clear();
  EXPECT_TRUE(rules.empty());
  EXPECT_FALSE(rules.Hit("thrift2", Call("put", "a", "r")).has_value());
}

TEST(FaultRulesTest, ProbabilityUnderASeedIsRepeatable) {
  auto pattern = [](uint64_t seed) {
    FaultRules rules;
    int64_t id = 0;
    std::string error;
    EXPECT_TRUE(rules.Add(Rule({{"probability", 0.5}, {"seed", seed}}), &id, &error));
    std::string hits;
    for (int i = 0; i < 64; ++i) hits += rules.Hit("thrift1", Call("get", "t", "r")) ? '1' : '0';
    return hits;
  };
  const std::string a = pattern(42);
  EXPECT_EQ(a, pattern(42));
  EXPECT_NE(a.find('1'), std::string::npos);
  EXPECT_NE(a.find('0'), std::string::npos);
}

}  // namespace
}  // namespace hbemu::server::control
