// Failures answered as HBase 2.6.1's REST gateway answers them: which layer of HBase meets the
// fault (its client, entity reader, resource or container) decides the status and the body.
// Each case was a divergence the REST differential (tests/differential/restdiff.py) measured.

#include <gtest/gtest.h>

#include "server/rest/base64.h"
#include "server/rest/jetty_error.h"
#include "tests/server/rest/rest_testing.h"

namespace hbemu::server::rest {
namespace {

class RestFailureTest : public RestDoorTest {
 protected:
  void SetUp() override {
    RestDoorTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_TRUE(store_->CreateTable("t", {testutil::Family("f", 3)}).ok());
    const std::string cell = "{\"Row\":[{\"key\":\"" + Base64Encode("r1") +
                             "\",\"Cell\":[{\"column\":\"" + Base64Encode("f:a") +
                             "\",\"$\":\"" + Base64Encode("v") + "\"}]}]}";
    ASSERT_EQ(Call("PUT", "/t/r1", {kJsonBody}, cell).status, 200);
  }
};

TEST_F(RestFailureTest, MultigetOfSeveralRowsInAMissingTableIsNotFoundButOfOneRowIsA500) {
  HttpResponse several = Call("GET", "/nosuch/multiget?row=r1&row=r2", {kAcceptProtobuf});
  EXPECT_EQ(several.status, 404);
  EXPECT_EQ(several.content_type, "text/plain");
  EXPECT_TRUE(StartsWith(several.body, "Not found\r\norg.apache.hadoop.hbase.TableNotFoundException"))
      << several.body;
  // The same row twice is still a batch of two gets.
  EXPECT_EQ(Call("GET", "/nosuch/multiget?row=r1&row=r1", {kAcceptJson}).status, 404);
  HttpResponse one = Call("GET", "/nosuch/multiget?row=r1", {kAcceptJson});
  EXPECT_EQ(one.status, 500);
  EXPECT_EQ(one.content_type, "application/json");
}

TEST_F(RestFailureTest, MultigetOfSeveralRowsNamingAMissingFamilyIsNotFound) {
  // Whichever row names it, and even when another row is found.
  for (const char* query : {"row=r1/zz:a&row=r2", "row=r1&row=r2/zz", "row=r2/zz:a&row=r1"}) {
    HttpResponse response = Call("GET", std::string("/t/multiget?") + query, {kAcceptJson});
    EXPECT_EQ(response.status, 404) << query;
    EXPECT_TRUE(StartsWith(response.body, "Not found\r\n")) << query << ": " << response.body;
  }
  EXPECT_EQ(Call("GET", "/t/multiget?row=r1/zz:a", {kAcceptJson}).status, 500);
}

TEST_F(RestFailureTest, MalformedXmlBodyIsRefused400WithoutABody) {
  for (const char* body : {"", "{", "<CellSet><Row", "{\"Row\":[]}"}) {
    HttpResponse row = Call("PUT", "/t/r2", {kXmlBody}, body);
    EXPECT_EQ(row.status, 400) << body;
    EXPECT_EQ(row.content_type, "") << body;
    EXPECT_EQ(row.body, "") << body;
    HttpResponse scanner = Call("PUT", "/t/scanner", {kXmlBody}, body);
    EXPECT_EQ(scanner.status, 400) << body;
    EXPECT_EQ(scanner.body, "") << body;
  }
}

TEST_F(RestFailureTest, EmptyOrNullJsonRowOrSchemaBodyIsTheResourcesBadRequest) {
  for (const char* body : {"", "  ", "null"}) {
    HttpResponse row = Call("PUT", "/t/r2", {kJsonBody}, body);
    EXPECT_EQ(row.status, 400) << "[" << body << "]";
    EXPECT_EQ(row.content_type, "text/plain");
    EXPECT_TRUE(StartsWith(row.body, "Bad request\r\njava.lang.NullPointerException")) << row.body;
    HttpResponse schema = Call("PUT", "/t2/schema", {kJsonBody}, body);
    EXPECT_EQ(schema.status, 400) << "[" << body << "]";
    EXPECT_TRUE(StartsWith(schema.body, "Bad request\r\n")) << schema.body;
  }
  // The scanner resource fails on it outside its handler: 500, no body.
  HttpResponse scanner = Call("PUT", "/t/scanner", {kJsonBody}, "");
  EXPECT_EQ(scanner.status, 500);
  EXPECT_EQ(scanner.body, "");
}

TEST_F(RestFailureTest, FilterTheScannerResourceCannotBuildIsABadRequestNamingIt) {
  HttpResponse response =
      Call("PUT", "/t/scanner", {kJsonBody}, R"({"filter":"{\"type\":\"Bogus\"}"})");
  EXPECT_EQ(response.status, 400);
  EXPECT_TRUE(StartsWith(response.body, "Bad request\r\n")) << response.body;
  EXPECT_NE(response.body.find("Bogus"), std::string::npos) << response.body;
}

TEST_F(RestFailureTest, TableCreatedInAMissingNamespaceIsUnavailable) {
  for (const char* method : {"PUT", "POST"}) {
    HttpResponse response =
        Call(method, "/nons:t/schema", {kJsonBody},
             R"({"name":"nons:t","ColumnSchema":[{"name":"f"}]})");
    EXPECT_EQ(response.status, 503) << method;
    EXPECT_EQ(response.content_type, "text/plain");
    EXPECT_TRUE(StartsWith(response.body,
                           "Unavailable\r\norg.apache.hadoop.hbase.NamespaceNotFoundException"))
        << response.body;
  }
}

TEST_F(RestFailureTest, StatelessScanThatFailsWhileReadingIsTheContainersRequestFailedPage) {
  // A batch limit with a row filter: HBase's region server refuses it at the first fetch.
  const std::string target = "/t/*?batchsize=2&filter=WHILE%20FirstKeyOnlyFilter()";
  HttpResponse json = Call("GET", target, {kAcceptJson});
  EXPECT_EQ(json.status, 500);
  EXPECT_EQ(json.content_type, "application/json");
  EXPECT_NE(json.body.find("\"message\":\"Request failed.\""), std::string::npos) << json.body;
  HttpResponse protobuf = Call("GET", target, {kAcceptProtobuf});
  EXPECT_EQ(protobuf.status, 500);
  EXPECT_EQ(protobuf.body, "");
}

TEST_F(RestFailureTest, StatelessScanOfAMissingFamilyIsTheContainersRequestFailedPage) {
  for (const char* target : {"/t/*?column=zz:a", "/t/r*?column=zz&reversed=true"}) {
    HttpResponse response = Call("GET", target, {kAcceptJson});
    EXPECT_EQ(response.status, 500) << target;
    EXPECT_NE(response.body.find("\"message\":\"Request failed.\""), std::string::npos)
        << response.body;
  }
}

TEST_F(RestFailureTest, ScannerOfAMissingFamilyReadsAsEndedAtEveryFetch) {
  for (const char* accept : {"application/json", "text/xml", "application/octet-stream"}) {
    HttpResponse opened =
        Call("PUT", "/t/scanner", {kJsonBody}, "{\"column\":[\"" + Base64Encode("zz") + "\"]}");
    ASSERT_EQ(opened.status, 201);
    std::string location;
    for (const auto& [name, value] : opened.headers) {
      if (name == "Location") location = value;
    }
    const std::string path = location.substr(location.find("/t/scanner/"));
    for (int fetch = 0; fetch < 2; ++fetch) {
      HttpResponse response = Call("GET", path, {{"Accept", accept}});
      EXPECT_EQ(response.status, 204) << accept << " fetch " << fetch;
      EXPECT_EQ(response.body, "");
    }
  }
}

TEST_F(RestFailureTest, ScannerOfADisabledTableIsGoneAndDropped) {
  HttpResponse opened = Call("PUT", "/t/scanner", {kJsonBody}, "{}");
  ASSERT_EQ(opened.status, 201);
  std::string location;
  for (const auto& [name, value] : opened.headers) {
    if (name == "Location") location = value;
  }
  const std::string path = location.substr(location.find("/t/scanner/"));
  ASSERT_TRUE(store_->DisableTable("t").ok());
  HttpResponse gone = Call("GET", path, {kAcceptJson});
  EXPECT_EQ(gone.status, 410);
  EXPECT_EQ(gone.body, "Gone\r\n");
  EXPECT_EQ(Call("GET", path, {kAcceptJson}).status, 404);
}

TEST_F(RestFailureTest, NamespaceBodyTheReaderRefusesIsJettysPageWithTheReadersStatus) {
  // The namespace resource reads its body itself: the reader's failure reaches the container.
  HttpResponse xml = Call("POST", "/namespaces/ns1", {kXmlBody, kAcceptJson}, "{");
  EXPECT_EQ(xml.status, 400);
  EXPECT_EQ(xml.content_type, "application/json");
  EXPECT_NE(xml.body.find("\"message\":\"Bad Request\""), std::string::npos) << xml.body;
  // JAXB refuses an empty body too; JSON reads it as no properties.
  EXPECT_EQ(Call("POST", "/namespaces/ns1", {kXmlBody}, "").status, 400);
  HttpResponse json = Call("POST", "/namespaces/ns1", {kJsonBody}, "{");
  EXPECT_EQ(json.status, 500);
  EXPECT_EQ(json.content_type, "text/html;charset=iso-8859-1");
  EXPECT_NE(json.body.find("HTTP ERROR 500 Request failed."), std::string::npos) << json.body;
  EXPECT_EQ(Call("POST", "/namespaces/ns1", {kJsonBody}, "").status, 201);
}

TEST_F(RestFailureTest, MethodNotAllowedAndNotAcceptableAreJettysPagesWithJerseysAllowOrder) {
  auto allow = [](const HttpResponse& response) {
    for (const auto& [name, value] : response.headers) {
      if (name == "Allow") return value;
    }
    return std::string();
  };
  HttpResponse post = Call("POST", "/version", {kAcceptJson});
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.content_type, "application/json");
  EXPECT_NE(post.body.find("\"message\":\"Method Not Allowed\""), std::string::npos);
  EXPECT_EQ(allow(post), "GET,OPTIONS");
  HttpResponse put = Call("PUT", "/version", {kAcceptJson});
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(put.body, "");
  EXPECT_EQ(allow(Call("GET", "/t/scanner", {kAcceptJson})), "POST,OPTIONS,PUT");
  EXPECT_EQ(allow(Call("PATCH", "/t/schema")), "DELETE,POST,GET,OPTIONS,PUT");
  EXPECT_EQ(allow(Call("PATCH", "/t/r1")), "DELETE,POST,GET,OPTIONS,PUT");
  EXPECT_EQ(allow(Call("PATCH", "/namespaces/default")), "DELETE,POST,GET,OPTIONS,PUT");
  HttpResponse refused = Call("GET", "/t/r1", {{"Accept", "text/plain"}});
  EXPECT_EQ(refused.status, 406);
  EXPECT_EQ(refused.content_type, "text/plain;charset=iso-8859-1");
  EXPECT_EQ(refused.body.rfind("HTTP ERROR 406 Not Acceptable\nURI: /t/r1\n", 0), 0u)
      << refused.body;
  EXPECT_EQ(Call("GET", "/t/r1/f:a", {{"Accept", "application/octet-stream"}}).status, 200);
  EXPECT_EQ(Call("GET", "/t/multiget?row=r1", {{"Accept", "application/octet-stream"}}).body, "");
}

}  // namespace
}  // namespace hbemu::server::rest
