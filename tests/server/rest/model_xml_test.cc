#include "server/rest/model_xml.h"

#include <gtest/gtest.h>

#include "tests/server/rest/sample_models.h"

namespace hbemu::server::rest {
namespace {

const std::string kDecl = R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)";

// ----------------------------------------------------------------------------- golden bodies
// Each expected text is the body HBase 2.6.1's gateway answered with Accept: text/xml.

TEST(ModelXmlTest, CellSetMatchesTheGateway) {
  EXPECT_EQ(EncodeCellSetXml(sample::RowR1()),
            kDecl + R"(<CellSet><Row key="cjE="><Cell column="Y2Y6YQ==" timestamp="1000">dmFsdWUx</Cell>)"
                    R"(<Cell column="Y2Y6Yg==" timestamp="1795958651628">PD4mIic=</Cell></Row></CellSet>)");
}

// GET /rmT/multiget?row=r1&row=r2: an empty value is an empty element, not a self-closed one.
TEST(ModelXmlTest, MultiRowCellSetWithAnEmptyValueMatchesTheGateway) {
  CellSetModel model{{RowModel{"r1", {CellModel{"cf:a", 1795958700378, ""},
                                      CellModel{"cf:b", 1795958651628, "<>&\"'"}}},
                      RowModel{"r2", {CellModel{"f2:q", 1795958652045, "raw<v>"}}}}};
  EXPECT_EQ(EncodeCellSetXml(model),
            kDecl + R"(<CellSet><Row key="cjE="><Cell column="Y2Y6YQ==" timestamp="1795958700378"></Cell>)"
                    R"(<Cell column="Y2Y6Yg==" timestamp="1795958651628">PD4mIic=</Cell></Row><Row key="cjI=">)"
                    R"(<Cell column="ZjI6cQ==" timestamp="1795958652045">cmF3PHY+</Cell></Row></CellSet>)");
}

TEST(ModelXmlTest, EmptyListsSelfCloseLikeTheGateway) {
  EXPECT_EQ(EncodeTableListXml({}), kDecl + "<TableList/>");
}

TEST(ModelXmlTest, TableListMatchesTheGateway) {
  EXPECT_EQ(EncodeTableListXml(sample::Tables()),
            kDecl + R"(<TableList><table name="rd1"/><table name="rmT"/><table name="sb_probe1"/></TableList>)");
}

TEST(ModelXmlTest, SchemaMatchesTheGateway) {
  auto family = [](const char* name, const char* versions) {
    return std::string(R"(<ColumnSchema name=")") + name +
           R"(" INDEX_BLOCK_ENCODING="NONE" VERSIONS=")" + versions +
           R"(" KEEP_DELETED_CELLS="FALSE" DATA_BLOCK_ENCODING="NONE" TTL="2147483647")"
           R"( MIN_VERSIONS="0" REPLICATION_SCOPE="0" BLOOMFILTER="ROW" IN_MEMORY="false")"
           R"( COMPRESSION="NONE" BLOCKCACHE="true" BLOCKSIZE="65536"/>)";
  };
  EXPECT_EQ(EncodeTableSchemaXml(sample::SchemaRmT()),
            kDecl + R"(<TableSchema name="rmT" IS_META="false" hbase.store.file-tracker.impl="DEFAULT">)" +
                family("cf", "1") + family("f2", "3") + "</TableSchema>");
}

TEST(ModelXmlTest, RegionAttributesAreAlphabeticalLikeTheGateway) {
  EXPECT_EQ(EncodeTableInfoXml(sample::RegionsRmT()),
            kDecl + R"(<TableInfo name="rmT"><Region endKey="" id="1795958646398" location="127.0.0.1:16120")"
                    R"( name="rmT,,1795958646398.4dfb5e3e146795656024c15acc63ac01." startKey=""/></TableInfo>)");
}

TEST(ModelXmlTest, VersionMatchesTheGateway) {
  EXPECT_EQ(EncodeVersionXml(sample::Version()),
            kDecl + R"(<Version JVM="Debian 17.0.15-17.0.15+6-Debian-1deb12u1" Jersey="")"
                    R"( OS="Linux 6.18.44-fc-v857 amd64" REST="0.0.3")"
                    R"( Revision="7ed50b4dd742269a78875fb32112215f831284ff")"
                    R"( Server="jetty/9.4.56.v20240826" Version="2.6.1-hadoop3"/>)");
  EXPECT_EQ(EncodeStorageClusterVersionXml({"2.6.1-hadoop3"}),
            kDecl + R"(<ClusterVersion Version="2.6.1-hadoop3"/>)");
}

// The gateway's layout; the figures are the sample's (they change from one capture to the next).
TEST(ModelXmlTest, StatusMatchesTheGatewaysLayout) {
  EXPECT_EQ(EncodeStorageClusterStatusXml(sample::Status()),
            kDecl + R"(<ClusterStatus averageLoad="4.0" regions="4" requests="72"><DeadNodes/><LiveNodes>)"
                    R"(<Node heapSizeMB="100" maxHeapSizeMB="2048" name="127.0.0.1:16120" requests="82")"
                    R"( startCode="1795958465016"><Region currentCompactedKVs="0" memStoreSizeMB="1")"
                    R"( name="aGJhc2U6bWV0YSwsMQ==" readRequestsCount="22" rootIndexSizeKB="0")"
                    R"( storefileIndexSizeKB="0" storefileSizeMB="0" storefiles="0" stores="3")"
                    R"( totalCompactingKVs="0" totalStaticBloomSizeKB="0" totalStaticIndexSizeKB="0")"
                    R"( writeRequestsCount="24"/></Node></LiveNodes></ClusterStatus>)");
}

TEST(ModelXmlTest, NamespacesMatchTheGateway) {
  EXPECT_EQ(EncodeNamespacesXml(sample::Namespaces()),
            kDecl + "<Namespaces><Namespace>default</Namespace><Namespace>hbase</Namespace></Namespaces>");
  EXPECT_EQ(EncodeNamespacesInstanceXml(sample::NamespaceRmns()),
            kDecl + "<NamespaceProperties><properties><entry><key>a</key><value>1</value></entry>"
                    "<entry><key>b</key><value>2</value></entry></properties></NamespaceProperties>");
  EXPECT_EQ(EncodeNamespacesInstanceXml({"default", {}}), kDecl + "<NamespaceProperties/>");
}

TEST(ModelXmlTest, MarkupInNamesIsEscaped) {
  EXPECT_EQ(EncodeTableListXml({{{"a&<\">"}}}),
            kDecl + R"(<TableList><table name="a&amp;&lt;&quot;&gt;"/></TableList>)");
  EXPECT_EQ(EncodeNamespacesXml({{"a&<\">"}}),
            kDecl + R"(<Namespaces><Namespace>a&amp;&lt;&quot;&gt;</Namespace></Namespaces>)");
  // The gateway's answer for a namespace property holding <&"\n\u00e9\x01/>' .
  EXPECT_EQ(EncodeNamespacesInstanceXml({"rmesc", {{"k", "<&\"\n\xc3\xa9\x01/>'"}}}),
            kDecl + "<NamespaceProperties><properties><entry><key>k</key><value>"
                    "&lt;&amp;&quot;\n\xc3\xa9\x01/&gt;'</value></entry></properties></NamespaceProperties>");
}

// ----------------------------------------------------------------------------- request bodies

TEST(ModelXmlTest, CellSetRoundTrips) {
  CellSetModel decoded;
  ASSERT_TRUE(DecodeCellSetXml(EncodeCellSetXml(sample::RowR1()), &decoded).ok());
  ASSERT_EQ(decoded.rows.size(), 1u);
  EXPECT_EQ(decoded.rows[0].key, "r1");
  ASSERT_EQ(decoded.rows[0].cells.size(), 2u);
  EXPECT_EQ(decoded.rows[0].cells[0].timestamp, 1000);
  EXPECT_EQ(decoded.rows[0].cells[1].value, "<>&\"'");
}

TEST(ModelXmlTest, PrettyPrintedBodiesDecode) {
  CellSetModel decoded;
  ASSERT_TRUE(DecodeCellSetXml("<?xml version=\"1.0\"?>\n<CellSet>\n  <!-- one row -->\n  <Row key=\"cjE=\">\n"
                               "    <Cell column=\"Y2Y6YQ==\" timestamp=\"5\">\n      dmFsdWUx\n    </Cell>\n"
                               "  </Row>\n</CellSet>\n",
                               &decoded)
                  .ok());
  ASSERT_EQ(decoded.rows.size(), 1u);
  ASSERT_EQ(decoded.rows[0].cells.size(), 1u);
  EXPECT_EQ(decoded.rows[0].cells[0].value, "value1");
  EXPECT_EQ(decoded.rows[0].cells[0].timestamp, 5);
}

// The real gateway accepts these (200): JAXB ignores what it does not know and reads base64
// leniently ("!!" becomes an empty value).
TEST(ModelXmlTest, UnknownMarkupAndForeignBase64AreIgnoredLikeJaxb) {
  CellSetModel decoded;
  ASSERT_TRUE(DecodeCellSetXml(R"(<CellSet><Row key="cjE=" bogus="1"><Cell column="Y2Y6YQ==" x="y">dg==</Cell><Foo/></Row></CellSet>)",
                               &decoded)
                  .ok());
  ASSERT_EQ(decoded.rows[0].cells.size(), 1u);
  EXPECT_EQ(decoded.rows[0].cells[0].value, "v");
  ASSERT_TRUE(DecodeCellSetXml(R"(<CellSet><Row key="cjE="><Cell column="Y2Y6YQ==">!!</Cell></Row></CellSet>)",
                               &decoded)
                  .ok());
  EXPECT_EQ(decoded.rows[0].cells[0].value, "");
  EXPECT_FALSE(decoded.rows[0].cells[0].timestamp.has_value());
}

// Status codes the real gateway answers for each body.
TEST(ModelXmlTest, MalformedBodiesGiveTheGatewaysStatus) {
  CellSetModel decoded;
  EXPECT_EQ(DecodeCellSetXml(R"(<CellSet><Row key="cjE="><Cell column="Y2Y6YQ==">zz)", &decoded).http_status(), 400);
  EXPECT_EQ(DecodeCellSetXml("<Other/>", &decoded).http_status(), 400);
  EXPECT_EQ(DecodeCellSetXml(R"(<!DOCTYPE x [<!ENTITY a "b">]><CellSet/>)", &decoded).http_status(), 400);
  BodyStatus s = DecodeCellSetXml(
      R"(<CellSet><Row key="cjE="><Cell column="Y2Y6YQ==" timestamp="abc">dg==</Cell></Row></CellSet>)", &decoded);
  EXPECT_EQ(s.http_status(), 500);
  EXPECT_NE(s.message().find("timestamp"), std::string::npos) << s.message();
}

TEST(ModelXmlTest, DeepAndHugeBodiesAreRefusedBeforeParsing) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  CellSetModel decoded;
  BodyStatus s = DecodeCellSetXml("<CellSet>" + deep, &decoded);
  EXPECT_EQ(s.http_status(), 400);
  EXPECT_NE(s.message().find("nests deeper"), std::string::npos) << s.message();

  std::string many = "<CellSet>";
  for (int i = 0; i < 5000; ++i) many += "<Row/>";
  many += "</CellSet>";
  BodyBounds bounds;
  bounds.max_elements = 1000;
  s = DecodeCellSetXml(many, &decoded, bounds);
  EXPECT_EQ(s.http_status(), 400);
  EXPECT_NE(s.message().find("more elements"), std::string::npos) << s.message();
}

TEST(ModelXmlTest, ShapeCheckReadsQuotedAttributeValues) {
  // '>' inside attribute values does not end the tag: a hundred self-closed columns stay flat.
  std::string body = R"(<TableSchema name="t">)";
  for (int i = 0; i < 100; ++i) body += R"(<ColumnSchema name="f)" + std::to_string(i) + R"(" X="a>b"/>)";
  body += "</TableSchema>";
  TableSchemaModel schema;
  ASSERT_TRUE(DecodeTableSchemaXml(body, &schema).ok());
  ASSERT_EQ(schema.columns.size(), 100u);
  EXPECT_EQ(schema.columns[99].attrs, (AttributeList{{"X", "a>b"}}));
}

TEST(ModelXmlTest, UnterminatedTagsAreOnePassNotQuadratic) {
  // Four million '<' with no '>': the shape check must not rescan the rest for each one.
  const std::string body(4 << 20, '<');
  CellSetModel decoded;
  BodyStatus s = DecodeCellSetXml(body, &decoded);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.http_status(), 400);
}

TEST(ModelXmlTest, SchemaBodyKeepsEveryAttribute) {
  TableSchemaModel schema;
  ASSERT_TRUE(DecodeTableSchemaXml(
                  R"(<?xml version="1.0" encoding="UTF-8"?><TableSchema name="rmT" READONLY="false">)"
                  R"(<ColumnSchema name="cf"/><ColumnSchema name="f2" VERSIONS="3"/></TableSchema>)",
                  &schema)
                  .ok());
  EXPECT_EQ(schema.name, "rmT");
  EXPECT_EQ(schema.attrs, (AttributeList{{"READONLY", "false"}}));
  ASSERT_EQ(schema.columns.size(), 2u);
  EXPECT_EQ(schema.columns[1].name, "f2");
  EXPECT_EQ(schema.columns[1].attrs, (AttributeList{{"VERSIONS", "3"}}));
}

TEST(ModelXmlTest, NamespacePropertiesBody) {
  NamespacesInstanceModel ns;
  ASSERT_TRUE(DecodeNamespacesInstanceXml(
                  "<NamespaceProperties><properties><entry><key>b</key><value>2</value></entry>"
                  "<entry><key>a</key><value>1</value></entry></properties></NamespaceProperties>",
                  &ns)
                  .ok());
  EXPECT_EQ(ns.properties, (std::vector<std::pair<std::string, std::string>>{{"b", "2"}, {"a", "1"}}));
}

TEST(ModelXmlTest, ScannerBody) {
  ScannerModel scanner;
  ASSERT_TRUE(DecodeScannerXml(
                  R"(<Scanner batch="5" startRow="cjE=" endTime="99" cacheBlocks="false"><column>Y2Y=</column>)"
                  R"(<filter>{"type":"KeyOnlyFilter"}</filter><labels>x</labels></Scanner>)",
                  &scanner)
                  .ok());
  EXPECT_EQ(scanner.batch, 5);
  EXPECT_EQ(scanner.start_row, "r1");
  EXPECT_EQ(scanner.end_time, 99);
  EXPECT_FALSE(scanner.cache_blocks);
  EXPECT_EQ(scanner.columns, (std::vector<std::string>{"cf"}));
  EXPECT_EQ(scanner.filter, std::string(R"({"type":"KeyOnlyFilter"})"));
  EXPECT_EQ(scanner.labels, (std::vector<std::string>{"x"}));
  // The gateway answers 500 to batch="abc".
  EXPECT_EQ(DecodeScannerXml(R"(<Scanner batch="abc"/>)", &scanner).http_status(), 500);
}

}  // namespace
}  // namespace hbemu::server::rest
