#include "server/rest/model_json.h"

#include <gtest/gtest.h>

#include "tests/server/rest/sample_models.h"

namespace hbemu::server::rest {
namespace {

// ----------------------------------------------------------------------------- golden bodies
// Each expected text is the body HBase 2.6.1's gateway answered with Accept: application/json.

TEST(ModelJsonTest, CellSetMatchesTheGateway) {
  EXPECT_EQ(EncodeCellSetJson(sample::RowR1()),
            R"({"Row":[{"key":"cjE=","Cell":[{"column":"Y2Y6YQ==","timestamp":1000,"$":"dmFsdWUx"},)"
            R"({"column":"Y2Y6Yg==","timestamp":1795958651628,"$":"PD4mIic="}]}]})");
}

// A scanner's batch from the gateway: several rows, an empty value as "".
TEST(ModelJsonTest, MultiRowCellSetWithAnEmptyValueMatchesTheGateway) {
  CellSetModel model{{RowModel{"r1", {CellModel{"cf:a", 1795958700378, ""}}},
                      RowModel{"r2", {CellModel{"f2:q", 1795958652045, "raw<v>"}}}}};
  EXPECT_EQ(EncodeCellSetJson(model),
            R"({"Row":[{"key":"cjE=","Cell":[{"column":"Y2Y6YQ==","timestamp":1795958700378,"$":""}]},)"
            R"({"key":"cjI=","Cell":[{"column":"ZjI6cQ==","timestamp":1795958652045,"$":"cmF3PHY+"}]}]})");
}

TEST(ModelJsonTest, TableListMatchesTheGateway) {
  EXPECT_EQ(EncodeTableListJson(sample::Tables()),
            R"({"table":[{"name":"rd1"},{"name":"rmT"},{"name":"sb_probe1"}]})");
}

TEST(ModelJsonTest, SchemaWritesFamiliesBeforeTableAttributesLikeTheGateway) {
  const std::string family =
      R"("INDEX_BLOCK_ENCODING":"NONE","VERSIONS":"%","KEEP_DELETED_CELLS":"FALSE",)"
      R"("DATA_BLOCK_ENCODING":"NONE","TTL":"2147483647","MIN_VERSIONS":"0","REPLICATION_SCOPE":"0",)"
      R"("BLOOMFILTER":"ROW","IN_MEMORY":"false","COMPRESSION":"NONE","BLOCKCACHE":"true",)"
      R"("BLOCKSIZE":"65536")";
  auto with_versions = [&](const char* v) {
    std::string s = family;
    s.replace(s.find('%'), 1, v);
    return s;
  };
  EXPECT_EQ(EncodeTableSchemaJson(sample::SchemaRmT()),
            R"({"name":"rmT","ColumnSchema":[{"name":"cf",)" + with_versions("1") +
                R"(},{"name":"f2",)" + with_versions("3") +
                R"(}],"IS_META":"false","hbase.store.file-tracker.impl":"DEFAULT"})");
}

TEST(ModelJsonTest, RegionsMatchTheGateway) {
  EXPECT_EQ(EncodeTableInfoJson(sample::RegionsRmT()),
            R"({"name":"rmT","Region":[{"id":1795958646398,"startKey":"","endKey":"",)"
            R"("location":"127.0.0.1:16120",)"
            R"("name":"rmT,,1795958646398.4dfb5e3e146795656024c15acc63ac01."}]})");
}

TEST(ModelJsonTest, VersionKeepsTheGatewaysKeyOrder) {
  EXPECT_EQ(EncodeVersionJson(sample::Version()),
            R"({"Server":"jetty/9.4.56.v20240826","Jersey":"","Version":"2.6.1-hadoop3",)"
            R"("Revision":"7ed50b4dd742269a78875fb32112215f831284ff","REST":"0.0.3",)"
            R"("JVM":"Debian 17.0.15-17.0.15+6-Debian-1deb12u1","OS":"Linux 6.18.44-fc-v857 amd64"})");
}

TEST(ModelJsonTest, ClusterVersionMatchesTheGateway) {
  EXPECT_EQ(EncodeStorageClusterVersionJson({"2.6.1-hadoop3"}), R"({"Version":"2.6.1-hadoop3"})");
}

TEST(ModelJsonTest, StatusWritesMemStoreSizeLastAndTheLoadAsAJavaDouble) {
  EXPECT_EQ(EncodeStorageClusterStatusJson(sample::Status()),
            R"({"LiveNodes":[{"name":"127.0.0.1:16120","startCode":1795958465016,"requests":82,)"
            R"("heapSizeMB":100,"maxHeapSizeMB":2048,"Region":[{"name":"aGJhc2U6bWV0YSwsMQ==",)"
            R"("stores":3,"storefiles":0,"storefileSizeMB":0,"storefileIndexSizeKB":0,)"
            R"("readRequestsCount":22,"writeRequestsCount":24,"rootIndexSizeKB":0,)"
            R"("totalStaticIndexSizeKB":0,"totalStaticBloomSizeKB":0,"totalCompactingKVs":0,)"
            R"("currentCompactedKVs":0,"memStoreSizeMB":1}]}],"DeadNodes":[],"regions":4,)"
            R"("requests":72,"averageLoad":4.0})");
}

TEST(ModelJsonTest, NamespacesMatchTheGateway) {
  EXPECT_EQ(EncodeNamespacesJson(sample::Namespaces()), R"({"Namespace":["default","hbase"]})");
  EXPECT_EQ(EncodeNamespacesInstanceJson(sample::NamespaceRmns()),
            R"({"properties":{"a":"1","b":"2"}})");
  EXPECT_EQ(EncodeNamespacesInstanceJson({"default", {}}), R"({"properties":null})");
}

TEST(ModelJsonTest, EscapingMatchesTheGateway) {
  // The gateway's answer for a namespace property holding <&"\n\u00e9\x01/>' .
  EXPECT_EQ(EncodeNamespacesInstanceJson({"rmesc", {{"k", "<&\"\n\xc3\xa9\x01/>'"}}}),
            "{\"properties\":{\"k\":\"<&\\\"\\n\xc3\xa9\\u0001/>'\"}}");
  EXPECT_EQ(EncodeTableListJson({}), R"({"table":[]})");
}

TEST(ModelJsonTest, ControlCharactersAreEscapedWithUpperCaseHex) {
  EXPECT_EQ(EncodeNamespacesJson({{std::string("a\x1f\"\\\n", 5)}}),
            R"({"Namespace":["a\u001F\"\\\n"]})");
}

// ----------------------------------------------------------------------------- request bodies

TEST(ModelJsonTest, CellSetRoundTrips) {
  CellSetModel decoded;
  ASSERT_TRUE(DecodeCellSetJson(EncodeCellSetJson(sample::RowR1()), &decoded).ok());
  ASSERT_EQ(decoded.rows.size(), 1u);
  EXPECT_EQ(decoded.rows[0].key, "r1");
  ASSERT_EQ(decoded.rows[0].cells.size(), 2u);
  EXPECT_EQ(decoded.rows[0].cells[1].column, "cf:b");
  EXPECT_EQ(decoded.rows[0].cells[1].timestamp, 1795958651628);
  EXPECT_EQ(decoded.rows[0].cells[1].value, "<>&\"'");
}

TEST(ModelJsonTest, CellWithoutTimestampLeavesItUnset) {
  CellSetModel decoded;
  ASSERT_TRUE(DecodeCellSetJson(R"({"Row":[{"key":"cjE=","Cell":[{"column":"Y2Y6YQ==","$":"dg=="}]}]})",
                                &decoded)
                  .ok());
  EXPECT_FALSE(decoded.rows[0].cells[0].timestamp.has_value());
  EXPECT_EQ(decoded.rows[0].cells[0].value, "v");
}

// Each body below is one the real gateway answers with 500.
TEST(ModelJsonTest, MalformedCellSetsGiveTheGatewaysServerError) {
  const char* bodies[] = {
      R"({"Row":[)",
      R"([])",
      R"({"Row":[{"key":"cjE=","Cell":[{"column":"Y2Y6YQ==","$":"!!"}]}]})",
      R"({"Row":[{"key":"cjE=","Cell":[{"column":"Y2Y6YQ==","timestamp":"abc","$":"dg=="}]}]})",
      R"({"Row":[{"key":"cjE=","Cell":[{"column":"Y2Y6YQ==","bogus":1,"$":"dg=="}]}]})",
      R"({"Row":[{"key":"cjE","Cell":[]}]})",
  };
  for (const char* body : bodies) {
    CellSetModel decoded;
    BodyStatus s = DecodeCellSetJson(body, &decoded);
    EXPECT_EQ(s.http_status(), 500) << body;
    EXPECT_FALSE(s.message().empty()) << body;
  }
}

TEST(ModelJsonTest, ErrorsNameTheBadField) {
  CellSetModel decoded;
  EXPECT_EQ(DecodeCellSetJson(R"({"Row":[{"key":"cjE=","bogus":1}]})", &decoded).message(),
            "unrecognized field \"bogus\" in Row");
  EXPECT_EQ(DecodeCellSetJson(R"({"Row":[{"key":"!!!!"}]})", &decoded).message(),
            "field \"key\" is not valid base64");
}

TEST(ModelJsonTest, DeepNestingIsRefusedBeforeParsing) {
  const std::string deep = "{\"Row\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  CellSetModel decoded;
  BodyStatus s = DecodeCellSetJson(deep, &decoded);
  EXPECT_EQ(s.http_status(), 500);
  EXPECT_NE(s.message().find("nests deeper"), std::string::npos) << s.message();
}

TEST(ModelJsonTest, HugeElementCountsAreRefusedBeforeParsing) {
  std::string many = "{\"Row\":[";
  for (int i = 0; i < 5000; ++i) many += "{},";
  many += "{}]}";
  CellSetModel decoded;
  BodyBounds bounds;
  bounds.max_elements = 1000;
  BodyStatus s = DecodeCellSetJson(many, &decoded, bounds);
  EXPECT_EQ(s.http_status(), 500);
  EXPECT_NE(s.message().find("more values"), std::string::npos) << s.message();
}

TEST(ModelJsonTest, SchemaBodyKeepsUnknownKeysAsAttributes) {
  TableSchemaModel schema;
  ASSERT_TRUE(DecodeTableSchemaJson(
                  R"({"name":"t","IS_META":"false","ColumnSchema":[{"name":"cf","VERSIONS":3}]})",
                  &schema)
                  .ok());
  EXPECT_EQ(schema.name, "t");
  ASSERT_EQ(schema.attrs.size(), 1u);
  EXPECT_EQ(schema.attrs[0].first, "IS_META");
  ASSERT_EQ(schema.columns.size(), 1u);
  EXPECT_EQ(schema.columns[0].name, "cf");
  ASSERT_NE(FindAttribute(schema.columns[0].attrs, "VERSIONS"), nullptr);
  EXPECT_EQ(*FindAttribute(schema.columns[0].attrs, "VERSIONS"), "3");
}

// The gateway creates these tables (201): any JSON value is an attribute, kept as Java prints
// it; a ColumnSchema that is no list is its 500.
TEST(ModelJsonTest, SchemaAttributesTakeAnyJsonValue) {
  TableSchemaModel schema;
  ASSERT_TRUE(DecodeTableSchemaJson(
                  R"({"name":"rmJ","foo":{"b":[true,"x"],"a":1},"ColumnSchema":[{"name":"cf","IN_MEMORY":true}]})",
                  &schema)
                  .ok());
  EXPECT_EQ(schema.attrs, (AttributeList{{"foo", "{b=[true, x], a=1}"}}));
  EXPECT_EQ(schema.columns[0].attrs, (AttributeList{{"IN_MEMORY", "true"}}));
  EXPECT_EQ(DecodeTableSchemaJson(R"({"name":"rmJ3","ColumnSchema":{"name":"cf"}})", &schema).http_status(), 500);
}

TEST(ModelJsonTest, NamespacePropertiesBody) {
  NamespacesInstanceModel ns;
  ns.namespace_name = "x";
  ASSERT_TRUE(DecodeNamespacesInstanceJson(R"({"properties":{"b":"2","a":"1"}})", &ns).ok());
  EXPECT_EQ(ns.namespace_name, "x");
  // Document order kept; the door sorts when HBase does.
  EXPECT_EQ(ns.properties, (std::vector<std::pair<std::string, std::string>>{{"b", "2"}, {"a", "1"}}));
  // The gateway answers 500 to {"Properties": ...} (the key is lower-case).
  EXPECT_EQ(DecodeNamespacesInstanceJson(R"({"Properties":{"b":"2"}})", &ns).http_status(), 500);
}

TEST(ModelJsonTest, ScannerBodyReadsEveryField) {
  ScannerModel scanner;
  ASSERT_TRUE(DecodeScannerJson(
                  R"({"batch":10,"startRow":"cjE=","endRow":"cjk=","column":["Y2Y=","ZjI6cQ=="],)"
                  R"("caching":5,"startTime":1,"endTime":2000,"maxVersions":2,"cacheBlocks":false,)"
                  R"("labels":["secret"],"filter":"{\"type\":\"KeyOnlyFilter\"}"})",
                  &scanner)
                  .ok());
  EXPECT_EQ(scanner.batch, 10);
  EXPECT_EQ(scanner.start_row, "r1");
  EXPECT_EQ(scanner.end_row, "r9");
  EXPECT_EQ(scanner.columns, (std::vector<std::string>{"cf", "f2:q"}));
  EXPECT_EQ(scanner.caching, 5);
  EXPECT_EQ(scanner.start_time, 1);
  EXPECT_EQ(scanner.end_time, 2000);
  EXPECT_EQ(scanner.max_versions, 2);
  EXPECT_FALSE(scanner.cache_blocks);
  EXPECT_EQ(scanner.labels, (std::vector<std::string>{"secret"}));
  EXPECT_EQ(scanner.filter, std::string(R"({"type":"KeyOnlyFilter"})"));
}

TEST(ModelJsonTest, ScannerDefaultsAreHBases) {
  ScannerModel scanner;
  ASSERT_TRUE(DecodeScannerJson("{}", &scanner).ok());
  EXPECT_EQ(scanner.batch, 2147483647);
  EXPECT_EQ(scanner.caching, -1);
  EXPECT_EQ(scanner.end_time, INT64_MAX);
  EXPECT_EQ(scanner.max_versions, 2147483647);
  EXPECT_TRUE(scanner.cache_blocks);
  EXPECT_FALSE(scanner.filter.has_value());
}

// The gateway accepts (201) a fractional batch and a boolean written as a string.
TEST(ModelJsonTest, ScannerBodyCoercesLikeJackson) {
  ScannerModel scanner;
  ASSERT_TRUE(DecodeScannerJson(R"({"batch":1.5,"cacheBlocks":"false","caching":"7"})", &scanner).ok());
  EXPECT_EQ(scanner.batch, 1);
  EXPECT_FALSE(scanner.cache_blocks);
  EXPECT_EQ(scanner.caching, 7);
}

// The gateway answers 500 to an unknown scanner property, a batch that is no number, a
// column list given as one string and a filter given as an object.
TEST(ModelJsonTest, ScannerBodyErrors) {
  ScannerModel scanner;
  EXPECT_EQ(DecodeScannerJson(R"({"column":"Y2Y="})", &scanner).http_status(), 500);
  EXPECT_EQ(DecodeScannerJson(R"({"filter":{"type":"KeyOnlyFilter"}})", &scanner).http_status(), 500);
  EXPECT_EQ(DecodeScannerJson(R"({"batch":10,"bogus":1})", &scanner).http_status(), 500);
  EXPECT_EQ(DecodeScannerJson(R"({"batch":"abc"})", &scanner).http_status(), 500);
  EXPECT_EQ(DecodeScannerJson(R"({"batch":4294967296})", &scanner).http_status(), 500);
}

}  // namespace
}  // namespace hbemu::server::rest
