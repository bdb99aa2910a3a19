// The row resource (server/rest/row_handlers.cc) as HBase 2.6.1's RowResource answers.

#include <gtest/gtest.h>

#include "server/rest/base64.h"
#include "tests/server/rest/rest_testing.h"

namespace hbemu::server::rest {
namespace {

struct TestCell {
  std::string column;
  std::string value;
  int64_t timestamp = -1;  // -1: none in the body
};

class RestRowTest : public RestDoorTest {
 protected:
  void SetUp() override {
    RestDoorTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_TRUE(store_->CreateTable("t", {testutil::Family("f", 5)}).ok());
  }

  static std::string CellSet(const std::string& row, const std::vector<TestCell>& cells) {
    std::string body = "{\"Row\":[{\"key\":\"" + Base64Encode(row) + "\",\"Cell\":[";
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) body += ",";
      body += "{\"column\":\"" + Base64Encode(cells[i].column) + "\"";
      if (cells[i].timestamp >= 0) body += ",\"timestamp\":" + std::to_string(cells[i].timestamp);
      body += ",\"$\":\"" + Base64Encode(cells[i].value) + "\"}";
    }
    return body + "]}]}";
  }

  void Put(const std::string& row, const std::vector<TestCell>& cells) {
    ASSERT_EQ(Call("PUT", "/t/" + row, {kJsonBody}, CellSet(row, cells)).status, 200);
  }

  // The JSON CellSet of a GET.
  std::string GetJson(const std::string& path) { return Call("GET", path, {kAcceptJson}).body; }

  static std::string JsonCell(const std::string& column, int64_t ts, const std::string& value) {
    return "{\"column\":\"" + Base64Encode(column) + "\",\"timestamp\":" + std::to_string(ts) +
           ",\"$\":\"" + Base64Encode(value) + "\"}";
  }
};

TEST_F(RestRowTest, OneTimestampInThePathReadsTheNewestVersionBeforeIt) {
  Put("r", {{"f:a", "a10", 10}, {"f:a", "a20", 20}});
  EXPECT_EQ(GetJson("/t/r/f:a/15"),
            "{\"Row\":[{\"key\":\"" + Base64Encode("r") + "\",\"Cell\":[" +
                JsonCell("f:a", 10, "a10") + "]}]}");
  // The end is exclusive: /20 does not see the version written at 20.
  EXPECT_EQ(Call("GET", "/t/r/f:a/20", {kAcceptOctet}).body, "a10");
  EXPECT_EQ(Call("GET", "/t/r/f:a/10", {kAcceptJson}).status, 404);
}

TEST_F(RestRowTest, TimeRangeInThePathReadsStartInclusiveToEndExclusive) {
  Put("r", {{"f:a", "a10", 10}, {"f:a", "a20", 20}, {"f:a", "a30", 30}});
  EXPECT_EQ(GetJson("/t/r/f:a/10,30?v=5"),
            "{\"Row\":[{\"key\":\"" + Base64Encode("r") + "\",\"Cell\":[" +
                JsonCell("f:a", 20, "a20") + "," + JsonCell("f:a", 10, "a10") + "]}]}");
}

TEST_F(RestRowTest, StartCommaEndRowPathReadsEveryRowOfTheRange) {
  Put("a", {{"f:x", "1", 5}});
  Put("b", {{"f:x", "2", 5}});
  Put("c", {{"f:x", "3", 5}});
  const std::string body = GetJson("/t/a,c/f:x");
  EXPECT_NE(body.find(Base64Encode("a")), std::string::npos) << body;
  EXPECT_NE(body.find(Base64Encode("b")), std::string::npos) << body;
  EXPECT_EQ(body.find("\"" + Base64Encode("c") + "\""), std::string::npos) << body;
  // A glob followed by columns is a range too.
  EXPECT_EQ(Call("GET", "/t/b*/f:x", {kAcceptOctet}).body, "2");
}

TEST_F(RestRowTest, OctetStreamPutIgnoresThePathTimestampAndTakesXTimestamp) {
  clock_.Set(5000);
  EXPECT_EQ(Call("PUT", "/t/r/f:a/5", {kOctetBody}, "later").status, 200);
  HttpResponse read = Call("GET", "/t/r/f:a", {kAcceptOctet});
  EXPECT_EQ(read.body, "later");
  EXPECT_EQ(HeaderOf(read, "X-Timestamp"), "5000");
  EXPECT_EQ(Call("PUT", "/t/r/f:a/5", {kOctetBody, {"X-Timestamp", "77"}}, "x").status, 200);
  EXPECT_EQ(HeaderOf(Call("GET", "/t/r/f:a/100", {kAcceptOctet}), "X-Timestamp"), "77");
}

TEST_F(RestRowTest, OctetStreamPutNeedsAPathColumnEvenWithXColumnAndADecimalXTimestamp) {
  HttpResponse no_column = Call("PUT", "/t/r", {kOctetBody, {"X-Column", "f:a"}}, "x");
  EXPECT_EQ(no_column.status, 400);
  EXPECT_EQ(no_column.body,
            "Bad request\r\njava.lang.ArrayIndexOutOfBoundsException: Index 0 out of bounds for "
            "length 0\r\n");
  HttpResponse bad_time = Call("PUT", "/t/r/f:a", {kOctetBody, {"X-Timestamp", "abc"}}, "x");
  EXPECT_EQ(bad_time.body,
            "Bad request\r\njava.lang.NumberFormatException: For input string: \"abc\"\r\n");
}

TEST_F(RestRowTest, OctetStreamGetOfAFamilyGivesItsFirstCellAndOfTwoColumnsIs400) {
  Put("r", {{"f:a", "1", 5}, {"f:b", "2", 5}});
  EXPECT_EQ(Call("GET", "/t/r/f", {kAcceptOctet}).body, "1");
  HttpResponse two = Call("GET", "/t/r/f:a,f:b", {kAcceptOctet});
  EXPECT_EQ(two.status, 400);
  EXPECT_EQ(two.body.rfind("Bad request: Default 'GET' method only works if there is exactly 1 "
                           "column in the row.", 0),
            0u);
}

TEST_F(RestRowTest, CheckPutRefusesAPutOfAnotherColumnAndALoneCheckCell) {
  Put("r", {{"f:a", "old"}});
  HttpResponse other = Call("PUT", "/t/r?check=put", {kJsonBody},
                            CellSet("r", {{"f:b", "x"}, {"f:a", "old"}}));
  EXPECT_EQ(other.status, 400);
  EXPECT_EQ(other.body, "Bad request: The column to put and check do not match.\r\n");
  HttpResponse alone = Call("PUT", "/t/r?check=put", {kJsonBody}, CellSet("r", {{"f:a", "old"}}));
  EXPECT_EQ(alone.status, 400);
  EXPECT_EQ(alone.body,
            "Bad request: Either row key is null or no data found for columns specified.\r\n");
  // Every other cell is written with the matching one.
  EXPECT_EQ(Call("PUT", "/t/r?check=put", {kJsonBody},
                 CellSet("r", {{"f:b", "b"}, {"f:a", "new"}, {"f:a", "old"}}))
                .status,
            200);
  EXPECT_EQ(Call("GET", "/t/r/f:b", {kAcceptOctet}).body, "b");
  EXPECT_EQ(Call("GET", "/t/r/f:a", {kAcceptOctet}).body, "new");
}

TEST_F(RestRowTest, FailedCheckIs304WithTextTypeAndNoBodyAndACheckOfNoCellIs400) {
  Put("r", {{"f:a", "old"}});
  HttpResponse missed = Call("PUT", "/t/r?check=put", {kJsonBody},
                             CellSet("r", {{"f:a", "new"}, {"f:a", "nope"}}));
  EXPECT_EQ(missed.status, 304);
  EXPECT_EQ(missed.content_type, "text/plain");
  EXPECT_EQ(missed.body, "");
  HttpResponse none = Call("PUT", "/t/r?check=delete", {kJsonBody}, CellSet("r", {}));
  EXPECT_EQ(none.status, 400);
  EXPECT_EQ(none.body.rfind("Bad request\r\njava.lang.IndexOutOfBoundsException", 0), 0u);
}

TEST_F(RestRowTest, CheckDeleteRemovesTheOtherCellsOrALoneCheckCellsColumn) {
  Put("r", {{"f:a", "a", 5}, {"f:b", "b", 5}, {"f:c", "c", 5}});
  // The path's column plays no part: the cells before the check are what goes.
  EXPECT_EQ(Call("PUT", "/t/r/f:c?check=delete", {kJsonBody},
                 CellSet("r", {{"f:b", ""}, {"f:a", "nope"}}))
                .status,
            304);
  EXPECT_EQ(Call("PUT", "/t/r/f:c?check=delete", {kJsonBody},
                 CellSet("r", {{"f:b", ""}, {"f:a", "a"}}))
                .status,
            200);
  EXPECT_EQ(Call("GET", "/t/r/f:b", {kAcceptOctet}).status, 404);
  EXPECT_EQ(Call("GET", "/t/r/f:c", {kAcceptOctet}).body, "c");
  EXPECT_EQ(Call("PUT", "/t/r/f:c?check=delete", {kJsonBody}, CellSet("r", {{"f:a", "a"}})).status,
            200);
  EXPECT_EQ(Call("GET", "/t/r/f:a", {kAcceptOctet}).status, 404);
  EXPECT_EQ(Call("GET", "/t/r/f:c", {kAcceptOctet}).body, "c");
}

TEST_F(RestRowTest, CheckAppendAndIncrementAnswerEmptyUnlessRrAsksForTheResult) {
  HttpResponse append = Call("PUT", "/t/r?check=append", {kJsonBody}, CellSet("r", {{"f:s", "ab"}}));
  EXPECT_EQ(append.status, 200);
  EXPECT_EQ(append.body, "");
  HttpResponse increment =
      Call("PUT", "/t/r?check=increment", {kJsonBody}, CellSet("r", {{"f:n", "5"}}));
  EXPECT_EQ(increment.status, 200);
  EXPECT_EQ(increment.body, "");
  HttpResponse appended = Call("PUT", "/t/r?check=append&rr=true", {kJsonBody, kAcceptJson},
                               CellSet("r", {{"f:s", "cd"}}));
  EXPECT_EQ(appended.status, 200);
  EXPECT_NE(appended.body.find(Base64Encode("abcd")), std::string::npos) << appended.body;
  // HBase's increment answers the request's own cells.
  HttpResponse incremented = Call("PUT", "/t/r?check=increment&rr=true", {kJsonBody, kAcceptJson},
                                  CellSet("r", {{"f:n", "2"}}));
  EXPECT_EQ(incremented.status, 200);
  EXPECT_EQ(incremented.body, "{\"Row\":[{\"key\":\"" + Base64Encode("r") + "\",\"Cell\":[" +
                                 JsonCell("f:n", INT64_MAX, "2") + "]}]}");
  EXPECT_EQ(Call("GET", "/t/r/f:n", {kAcceptOctet}).body, std::string("\0\0\0\0\0\0\0\7", 8));
}

TEST_F(RestRowTest, MultigetWithNoRowFoundAnswersNoRowsFound) {
  HttpResponse none = Call("GET", "/t/multiget?row=nope", {kAcceptJson});
  EXPECT_EQ(none.status, 404);
  EXPECT_EQ(none.body, "No rows found.\r\n");
}

TEST_F(RestRowTest, MultigetRowsAreRowPathsWithColumnsAndTimes) {
  Put("r1", {{"f:a", "a10", 10}, {"f:a", "a20", 20}, {"f:b", "b", 5}});
  Put("r 2", {{"f:a", "two", 7}});
  EXPECT_EQ(GetJson("/t/multiget?row=r1/f:a/15"), "{\"Row\":[{\"key\":\"" + Base64Encode("r1") +
                                                      "\",\"Cell\":[" +
                                                      JsonCell("f:a", 10, "a10") + "]}]}");
  // The value is URL-decoded once more: '+' is a space.
  EXPECT_NE(GetJson("/t/multiget?row=r%2B2").find(Base64Encode("r 2")), std::string::npos);
  EXPECT_EQ(Call("GET", "/t/multiget?row=" + Base64Encode("r1") + "&e=b64", {kAcceptJson}).status,
            200);
  EXPECT_EQ(Call("GET", "/t/multiget?row=r1&v=0", {kAcceptJson}).status, 503);
  EXPECT_EQ(Call("GET", "/t/multiget?row=r1&v=x", {kAcceptJson}).status, 500);
  EXPECT_EQ(Call("GET", "/t/multiget?row=r1/nofam:a", {kAcceptJson}).status, 500);
}

TEST_F(RestRowTest, Base64EncodingReadsRowAndColumnFromThePathAndRefusesOtherText) {
  const Headers b64{{"Encoding", "b64"}};
  const std::string path = "/t/" + Base64Encode("r 1") + "/" + Base64Encode("f:a");
  Headers put = b64;
  put.push_back(kOctetBody);
  EXPECT_EQ(Call("PUT", path, put, "x").status, 200);
  Headers get = b64;
  get.push_back(kAcceptOctet);
  EXPECT_EQ(Call("GET", path, get).body, "x");
  EXPECT_EQ(Call("GET", "/t/r%201/f:a", {kAcceptOctet}).body, "x");
  EXPECT_EQ(Call("GET", path + "?e=b64", {kAcceptOctet}).body, "x");
  EXPECT_EQ(Call("GET", "/t/!!notb64", b64).status, 500);
  EXPECT_EQ(Call("DELETE", path, b64).status, 200);
  EXPECT_EQ(Call("GET", "/t/r%201/f:a", {kAcceptOctet}).status, 404);
}

TEST_F(RestRowTest, UnreadablePathsAnswerTheContainersErrorPageAndAZeroVersionCount503) {
  HttpResponse bad_time = Call("GET", "/t/r/f:a/x", {kAcceptJson});
  EXPECT_EQ(bad_time.status, 500);
  EXPECT_NE(bad_time.body.find("\"message\":\"Request failed.\""), std::string::npos);
  HttpResponse no_resource = Call("GET", "/t/a*b", {kAcceptJson});
  EXPECT_EQ(no_resource.status, 404);
  EXPECT_NE(no_resource.body.find("\"message\":\"Not Found\""), std::string::npos);
  EXPECT_NE(Call("GET", "/t/a*b").body.find("<h2>HTTP ERROR 404 Not Found</h2>"),
            std::string::npos);
  EXPECT_EQ(Call("GET", "/t/a*b", {{"Accept", "text/xml"}}).body, "");
  HttpResponse zero = Call("GET", "/t/r?v=0", {kAcceptJson});
  EXPECT_EQ(zero.status, 503);
  EXPECT_EQ(zero.body, "Unavailable\r\njava.io.IOException: versions must be positive\r\n");
}

TEST_F(RestRowTest, MissingFamilyReadsAsNotFoundForARowAndARange) {
  EXPECT_EQ(Call("GET", "/t/r/nofam:x", {kAcceptJson}).body, "Not found\r\n");
  EXPECT_EQ(Call("GET", "/t/a,z/nofam:x", {kAcceptJson}).body, "Not found\r\n");
}

TEST_F(RestRowTest, DeleteWithATimestampRemovesEveryVersionUpToIt) {
  Put("r", {{"f:a", "a10", 10}, {"f:a", "a20", 20}, {"f:a", "a30", 30}});
  EXPECT_EQ(Call("DELETE", "/t/r/f:a/20").status, 200);
  EXPECT_EQ(GetJson("/t/r/f:a?v=5"), "{\"Row\":[{\"key\":\"" + Base64Encode("r") +
                                         "\",\"Cell\":[" + JsonCell("f:a", 30, "a30") + "]}]}");
}

}  // namespace
}  // namespace hbemu::server::rest
