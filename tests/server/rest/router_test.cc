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
  // A '*' inside a row path is a glob only when columns follow it.
  EXPECT_EQ(ParseTarget("/t/a*/f").endpoint, Endpoint::kRow);
  EXPECT_EQ(ParseTarget("/t/a*b").endpoint, Endpoint::kUnknown);
  EXPECT_EQ(ParseTarget("/t/a*/").endpoint, Endpoint::kUnknown);
}

TEST(RestRouterTest, MalformedEscapesRouteNowhere) {
  EXPECT_EQ(ParseTarget("/t%zz/row").endpoint, Endpoint::kUnknown);
  EXPECT_EQ(ParseTarget("/t/row?x=%4").endpoint, Endpoint::kUnknown);
}

TEST(RestRouterTest, QueryValuesAreDecodedWithPlusAsSpaceAndRepeatsKept) {
  Route route = ParseTarget("/t/multiget?row=a+b&row=c%26d");
  EXPECT_EQ(route.Params("row"), (std::vector<std::string>{"a b", "c&d"}));
}

}  // namespace
}  // namespace hbemu::server::rest
