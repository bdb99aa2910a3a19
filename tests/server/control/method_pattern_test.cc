#include "server/control/method_pattern.h"

#include <gtest/gtest.h>

#include "server/admin/known_methods.h"
#include "server/control/happybase_operations.h"

namespace hbemu::server::control {
namespace {

MethodPattern Parsed(const std::string& service, const std::string& text) {
  MethodPattern pattern;
  std::string error;
  EXPECT_TRUE(MethodPattern::Parse(service, text, &pattern, &error)) << error;
  return pattern;
}

std::string Refusal(const std::string& service, const std::string& text) {
  MethodPattern pattern;
  std::string error;
  EXPECT_FALSE(MethodPattern::Parse(service, text, &pattern, &error)) << text;
  return error;
}

TEST(MethodPatternTest, AThriftMethodOrAGlobMatchesByName) {
  EXPECT_TRUE(Parsed("", "mutateRows").Matches("thrift1", "mutateRows"));
  EXPECT_FALSE(Parsed("", "mutateRows").Matches("thrift1", "mutateRow"));
  const MethodPattern glob = Parsed("thrift1", "getRow*");
  EXPECT_TRUE(glob.Matches("thrift1", "getRowWithColumns"));
  EXPECT_FALSE(glob.Matches("thrift1", "get"));
  EXPECT_TRUE(Parsed("", "").Matches("thrift2", "anything"));
  EXPECT_TRUE(Parsed("*", "*").Matches("thrift1", "anything"));
}

TEST(MethodPatternTest, AHappybaseOperationMatchesTheThrift1CallsItMakes) {
  const MethodPattern put = Parsed("", "Table.put");
  EXPECT_TRUE(put.Matches("thrift1", "mutateRows"));
  EXPECT_TRUE(put.Matches("thrift1", "mutateRowsTs"));
  EXPECT_FALSE(put.Matches("thrift1", "mutateRow"));  // happybase never calls it
  EXPECT_FALSE(put.Matches("thrift2", "mutateRows"));
  const MethodPattern scan = Parsed("thrift1", "Table.scan");
  for (const char* m : {"scannerOpenWithScan", "scannerGetList", "scannerClose"}) {
    EXPECT_TRUE(scan.Matches("thrift1", m)) << m;
  }
  EXPECT_EQ(scan.operation_methods().front(), "scannerOpenWithScan");
}

TEST(MethodPatternTest, UnknownNamesAreRefusedWithTheCloseNames) {
  const std::string misspelt = Refusal("", "getRowWithColums");
  EXPECT_NE(misspelt.find("did you mean getRowWithColumns"), std::string::npos) << misspelt;
  const std::string op = Refusal("", "Table.scna");
  EXPECT_NE(op.find("Table.scan"), std::string::npos) << op;
  const std::string glob = Refusal("thrift1", "getRowWithColums*");
  EXPECT_NE(glob.find("no method matches"), std::string::npos) << glob;
  const std::string nothing_close = Refusal("", "qqqqqqqqqqqqqqqqqqqq");
  EXPECT_NE(nothing_close.find("GET /control/methods"), std::string::npos) << nothing_close;
}

TEST(MethodPatternTest, NamesAreCheckedAgainstTheServiceTheRuleNames) {
  // openScanner is Thrift2's; a Thrift1 rule with it would never fire.
  EXPECT_NE(Refusal("thrift1", "openScanner").find("no method"), std::string::npos);
  EXPECT_NE(Refusal("thrift2", "Table.put").find("Thrift1"), std::string::npos);
  EXPECT_NE(Refusal("thrift3", "get").find("thrift1 or thrift2"), std::string::npos);
  std::string error;
  EXPECT_TRUE(ValidServicePattern("thrift*", &error));
  EXPECT_FALSE(ValidServicePattern("http", &error));
}

TEST(MethodPatternTest, CloseNamesIgnoreCaseAndComeBestFirst) {
  const std::vector<std::string> names = {"getRow", "getRows", "getRowTs", "scannerGet"};
  EXPECT_EQ(CloseNames("getrow", names), (std::vector<std::string>{"getRow", "getRows", "getRowTs"}));
  EXPECT_TRUE(CloseNames("deleteTable", names).empty());
  EXPECT_EQ(CloseNames("getRowz", names, 1), std::vector<std::string>{"getRow"});
}

TEST(HappybaseOperationsTest, EveryOperationNamesKnownThrift1MethodsAndIsFoundByName) {
  ASSERT_FALSE(HappybaseOperations().empty());
  for (const HappybaseOperation& op : HappybaseOperations()) {
    EXPECT_EQ(FindHappybaseOperation(op.name), &op) << op.name;
    ASSERT_FALSE(op.methods.empty()) << op.name;
    for (std::string_view m : op.methods) {
      EXPECT_TRUE(admin::IsKnownMethod("thrift1", m)) << op.name << " " << m;
    }
  }
  EXPECT_EQ(FindHappybaseOperation("Table.nope"), nullptr);
}

}  // namespace
}  // namespace hbemu::server::control

namespace hbemu::server::control {
namespace {

TEST(MethodPatternTest, RestCallsAreNamedByMethodAndPathShape) {
  EXPECT_TRUE(Parsed("rest", "PUT /table/row").Matches("rest", "PUT /table/row"));
  const MethodPattern any_row = Parsed("rest", "* /table/row");
  EXPECT_TRUE(any_row.Matches("rest", "DELETE /table/row"));
  EXPECT_FALSE(any_row.Matches("rest", "GET /table/schema"));
  EXPECT_TRUE(Parsed("*", "GET /table/scanner/id").Matches("rest", "GET /table/scanner/id"));
  EXPECT_NE(Refusal("rest", "GET /table/rows").find("GET /table/row"), std::string::npos);
  EXPECT_NE(Refusal("rest", "Table.put").find("Thrift1"), std::string::npos);
  EXPECT_NE(Refusal("thrift1", "GET /table/row").find("no method"), std::string::npos);
  std::string error;
  EXPECT_TRUE(ValidServicePattern("rest", &error));
}

}  // namespace
}  // namespace hbemu::server::control
