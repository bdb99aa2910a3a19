#include "server/rest/model_protobuf.h"

#include <gtest/gtest.h>

#include "tests/server/rest/sample_models.h"

namespace hbemu::server::rest {
namespace {

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out.push_back(kDigits[(static_cast<unsigned char>(c) >> 4) & 15]);
    out.push_back(kDigits[static_cast<unsigned char>(c) & 15]);
  }
  return out;
}

std::string Unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

// ----------------------------------------------------------------------------- golden bodies
// Each expected hex string is the body HBase 2.6.1's gateway answered with
// Accept: application/x-protobuf.

TEST(ModelProtobufTest, CellSetMatchesTheGateway) {
  EXPECT_EQ(Hex(EncodeCellSetProtobuf(sample::RowR1())),
            "0a2d0a0272311211120463663a6118e807220676616c7565311214120463663a6218ecf5e8bba23422053c3e262227");
}

TEST(ModelProtobufTest, CellWithoutTimestampOmitsIt) {
  EXPECT_EQ(Hex(EncodeCellSetProtobuf({{RowModel{"r", {CellModel{"f:q", std::nullopt, "v"}}}}})),
            "0a0d0a017212081203663a71220176");
}

TEST(ModelProtobufTest, TableListMatchesTheGateway) {
  EXPECT_EQ(Hex(EncodeTableListProtobuf(sample::Tables())), "0a037264310a03726d540a0973625f70726f626531");
}

// Each family carries ttl (18 ffffffff07), maxVersions (20 01 / 20 03) and compression
// (2a 044e4f4e45) after its attributes; the table has no readOnly (no READONLY attribute).
TEST(ModelProtobufTest, SchemaCopiesTtlVersionsAndCompressionLikeTheGateway) {
  EXPECT_EQ(Hex(EncodeTableSchemaProtobuf(sample::SchemaRmT())),
            "0a03726d5412100a0749535f4d455441120566616c736512280a1d68626173652e73746f72652e66696c652d74"
            "7261636b65722e696d706c120744454641554c541a9c020a026366121c0a14494e4445585f424c4f434b5f454e"
            "434f44494e4712044e4f4e45120d0a0856455253494f4e53120131121b0a124b4545505f44454c455445445f43"
            "454c4c53120546414c5345121b0a13444154415f424c4f434b5f454e434f44494e4712044e4f4e4512110a0354"
            "544c120a3231343734383336343712110a0c4d494e5f56455253494f4e5312013012160a115245504c49434154"
            "494f4e5f53434f504512013012120a0b424c4f4f4d46494c5445521203524f5712120a09494e5f4d454d4f5259"
            "120566616c736512130a0b434f4d5052455353494f4e12044e4f4e4512120a0a424c4f434b4341434845120474"
            "72756512120a09424c4f434b53495a451205363535333618ffffffff0720012a044e4f4e451a9c020a02663212"
            "1c0a14494e4445585f424c4f434b5f454e434f44494e4712044e4f4e45120d0a0856455253494f4e5312013312"
            "1b0a124b4545505f44454c455445445f43454c4c53120546414c5345121b0a13444154415f424c4f434b5f454e"
            "434f44494e4712044e4f4e4512110a0354544c120a3231343734383336343712110a0c4d494e5f56455253494f"
            "4e5312013012160a115245504c49434154494f4e5f53434f504512013012120a0b424c4f4f4d46494c54455212"
            "03524f5712120a09494e5f4d454d4f5259120566616c736512130a0b434f4d5052455353494f4e12044e4f4e45"
            "12120a0a424c4f434b434143484512047472756512120a09424c4f434b53495a451205363535333618ffffffff"
            "0720032a044e4f4e45");
}

// The gateway's answer for a table created with READONLY="true" ends with readOnly (field 5).
TEST(ModelProtobufTest, ReadOnlyAttributeIsCopiedIntoItsField) {
  TableSchemaModel schema{"t", {{"IS_META", "false"}, {"READONLY", "true"}}, {}};
  EXPECT_EQ(Hex(EncodeTableSchemaProtobuf(schema)).substr(Hex(EncodeTableSchemaProtobuf(schema)).size() - 4), "2801");
  TableSchemaModel decoded;
  ASSERT_TRUE(DecodeTableSchemaProtobuf(EncodeTableSchemaProtobuf(schema), &decoded).ok());
  EXPECT_EQ(decoded.attrs, schema.attrs);
}

TEST(ModelProtobufTest, RegionsMatchTheGateway) {
  EXPECT_EQ(Hex(EncodeTableInfoProtobuf(sample::RegionsRmT())),
            "0a03726d5412520a34726d542c2c313739353935383634363339382e3464666235653365313436373935363536"
            "3032346331356163633633616330312e12001a0020fecce8bba2342a0f3132372e302e302e313a3136313230");
}

TEST(ModelProtobufTest, VersionSetsEveryFieldEvenEmptyOnes) {
  EXPECT_EQ(Hex(EncodeVersionProtobuf(sample::Version())),
            "0a05302e302e33122844656269616e2031372e302e31352d31372e302e31352b362d44656269616e2d31646562"
            "313275311a1b4c696e757820362e31382e34342d66632d7638353720616d64363422166a657474792f392e342e"
            "35362e7632303234303832362a00320d322e362e312d6861646f6f70333a283765643530623464643734323236"
            "3961373838373566623332313132323135663833313238346666");
}

TEST(ModelProtobufTest, NamespacesMatchTheGateway) {
  EXPECT_EQ(Hex(EncodeNamespacesProtobuf(sample::Namespaces())), "0a0764656661756c740a056862617365");
  EXPECT_EQ(Hex(EncodeNamespacesInstanceProtobuf(sample::NamespaceRmns())),
            "0a060a01611201310a060a0162120132");
  EXPECT_EQ(EncodeNamespacesInstanceProtobuf({"default", {}}), "");
}

// The layout of the gateway's answer (every field set, in field order); the figures are the
// sample's.
TEST(ModelProtobufTest, StatusSetsEveryField) {
  const std::string bytes = EncodeStorageClusterStatusProtobuf(sample::Status());
  EXPECT_EQ(Hex(bytes).substr(4, 34), "0a0f3132372e302e302e313a3136313230");
  // Summary fields last: regions=4, requests=72, averageLoad=4.0.
  EXPECT_EQ(Hex(bytes).substr(Hex(bytes).size() - 26), "1804204829" "0000000000001040");
}

// ----------------------------------------------------------------------------- request bodies

TEST(ModelProtobufTest, CellSetRoundTrips) {
  CellSetModel decoded;
  ASSERT_TRUE(DecodeCellSetProtobuf(EncodeCellSetProtobuf(sample::RowR1()), &decoded).ok());
  ASSERT_EQ(decoded.rows.size(), 1u);
  EXPECT_EQ(decoded.rows[0].key, "r1");
  ASSERT_EQ(decoded.rows[0].cells.size(), 2u);
  EXPECT_EQ(decoded.rows[0].cells[0].timestamp, 1000);
  EXPECT_EQ(decoded.rows[0].cells[1].value, "<>&\"'");
}

// What the real gateway answered to each body.
TEST(ModelProtobufTest, BadBodiesGiveTheGatewaysStatus) {
  CellSetModel decoded;
  EXPECT_EQ(DecodeCellSetProtobuf(Unhex("0affff"), &decoded).http_status(), 500);
  // A row without its required key.
  BodyStatus s = DecodeCellSetProtobuf(Unhex("0a06120412026366"), &decoded);
  EXPECT_EQ(s.http_status(), 400);
  EXPECT_NE(s.message().find("key"), std::string::npos) << s.message();
  // An unknown field (15) is skipped.
  EXPECT_TRUE(DecodeCellSetProtobuf(Unhex("0a0e0a0272311208120463663a6122007801"), &decoded).ok());
}

TEST(ModelProtobufTest, HugeCellCountsAreRefusedBeforeParsing) {
  std::string row = Unhex("0a017212") ;  // key "r", then many empty cells
  std::string cells;
  for (int i = 0; i < 3000; ++i) cells += Unhex("1200");
  std::string body = Unhex("0a") ;
  std::string payload = Unhex("0a0172") + cells;
  // Row length as a varint.
  std::string len;
  for (size_t n = payload.size(); ; n >>= 7) {
    len.push_back(static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0)));
    if (n < 0x80) break;
  }
  body += len + payload;
  BodyBounds bounds;
  bounds.max_elements = 1000;
  CellSetModel decoded;
  BodyStatus s = DecodeCellSetProtobuf(body, &decoded, bounds);
  EXPECT_EQ(s.http_status(), 500);
  EXPECT_NE(s.message().find("bound"), std::string::npos) << s.message();
  EXPECT_TRUE(DecodeCellSetProtobuf(body, &decoded).ok());
  EXPECT_EQ(decoded.rows[0].cells.size(), 3000u);
}

TEST(ModelProtobufTest, SchemaBodyFoldsTheTypedFieldsIntoAttributes) {
  TableSchemaModel decoded;
  ASSERT_TRUE(DecodeTableSchemaProtobuf(EncodeTableSchemaProtobuf(sample::SchemaRmT()), &decoded).ok());
  EXPECT_EQ(decoded.name, "rmT");
  EXPECT_EQ(decoded.attrs, sample::SchemaRmT().attrs);
  ASSERT_EQ(decoded.columns.size(), 2u);
  EXPECT_EQ(decoded.columns[1].attrs, sample::SchemaRmT().columns[1].attrs);
}

TEST(ModelProtobufTest, NamespaceAndScannerBodies) {
  NamespacesInstanceModel ns;
  ASSERT_TRUE(DecodeNamespacesInstanceProtobuf(Unhex("0a060a01611201310a060a0162120132"), &ns).ok());
  EXPECT_EQ(ns.properties, sample::NamespaceRmns().properties);

  // startRow "r1", columns "cf", batch 10, filter "{}", cacheBlocks false.
  ScannerModel scanner;
  ASSERT_TRUE(DecodeScannerProtobuf(Unhex("0a0272311a026366200a42027b7d5800"), &scanner).ok());
  EXPECT_EQ(scanner.start_row, "r1");
  EXPECT_EQ(scanner.columns, (std::vector<std::string>{"cf"}));
  EXPECT_EQ(scanner.batch, 10);
  EXPECT_EQ(scanner.filter, std::string("{}"));
  EXPECT_FALSE(scanner.cache_blocks);
  EXPECT_EQ(scanner.caching, -1);
}

TEST(ModelProtobufTest, ScannerRoundTrips) {
  ScannerModel scanner;
  scanner.start_row = "r1";
  scanner.columns = {"cf:a", "f2"};
  scanner.batch = 7;
  scanner.caching = 3;
  scanner.start_time = 5;
  scanner.filter = R"({"type":"KeyOnlyFilter"})";
  scanner.labels = {"secret"};
  scanner.cache_blocks = false;
  ScannerModel decoded;
  ASSERT_TRUE(DecodeScannerProtobuf(EncodeScannerProtobuf(scanner), &decoded).ok());
  EXPECT_EQ(decoded.start_row, "r1");
  EXPECT_EQ(decoded.end_row, "");
  EXPECT_EQ(decoded.columns, scanner.columns);
  EXPECT_EQ(decoded.batch, 7);
  EXPECT_EQ(decoded.caching, 3);
  EXPECT_EQ(decoded.start_time, 5);
  EXPECT_EQ(decoded.end_time, INT64_MAX);
  EXPECT_EQ(decoded.max_versions, INT32_MAX);
  EXPECT_EQ(decoded.filter, scanner.filter);
  EXPECT_EQ(decoded.labels, scanner.labels);
  EXPECT_FALSE(decoded.cache_blocks);
}

}  // namespace
}  // namespace hbemu::server::rest
