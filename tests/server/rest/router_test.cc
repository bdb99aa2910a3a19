#include "server/rest/router.h"

#include <gtest/gtest.h>

#include "server/rest/row_spec.h"

namespace hbemu::server::rest {
namespace {

TEST(RestRouterTest, RootPathsNameTheClusterResources) {
  EXPECT_EQ(ParseTarget("/").endpoint, Endpoint::kTables);
  EXPECT_EQ(ParseTarget("/version").endpoint, Endpoint::kVersion);
  EXPECT_EQ(ParseTarget("/version/cluster").endpoint, Endpoint::kClusterVersion);
  EXPECT_EQ(ParseTarget("/status/cluster").endpoint, Endpoint::kClusterStatus);
  EXPECT_EQ(ParseTarget("/namespaces").endpoint, Endpoint::kNamespaces);
}

TEST(RestRouterTest, NamespacePathsCarryTheDecodedName) {
  Route route = ParseTarget("/namespaces/n%73");
  EXPECT_EQ(route.endpoint, Endpoint::kNamespace);
  EXPECT_EQ(route.name_space, "ns");
  EXPECT_EQ(ParseTarget("/namespaces/ns/tables").endpoint, Endpoint::kNamespaceTables);
  EXPECT_EQ(ParseTarget("/namespaces/ns/other").endpoint, Endpoint::kUnknown);
}

TEST(RestRouterTest, TablePathsReachSchemaRegionsExistsMultigetScansAndRows) {
  EXPECT_EQ(ParseTarget("/t/schema").endpoint, Endpoint::kSchema);
  EXPECT_EQ(ParseTarget("/t/regions").endpoint, Endpoint::kRegions);
  EXPECT_EQ(ParseTarget("/t/exists").endpoint, Endpoint::kExists);
  EXPECT_EQ(ParseTarget("/t/multiget?row=a").endpoint, Endpoint::kMultiget);
  EXPECT_EQ(ParseTarget("/t/scanner").endpoint, Endpoint::kScanners);
  Route scanner = ParseTarget("/t/scanner/123abc");
  EXPECT_EQ(scanner.endpoint, Endpoint::kScanner);
  EXPECT_EQ(scanner.scanner_id, "123abc");
  EXPECT_EQ(ParseTarget("/t/pre*").endpoint, Endpoint::kTableScan);
  Route row = ParseTarget("/ns%3At/r%2F1/f:a?v=2");
  EXPECT_EQ(row.endpoint, Endpoint::kRow);
  EXPECT_EQ(row.table, "ns:t");
  EXPECT_EQ(row.row_spec, "r%2F1/f:a");
  ASSERT_NE(row.Param("v"), nullptr);
  EXPECT_EQ(*row.Param("v"), "2");
  EXPECT_EQ(ParseTarget("/t").endpoint, Endpoint::kUnknown);
}

TEST(RestRouterTest, MalformedEscapesRouteNowhere) {
  EXPECT_EQ(ParseTarget("/t%zz/row").endpoint, Endpoint::kUnknown);
  EXPECT_EQ(ParseTarget("/t/row?x=%4").endpoint, Endpoint::kUnknown);
}

TEST(RestRouterTest, QueryValuesAreDecodedWithPlusAsSpaceAndRepeatsKept) {
  Route route = ParseTarget("/t/multiget?row=a+b&row=c%26d");
  EXPECT_EQ(route.Params("row"), (std::vector<std::string>{"a b", "c&d"}));
}

TEST(RestRowSpecTest, RowColumnsAndOneTimestampAreSplitBeforeDecoding) {
  Route route = ParseTarget("/t/r%2F1/f:a,g/42?v=3");
  RowSpec spec;
  std::string error;
  ASSERT_TRUE(ParseRowSpec(route, false, &spec, &error)) << error;
  EXPECT_EQ(spec.row, "r/1");
  EXPECT_EQ(spec.columns, (std::vector<std::string>{"f:a", "g"}));
  EXPECT_TRUE(spec.has_timestamp);
  EXPECT_EQ(spec.timestamp, 42);
  EXPECT_EQ(spec.max_versions, 3);
}

TEST(RestRowSpecTest, TimeRangeAndSuffixGlobAndBase64Keys) {
  RowSpec range;
  std::string error;
  ASSERT_TRUE(ParseRowSpec(ParseTarget("/t/r/f/10,20"), false, &range, &error));
  EXPECT_FALSE(range.has_timestamp);
  EXPECT_EQ(range.start_time, 10);
  EXPECT_EQ(range.end_time, 20);
  RowSpec glob;
  ASSERT_TRUE(ParseRowSpec(ParseTarget("/t/pre*/f"), false, &glob, &error));
  EXPECT_TRUE(glob.prefix);
  EXPECT_EQ(glob.row, "pre");
  RowSpec b64;
  ASSERT_TRUE(ParseRowSpec(ParseTarget("/t/cjE="), true, &b64, &error));
  EXPECT_EQ(b64.row, "r1");
  RowSpec bad;
  EXPECT_FALSE(ParseRowSpec(ParseTarget("/t/r/f/notanumber"), false, &bad, &error));
  EXPECT_FALSE(ParseRowSpec(ParseTarget("/t/r?v=0"), false, &bad, &error));
}

}  // namespace
}  // namespace hbemu::server::rest
