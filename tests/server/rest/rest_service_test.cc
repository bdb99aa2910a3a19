#include "server/rest/rest_service.h"

#include <gtest/gtest.h>

#include "server/rest/base64.h"
#include "server/rest/jetty_error.h"
#include "server/rest/model_protobuf.h"
#include "tests/server/rest/rest_testing.h"

namespace hbemu::server::rest {
namespace {

// Requests answered by the door's rules and HBase's resources, with no network in between.
class RestServiceTest : public RestDoorTest {
 protected:
  void CreateTable(const std::string& name) {
    ASSERT_TRUE(store_->CreateTable(name, {testutil::Family("f", 3)}).ok());
  }

  std::string JsonCell(const std::string& row, const std::string& column,
                       const std::string& value) {
    return "{\"Row\":[{\"key\":\"" + Base64Encode(row) + "\",\"Cell\":[{\"column\":\"" +
           Base64Encode(column) + "\",\"$\":\"" + Base64Encode(value) + "\"}]}]}";
  }
};

TEST_F(RestServiceTest, VersionClusterIsPlainTextByDefaultAndJsonWhenAsked) {
  HttpResponse text = Call("GET", "/version/cluster");
  EXPECT_EQ(text.status, 200);
  EXPECT_EQ(text.content_type, "text/plain");
  EXPECT_EQ(text.body, "2.6.1");
  HttpResponse json = Call("GET", "/version/cluster", {kAcceptJson});
  EXPECT_EQ(json.body, "{\"Version\":\"2.6.1\"}");
  EXPECT_EQ(Call("GET", "/version/cluster", {{"Accept", "application/x-protobuf"}}).status, 406);
}

TEST_F(RestServiceTest, VersionNamesTheRestVersionAndHBaseRelease) {
  HttpResponse response = Call("GET", "/version");
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body.rfind("rest 0.0.3 [JVM: ", 0), 0u) << response.body;
  EXPECT_NE(response.body.find("[Version: 2.6.1]"), std::string::npos);
}

TEST_F(RestServiceTest, ReadOnlyResourcesAnswer405WithJerseysAllowList) {
  HttpResponse response = Call("POST", "/version", {kJsonBody}, "{}");
  EXPECT_EQ(response.status, 405);
  EXPECT_EQ(HeaderOf(response, "Allow"), "GET,OPTIONS");
  EXPECT_EQ(Call("DELETE", "/").status, 405);
}

TEST_F(RestServiceTest, TableListShowsEveryTableAsTextOrJson) {
  CreateTable("b");
  CreateTable("a");
  EXPECT_EQ(Call("GET", "/").body, "a\nb\n");
  EXPECT_EQ(Call("GET", "/", {kAcceptJson}).body, "{\"table\":[{\"name\":\"a\"},{\"name\":\"b\"}]}");
}

TEST_F(RestServiceTest, NamespacesAreListedCreatedAlteredAndDropped) {
  EXPECT_EQ(Call("GET", "/namespaces", {kAcceptJson}).body,
            "{\"Namespace\":[\"default\",\"hbase\"]}");
  HttpResponse created = Call("POST", "/namespaces/ns1");
  EXPECT_EQ(created.status, 201);
  EXPECT_EQ(HeaderOf(created, "Location"), "http://localhost:8080/namespaces/ns1");
  HttpResponse again = Call("POST", "/namespaces/ns1");
  EXPECT_EQ(again.status, 403);
  EXPECT_EQ(again.body,
            "Namespace 'ns1' already exists.  Use REST PUT to alter the existing namespace.");
  HttpResponse missing = Call("PUT", "/namespaces/ns2", {kJsonBody}, "{\"properties\":{}}");
  EXPECT_EQ(missing.status, 403);
  EXPECT_EQ(missing.body, "Namespace 'ns2' does not exist. Use REST POST to create the namespace.");
  EXPECT_EQ(Call("PUT", "/namespaces/ns1", {kJsonBody}, "{\"properties\":{\"a\":\"c\"}}").status,
            200);
  EXPECT_EQ(Call("GET", "/namespaces/ns1").body, "{NAME => 'ns1', a => 'c'}");
  EXPECT_EQ(Call("DELETE", "/namespaces/ns1").status, 200);
  HttpResponse gone = Call("DELETE", "/namespaces/ns1");
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.body, "Namespace 'ns1' does not exists.  Cannot drop namespace.");
  EXPECT_EQ(Call("GET", "/namespaces/ns1").status, 500);
}

TEST_F(RestServiceTest, NamespaceAlterationAnswersItsUrlAsTextOrAJsonString) {
  ASSERT_EQ(Call("POST", "/namespaces/ns1").status, 201);
  HttpResponse text = Call("PUT", "/namespaces/ns1?x=1");
  EXPECT_EQ(text.status, 200);
  EXPECT_EQ(text.content_type, "text/plain");
  EXPECT_EQ(text.body, "http://localhost:8080/namespaces/ns1");
  HttpResponse json = Call("PUT", "/namespaces/ns1", {{"Accept", "text/xml, application/json"}});
  EXPECT_EQ(json.content_type, "application/json");
  EXPECT_EQ(json.body, "\"http://localhost:8080/namespaces/ns1\"");
  // No writer of Jersey's takes a URL as XML, protobuf or HTML.
  HttpResponse xml = Call("PUT", "/namespaces/ns1", {{"Accept", "text/xml"}});
  EXPECT_EQ(xml.status, 500);
  EXPECT_EQ(xml.body, "");
}

TEST_F(RestServiceTest, NamespaceTablesListsTheQualifiersOfItsTables) {
  ASSERT_TRUE(store_->CreateNamespace("ns").ok());
  CreateTable("ns:t1");
  CreateTable("other");
  EXPECT_EQ(Call("GET", "/namespaces/ns/tables").body, "t1\n");
  EXPECT_EQ(Call("GET", "/namespaces/nosuch/tables").status, 500);
}

TEST_F(RestServiceTest, SchemaPutCreatesGetDescribesAndDeleteDrops) {
  HttpResponse created = Call("PUT", "/t1/schema", {kJsonBody},
                              "{\"name\":\"t1\",\"ColumnSchema\":[{\"name\":\"f\",\"VERSIONS\":\"2\"}]}");
  EXPECT_EQ(created.status, 201);
  EXPECT_EQ(HeaderOf(created, "Location"), "http://localhost:8080/t1/schema");
  HttpResponse json = Call("GET", "/t1/schema", {kAcceptJson});
  EXPECT_EQ(json.status, 200);
  EXPECT_EQ(json.body.rfind("{\"name\":\"t1\",\"ColumnSchema\":[{\"name\":\"f\","
                            "\"INDEX_BLOCK_ENCODING\":\"NONE\",\"VERSIONS\":\"2\",",
                            0),
            0u)
      << json.body;
  EXPECT_EQ(Call("GET", "/t1/exists").status, 200);
  EXPECT_EQ(Call("DELETE", "/t1/schema").status, 200);
  HttpResponse missing = Call("GET", "/t1/schema");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.body.rfind("Not found\r\n", 0), 0u);
  EXPECT_EQ(Call("GET", "/t1/exists").body, "Not found\r\n");
}

TEST_F(RestServiceTest, SchemaPostAddsAFamilyToAnExistingTable) {
  CreateTable("t");
  EXPECT_EQ(Call("POST", "/t/schema", {kJsonBody},
                 "{\"name\":\"t\",\"ColumnSchema\":[{\"name\":\"g\"}]}")
                .status,
            200);
  std::shared_ptr<const storage::TableDescriptor> table;
  ASSERT_TRUE(store_->DescribeTable("t", &table).ok());
  EXPECT_NE(table->FindFamily("f"), nullptr);
  EXPECT_NE(table->FindFamily("g"), nullptr);
}

TEST_F(RestServiceTest, SchemaPutReplacesAnExistingTableAndAnswersCreatedLikeACreation) {
  CreateTable("t");
  HttpResponse replaced = Call("PUT", "/t/schema", {kJsonBody},
                               "{\"name\":\"t\",\"ColumnSchema\":[{\"name\":\"g\"}]}");
  EXPECT_EQ(replaced.status, 201);
  EXPECT_EQ(HeaderOf(replaced, "Location"), "http://localhost:8080/t/schema");
  std::shared_ptr<const storage::TableDescriptor> table;
  ASSERT_TRUE(store_->DescribeTable("t", &table).ok());
  EXPECT_EQ(table->FindFamily("f"), nullptr);
  EXPECT_NE(table->FindFamily("g"), nullptr);
}

TEST_F(RestServiceTest, RegionsNameTheTableRegionsAndTheirServer) {
  CreateTable("t");
  HttpResponse response = Call("GET", "/t/regions", {kAcceptJson});
  EXPECT_EQ(response.status, 200);
  EXPECT_NE(response.body.find("\"location\":\"node:16020\""), std::string::npos) << response.body;
  EXPECT_NE(response.body.find("\"name\":\"t,,1000."), std::string::npos) << response.body;
  EXPECT_EQ(Call("GET", "/nosuch/regions").status, 404);
}

TEST_F(RestServiceTest, CellSetPutThenRowGetInJsonXmlAndOctetStream) {
  CreateTable("t");
  EXPECT_EQ(Call("PUT", "/t/r1", {kJsonBody}, JsonCell("r1", "f:a", "v1")).status, 200);
  HttpResponse json = Call("GET", "/t/r1", {kAcceptJson});
  EXPECT_EQ(json.status, 200);
  EXPECT_EQ(json.body, "{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Zjph\","
                       "\"timestamp\":1000,\"$\":\"djE=\"}]}]}");
  HttpResponse xml = Call("GET", "/t/r1");
  EXPECT_EQ(xml.content_type, "text/xml");
  HttpResponse value = Call("GET", "/t/r1/f:a", {{"Accept", "application/octet-stream"}});
  EXPECT_EQ(value.status, 200);
  EXPECT_EQ(value.body, "v1");
  EXPECT_EQ(HeaderOf(value, "X-Timestamp"), "1000");
  EXPECT_EQ(Call("GET", "/t/r1", {{"Accept", "application/octet-stream"}}).status, 400);
  EXPECT_EQ(Call("GET", "/t/r1", {{"Accept", "text/plain"}}).status, 406);
}

TEST_F(RestServiceTest, OctetStreamPutTakesTheColumnFromThePathOrXColumn) {
  CreateTable("t");
  const std::pair<std::string, std::string> binary{"Content-Type", "application/octet-stream"};
  EXPECT_EQ(Call("PUT", "/t/r1/f:a", {binary}, "hello").status, 200);
  EXPECT_EQ(
      Call("PUT", "/t/r2/f:z", {binary, {"X-Column", "f:b"}, {"X-Timestamp", "7"}}, "x").status,
      200);
  EXPECT_EQ(Call("GET", "/t/r1/f:a", {{"Accept", "application/octet-stream"}}).body, "hello");
  HttpResponse r2 = Call("GET", "/t/r2/f:b", {{"Accept", "application/octet-stream"}});
  EXPECT_EQ(HeaderOf(r2, "X-Timestamp"), "7");
  HttpResponse no_column = Call("PUT", "/t/r3", {binary}, "x");
  EXPECT_EQ(no_column.status, 400);
}

TEST_F(RestServiceTest, MissingRowTableOrFamilyIsNotFound) {
  CreateTable("t");
  HttpResponse row = Call("GET", "/t/nosuch");
  EXPECT_EQ(row.status, 404);
  EXPECT_EQ(row.body, "Not found\r\n");
  EXPECT_EQ(Call("GET", "/nosuch/r").status, 404);
  EXPECT_EQ(Call("PUT", "/t/r/nofam:a", {{"Content-Type", "application/octet-stream"}}, "x").status,
            404);
}

TEST_F(RestServiceTest, CellWithABareFamilyIsABadRequest) {
  CreateTable("t");
  HttpResponse response = Call("PUT", "/t/r", {kJsonBody}, JsonCell("r", "f", "v"));
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(response.body, "Bad request\r\n");
}

TEST_F(RestServiceTest, DeleteRemovesAColumnOrTheWholeRow) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/r", {kJsonBody}, JsonCell("r", "f:a", "1")).status, 200);
  ASSERT_EQ(Call("PUT", "/t/r", {kJsonBody}, JsonCell("r", "f:b", "2")).status, 200);
  EXPECT_EQ(Call("DELETE", "/t/r/f:a").status, 200);
  EXPECT_EQ(Call("GET", "/t/r/f:a").status, 404);
  EXPECT_EQ(Call("GET", "/t/r/f:b").status, 200);
  EXPECT_EQ(Call("DELETE", "/t/r").status, 200);
  EXPECT_EQ(Call("GET", "/t/r").status, 404);
}

TEST_F(RestServiceTest, CheckPutAppliesOnlyWhenTheLastCellMatches) {
  CreateTable("t");
  const std::string body = "{\"Row\":[{\"key\":\"" + Base64Encode("r") + "\",\"Cell\":[" +
                           "{\"column\":\"" + Base64Encode("f:a") + "\",\"$\":\"" +
                           Base64Encode("new") + "\"},{\"column\":\"" + Base64Encode("f:a") +
                           "\",\"$\":\"" + Base64Encode("old") + "\"}]}]}";
  EXPECT_EQ(Call("PUT", "/t/r?check=put", {kJsonBody}, body).status, 304);
  ASSERT_EQ(Call("PUT", "/t/r/f:a", {{"Content-Type", "application/octet-stream"}}, "old").status,
            200);
  EXPECT_EQ(Call("PUT", "/t/r?check=put", {kJsonBody}, body).status, 200);
  EXPECT_EQ(Call("GET", "/t/r/f:a", {{"Accept", "application/octet-stream"}}).body, "new");
  HttpResponse bogus = Call("PUT", "/t/r?check=bogus", {kJsonBody}, body);
  EXPECT_EQ(bogus.status, 400);
  EXPECT_EQ(bogus.body, "Invalid check value 'bogus'\r\n");
}

TEST_F(RestServiceTest, CheckDeleteRemovesWhatThePathNamesWhenTheValueMatches) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/r", {kJsonBody}, JsonCell("r", "f:a", "v")).status, 200);
  EXPECT_EQ(Call("PUT", "/t/r/f:a?check=delete", {kJsonBody}, JsonCell("r", "f:a", "x")).status,
            304);
  EXPECT_EQ(Call("PUT", "/t/r/f:a?check=delete", {kJsonBody}, JsonCell("r", "f:a", "v")).status,
            200);
  EXPECT_EQ(Call("GET", "/t/r").status, 404);
}

TEST_F(RestServiceTest, CheckIncrementAddsDecimalAmounts) {
  CreateTable("t");
  HttpResponse first = Call("PUT", "/t/r?check=increment", {kJsonBody}, JsonCell("r", "f:n", "5"));
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(Call("GET", "/t/r/f:n", {{"Accept", "application/octet-stream"}}).body,
            std::string("\0\0\0\0\0\0\0\5", 8));
  HttpResponse bad = Call("PUT", "/t/r?check=increment", {kJsonBody}, JsonCell("r", "f:n", "new"));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body.rfind("Bad request\r\njava.lang.NumberFormatException", 0), 0u);
}

TEST_F(RestServiceTest, MultigetReturnsTheRowsFoundInTheOrderAsked) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/a", {kJsonBody}, JsonCell("a", "f:x", "1")).status, 200);
  ASSERT_EQ(Call("PUT", "/t/b", {kJsonBody}, JsonCell("b", "f:x", "2")).status, 200);
  HttpResponse response = Call("GET", "/t/multiget?row=b&row=nosuch&row=a", {kAcceptJson});
  EXPECT_EQ(response.status, 200);
  EXPECT_LT(response.body.find(Base64Encode("b")), response.body.find(Base64Encode("a")));
  EXPECT_EQ(Call("GET", "/t/multiget?row=nosuch").status, 404);
}

TEST_F(RestServiceTest, SuffixGlobReadsEveryRowWithThePrefix) {
  CreateTable("t");
  for (const char* row : {"p1", "p2", "q1"}) {
    ASSERT_EQ(Call("PUT", std::string("/t/") + row, {kJsonBody}, JsonCell(row, "f:x", "v")).status,
              200);
  }
  HttpResponse response = Call("GET", "/t/p*/f", {kAcceptJson});
  EXPECT_EQ(response.status, 200);
  EXPECT_NE(response.body.find(Base64Encode("p2")), std::string::npos);
  EXPECT_EQ(response.body.find(Base64Encode("q1")), std::string::npos);
}

TEST_F(RestServiceTest, StatelessScanReadsThePrefixWithItsQueryParameters) {
  CreateTable("t");
  for (const char* row : {"a1", "r1", "r2", "r3"}) {
    ASSERT_EQ(Call("PUT", std::string("/t/") + row, {kJsonBody}, JsonCell(row, "f:x", "v")).status,
              200);
  }
  HttpResponse all = Call("GET", "/t/*", {kAcceptJson});
  EXPECT_EQ(all.status, 200);
  EXPECT_NE(all.body.find(Base64Encode("a1")), std::string::npos);
  HttpResponse limited = Call("GET", "/t/r*?limit=2&reversed=true&startrow=r9", {kAcceptJson});
  EXPECT_NE(limited.body.find(Base64Encode("r3")), std::string::npos) << limited.body;
  EXPECT_NE(limited.body.find(Base64Encode("r2")), std::string::npos);
  EXPECT_EQ(limited.body.find(Base64Encode("r1")), std::string::npos);
  HttpResponse keys = Call("GET", "/t/r*?filter=KeyOnlyFilter()&limit=1", {kAcceptJson});
  EXPECT_EQ(keys.body, "{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Zjp4\","
                       "\"timestamp\":1000,\"$\":\"\"}]}]}");
}

TEST_F(RestServiceTest, StatelessScanAnswersEmptySetsAndFailsLikeHBase) {
  CreateTable("t");
  HttpResponse none = Call("GET", "/t/zz*", {kAcceptJson});
  EXPECT_EQ(none.status, 200);
  EXPECT_EQ(none.body, "{\"Row\":[]}");
  EXPECT_EQ(Call("GET", "/nosuch/*", {kAcceptJson}).status, 500);
  EXPECT_EQ(Call("GET", "/t/*?filter=Bogus(", {kAcceptJson}).status, 500);
  EXPECT_EQ(Call("GET", "/t/*?limit=x", {kAcceptJson}).status, 404);  // Jersey cannot convert it
}

TEST_F(RestServiceTest, StatelessScanLimitCountsTheBatchedPiecesOfARow) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/r1", {kJsonBody}, JsonCell("r1", "f:a", "1")).status, 200);
  ASSERT_EQ(Call("PUT", "/t/r1", {kJsonBody}, JsonCell("r1", "f:b", "2")).status, 200);
  ASSERT_EQ(Call("PUT", "/t/r2", {kJsonBody}, JsonCell("r2", "f:a", "3")).status, 200);
  HttpResponse pieces = Call("GET", "/t/*?batchsize=1&limit=2", {kAcceptJson});
  EXPECT_EQ(pieces.body,
            "{\"Row\":[{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Zjph\",\"timestamp\":1000,"
            "\"$\":\"MQ==\"}]},{\"key\":\"cjE=\",\"Cell\":[{\"column\":\"Zjpi\","
            "\"timestamp\":1000,\"$\":\"Mg==\"}]}]}");
  EXPECT_EQ(Call("GET", "/t/*?limit=0", {kAcceptJson}).body, "{\"Row\":[]}");
}

TEST_F(RestServiceTest, ReversedPrefixScanWalksDownFromThePrefixAndFindsOnlyRowsWithIt) {
  CreateTable("t");
  for (const char* row : {"q", "r", "r1", "r2", "s"}) {
    ASSERT_EQ(Call("PUT", std::string("/t/") + row, {kJsonBody}, JsonCell(row, "f:x", "v")).status,
              200);
  }
  HttpResponse from_prefix = Call("GET", "/t/r*?reversed=true", {kAcceptJson});
  EXPECT_NE(from_prefix.body.find("\"key\":\"cg==\""), std::string::npos) << from_prefix.body;
  EXPECT_EQ(from_prefix.body.find(Base64Encode("r1")), std::string::npos);
  EXPECT_EQ(from_prefix.body.find(Base64Encode("q")), std::string::npos);
  HttpResponse from_later = Call("GET", "/t/r*?reversed=true&startrow=s", {kAcceptJson});
  EXPECT_LT(from_later.body.find(Base64Encode("r2")), from_later.body.find(Base64Encode("r1")));
  EXPECT_NE(from_later.body.find("\"key\":\"cg==\""), std::string::npos);
  EXPECT_EQ(from_later.body.find("\"key\":\"cw==\""), std::string::npos);
  EXPECT_EQ(Call("GET", "/t/r1*?reversed=true", {kAcceptJson}).body.find(Base64Encode("r2")),
            std::string::npos);
}

TEST_F(RestServiceTest, StatelessProtobufScanIsAStreamOfLengthPrefixedCellSets) {
  CreateTable("t");
  for (int i = 0; i < 12; ++i) {
    const std::string row = "r" + std::to_string(10 + i);
    ASSERT_EQ(Call("PUT", "/t/" + row, {kJsonBody}, JsonCell(row, "f:a", "v")).status, 200);
  }
  HttpResponse stream = Call("GET", "/t/*", {{"Accept", "application/x-protobuf"}});
  EXPECT_EQ(stream.status, 200);
  std::vector<size_t> chunks;
  for (size_t at = 0; at + 2 <= stream.body.size();) {
    const size_t length = (static_cast<uint8_t>(stream.body[at]) << 8) |
                          static_cast<uint8_t>(stream.body[at + 1]);
    CellSetModel chunk;
    ASSERT_TRUE(DecodeCellSetProtobuf(stream.body.substr(at + 2, length), &chunk).ok());
    chunks.push_back(chunk.rows.size());
    at += 2 + length;
  }
  EXPECT_EQ(chunks, (std::vector<size_t>{10, 2}));
  HttpResponse empty = Call("GET", "/t/zz*?limit=3", {{"Accept", "application/x-protobuf"}});
  EXPECT_EQ(empty.body, std::string("\0\0", 2));
}

std::string ScannerPath(const HttpResponse& created) {
  for (const auto& [key, value] : created.headers) {
    if (key == "Location") return value.substr(std::string("http://localhost:8080").size());
  }
  return "";
}

TEST_F(RestServiceTest, ScannerIsCreatedFetchedInBatchesOfCellsAndEndsWith204) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/a", {kJsonBody}, JsonCell("a", "f:x", "1")).status, 200);
  ASSERT_EQ(Call("PUT", "/t/b", {kJsonBody}, JsonCell("b", "f:x", "2")).status, 200);
  ASSERT_EQ(Call("PUT", "/t/b", {kJsonBody}, JsonCell("b", "f:y", "3")).status, 200);
  HttpResponse created =
      Call("PUT", "/t/scanner", {{"Content-Type", "text/xml"}}, "<Scanner batch=\"2\"/>");
  ASSERT_EQ(created.status, 201);
  const std::string path = ScannerPath(created);
  ASSERT_EQ(path.rfind("/t/scanner/", 0), 0u) << path;
  // Two cells: row a's and the first of row b's.
  HttpResponse first = Call("GET", path, {kAcceptJson});
  EXPECT_EQ(first.status, 200);
  EXPECT_NE(first.body.find(Base64Encode("a")), std::string::npos);
  EXPECT_NE(first.body.find(Base64Encode("f:x")), std::string::npos);
  EXPECT_EQ(first.body.find(Base64Encode("f:y")), std::string::npos) << first.body;
  HttpResponse second = Call("GET", path + "?n=1", {kAcceptJson});
  EXPECT_NE(second.body.find(Base64Encode("f:y")), std::string::npos) << second.body;
  EXPECT_EQ(Call("GET", path, {kAcceptJson}).status, 204);
  EXPECT_EQ(Call("DELETE", path).status, 200);
  EXPECT_EQ(Call("GET", path).status, 404);
  EXPECT_EQ(Call("DELETE", path).status, 404);
}

TEST_F(RestServiceTest, IdleScannerOutlivesTheRegionLeaseAndIsForgottenAfterAnHour) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/a", {kJsonBody}, JsonCell("a", "f:x", "1")).status, 200);
  HttpResponse created = Call("POST", "/t/scanner", {kJsonBody}, "{}");
  ASSERT_EQ(created.status, 201);
  HttpResponse unopened = Call("POST", "/t/scanner", {kJsonBody}, "{}");
  clock_.Advance(65000);
  EXPECT_EQ(Call("GET", ScannerPath(created), {kAcceptJson}).status, 200);
  clock_.Advance(3600001);
  EXPECT_EQ(Call("GET", ScannerPath(created), {kAcceptJson}).status, 404);
  HttpResponse forgotten = Call("GET", ScannerPath(unopened), {kAcceptJson});
  EXPECT_EQ(forgotten.status, 404);
  EXPECT_EQ(forgotten.body, "Not found\r\n");
}

TEST_F(RestServiceTest, ScannerFetchAsOctetStreamGivesOneCellWithItsBase64Coordinates) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/a", {kJsonBody}, JsonCell("a", "f:x", "1")).status, 200);
  HttpResponse created = Call("PUT", "/t/scanner", {kJsonBody}, "{}");
  HttpResponse value =
      Call("GET", ScannerPath(created), {{"Accept", "application/octet-stream"}});
  EXPECT_EQ(value.status, 200);
  EXPECT_EQ(value.body, "1");
  EXPECT_EQ(HeaderOf(value, "X-Row"), "YQ==");
  EXPECT_EQ(HeaderOf(value, "X-Column"), "Zjp4");
}

TEST_F(RestServiceTest, ScannerOfATableGoneBeforeItsFirstFetchAnswersNotFound) {
  HttpResponse missing = Call("PUT", "/nosuch/scanner", {kJsonBody}, "{}");
  EXPECT_EQ(missing.status, 201);
  for (int i = 0; i < 2; ++i) {
    HttpResponse fetch = Call("GET", ScannerPath(missing), {kAcceptJson});
    EXPECT_EQ(fetch.status, 404);
    EXPECT_EQ(fetch.body, "Not found\r\n");
  }
  HttpResponse octet = Call("GET", ScannerPath(missing), {{"Accept", "application/octet-stream"}});
  EXPECT_EQ(octet.status, 500);
  EXPECT_EQ(octet.body, "");
  EXPECT_EQ(Call("DELETE", ScannerPath(missing)).status, 200);

  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/a", {kJsonBody}, JsonCell("a", "f:x", "1")).status, 200);
  HttpResponse unread = Call("PUT", "/t/scanner", {kJsonBody}, "{\"batch\":1}");
  HttpResponse read = Call("PUT", "/t/scanner", {kJsonBody}, "{\"batch\":1}");
  ASSERT_EQ(Call("GET", ScannerPath(read), {kAcceptJson}).status, 200);
  ASSERT_EQ(Call("DELETE", "/t/schema").status, 200);
  EXPECT_EQ(Call("GET", ScannerPath(unread), {kAcceptJson}).status, 404);
  // Once opened, a scanner goes on with what it read.
  EXPECT_EQ(Call("GET", ScannerPath(read), {kAcceptJson}).status, 204);
}

TEST_F(RestServiceTest, ScannerSeesTheRowsOfItsFirstFetchNotOfItsCreation) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/a", {kJsonBody}, JsonCell("a", "f:x", "1")).status, 200);
  HttpResponse created = Call("PUT", "/t/scanner", {kJsonBody}, "{}");
  ASSERT_EQ(Call("PUT", "/t/b", {kJsonBody}, JsonCell("b", "f:x", "2")).status, 200);
  ASSERT_EQ(Call("DELETE", "/t/a").status, 200);
  HttpResponse first = Call("GET", ScannerPath(created), {kAcceptJson});
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.body.find(Base64Encode("a")), std::string::npos) << first.body;
  EXPECT_NE(first.body.find(Base64Encode("b")), std::string::npos);
}

TEST_F(RestServiceTest, UncaughtFailuresAnswerJettysRequestFailedPageInTheAcceptedForm) {
  HttpResponse json = Call("GET", "/nosuch/*?limit=1", {kAcceptJson});
  EXPECT_EQ(json.status, 500);
  EXPECT_EQ(json.content_type, "application/json");
  EXPECT_EQ(json.body, "{\n\"servlet\":\"" + std::string(kJettyServletName) +
                           "\",\n\"message\":\"Request failed.\",\n\"url\":\"/nosuch/*\","
                           "\n\"status\":\"500\"\n}");
  HttpResponse xml = Call("GET", "/nosuch/*", {{"Accept", "text/xml"}});
  EXPECT_EQ(xml.status, 500);
  EXPECT_EQ(xml.content_type, "");
  EXPECT_EQ(xml.body, "");
  HttpResponse page = Call("GET", "/namespaces/nosuch");
  EXPECT_EQ(page.status, 500);
  EXPECT_EQ(page.content_type, "text/html;charset=iso-8859-1");
  EXPECT_NE(page.body.find("<h2>HTTP ERROR 500 Request failed.</h2>"), std::string::npos);
}

TEST_F(RestServiceTest, Base64EncodingHeaderDecodesTheRowKeyInThePath) {
  CreateTable("t");
  ASSERT_EQ(Call("PUT", "/t/r1", {kJsonBody}, JsonCell("r1", "f:a", "v")).status, 200);
  EXPECT_EQ(Call("GET", "/t/" + Base64Encode("r1"), {{"Encoding", "b64"}}).status, 200);
}

TEST_F(RestServiceTest, ForeignHostIsRefusedWhateverThePath) {
  HttpRequest request;
  request.method = "GET";
  request.target = "/version";
  request.headers = {{"Host", "attacker.example.com"}};
  EXPECT_EQ(door_->Handle(request).status, 403);
}

TEST_F(RestServiceTest, WebPageRequestsThatChangeDataAreRefused) {
  CreateTable("t");
  // A cross-site form can send these without a preflight; HBase does not read them either.
  EXPECT_EQ(Call("POST", "/t/r/f:a", {{"Content-Type", "text/plain"}}, "x").status, 415);
  EXPECT_EQ(
      Call("POST", "/t/r/f:a", {{"Content-Type", "application/x-www-form-urlencoded"}}, "x").status,
      415);
  // A foreign page's fetch carries its Origin: refused even with no body (namespace creation).
  EXPECT_EQ(Call("POST", "/namespaces/evil", {{"Origin", "http://attacker.example.com"}}).status,
            403);
  EXPECT_EQ(Call("DELETE", "/t/schema", {{"Origin", "null"}}).status, 403);
  EXPECT_EQ(Call("POST", "/namespaces/ok", {{"Origin", "http://localhost:3000"}}).status, 201);
}

TEST_F(RestServiceTest, CallsAreCountedByEndpointAndStatusClass) {
  Call("GET", "/version");
  Call("GET", "/nosuch/schema");
  Call("GET", "/nosuch/schema");
  std::vector<std::string> seen;
  for (const auto& sample : counters_->Snapshot()) {
    seen.push_back(sample.endpoint + " " + sample.status_class + " " +
                   std::to_string(sample.calls));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"version 2xx 1", "schema 4xx 2"}));
}

}  // namespace
}  // namespace hbemu::server::rest
