// Hostile REST requests answered without the network: absurd query numbers, scanners that read
// no versions, and REST scanners held against the scanner_bytes budget the Thrift scanners use.

#include <gtest/gtest.h>

#include "server/gateway/scanner_budget.h"
#include "server/gateway/scanner_registry.h"
#include "server/limits.h"
#include "server/rest/base64.h"
#include "server/rest/query_numbers.h"
#include "server/rest/rest_scanners.h"
#include "tests/server/admin/scoped_limits.h"
#include "tests/server/rest/rest_testing.h"

namespace hbemu::server::rest {
namespace {

class RestHostileTest : public RestDoorTest {
 protected:
  void SetUp() override {
    RestDoorTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_TRUE(store_->CreateTable("t", {testutil::Family("f", 3)}).ok());
    ASSERT_EQ(Call("PUT", "/t/r1/f:q", {{"Content-Type", "application/octet-stream"}}, "v1")
                  .status,
              200);
  }

  // Every answer in JSON.
  HttpResponse Call(const std::string& method, const std::string& target, Headers headers = {},
                    std::string body = "") {
    headers.push_back(kAcceptJson);
    return RestDoorTest::Call(method, target, std::move(headers), std::move(body));
  }

  // PUT /t/scanner with `json`; the scanner's path, or "" with *status set.
  std::string OpenScanner(const std::string& json, int* status) {
    HttpResponse r = Call("PUT", "/t/scanner", {{"Content-Type", "application/json"}}, json);
    *status = r.status;
    for (const auto& [name, value] : r.headers) {
      if (name == "Location") return value.substr(value.find("/t/scanner"));
    }
    return "";
  }
};

TEST(RestScannersTest, ScannersPastTheCapForgetTheLongestIdle) {
  // The eviction once erased the map entry whose key it went on to use (a crash at the
  // 101st scanner of a server with open_scanners=100).
  storage::ManualClock clock(1000);
  RestScanners scanners(&clock, 60000, 2);
  std::vector<std::string> ids;
  for (int i = 0; i < 50; ++i) {
    clock.Advance(1);
    ids.push_back(scanners.Add(std::make_shared<RestScanners::Entry>()));
  }
  EXPECT_EQ(scanners.size(), 2u);
  EXPECT_EQ(scanners.Find(ids[47]), nullptr);
  EXPECT_NE(scanners.Find(ids[48]), nullptr);
  EXPECT_NE(scanners.Find(ids[49]), nullptr);
}

TEST(RestScannersTest, TheLongestIdleGoesFirstEvenWithinOneMillisecond) {
  // Scanners used in the same millisecond were once told apart by hash order, so a scanner
  // just fetched could be the one closed. The order of use decides now.
  storage::ManualClock clock(1000);
  RestScanners scanners(&clock, 60000, 100);
  std::vector<std::string> ids;
  for (int i = 0; i < 100; ++i) ids.push_back(scanners.Add(std::make_shared<RestScanners::Entry>()));
  for (int i = 0; i < 100; i += 2) ASSERT_NE(scanners.Find(ids[i]), nullptr);
  for (int i = 0; i < 50; ++i) scanners.Add(std::make_shared<RestScanners::Entry>());
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(scanners.Find(ids[i]) != nullptr, i % 2 == 0) << i;
  }
}

TEST(JavaNumberTest, TakesWhatJavasValueOfTakesWithinTheType) {
  int64_t v = 0;
  EXPECT_TRUE(ParseJavaNumber("+5", INT32_MIN, INT32_MAX, &v));
  EXPECT_EQ(v, 5);
  EXPECT_TRUE(ParseJavaNumber("-2147483648", INT32_MIN, INT32_MAX, &v));
  EXPECT_EQ(v, INT32_MIN);
  EXPECT_TRUE(ParseJavaNumber("-9223372036854775808", INT64_MIN, INT64_MAX, &v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(ParseJavaNumber("9223372036854775807", INT64_MIN, INT64_MAX, &v));
  EXPECT_EQ(v, INT64_MAX);
  for (const char* bad : {"2147483648", "-2147483649", " 5", "5 ", "1.5", "0x10", "abc", "+",
                          "-", "", "99999999999999999999"}) {
    EXPECT_FALSE(ParseJavaNumber(bad, INT32_MIN, INT32_MAX, &v)) << bad;
  }
  EXPECT_FALSE(ParseJavaNumber("9223372036854775808", INT64_MIN, INT64_MAX, &v));
}

TEST_F(RestHostileTest, StatelessScanNumbersJerseyCannotConvertAnswerItsNotFoundPage) {
  for (const char* query : {"limit=abc", "limit=2147483648", "limit=%205", "limit=1.5",
                            "batchsize=99999999999", "batchsize=x", "maxversions=x",
                            "starttime=99999999999999999999", "endtime=y"}) {
    HttpResponse r = Call("GET", std::string("/t/*?") + query);
    EXPECT_EQ(r.status, 404) << query;
    EXPECT_NE(r.body.find("\"message\":\"Not Found\""), std::string::npos) << query << r.body;
  }
}

TEST_F(RestHostileTest, StatelessScanTakesEmptyNumbersAsDefaultsAndNegativeBatchAsNone) {
  const std::string one_row = "{\"Row\":[{\"key\":\"" + Base64Encode("r1") + "\"";
  for (const char* query : {"limit=", "batchsize=", "maxversions=", "batchsize=-1",
                            "batchsize=0", "limit=%2B5", "batchsize=2147483647"}) {
    HttpResponse r = Call("GET", std::string("/t/*?") + query);
    EXPECT_EQ(r.status, 200) << query;
    EXPECT_EQ(r.body.rfind(one_row, 0), 0u) << query << ": " << r.body;
  }
}

TEST_F(RestHostileTest, StatelessScanReadingNoVersionsFindsNoRows) {
  for (const char* query : {"maxversions=0", "maxversions=-1", "limit=-5", "limit=-0"}) {
    HttpResponse r = Call("GET", std::string("/t/*?") + query);
    EXPECT_EQ(r.status, 200) << query;
    EXPECT_EQ(r.body, "{\"Row\":[]}") << query;
  }
}

TEST_F(RestHostileTest, StatelessScanWithANegativeOrInvertedTimeRangeIsJettysRequestFailed) {
  for (const char* query : {"starttime=-5", "endtime=-1", "starttime=10&endtime=5"}) {
    HttpResponse r = Call("GET", std::string("/t/*?") + query);
    EXPECT_EQ(r.status, 500) << query;
    EXPECT_NE(r.body.find("Request failed."), std::string::npos) << query << r.body;
  }
  EXPECT_EQ(Call("GET", "/t/*?starttime=5&endtime=5").body, "{\"Row\":[]}");
}

TEST_F(RestHostileTest, ScannerFetchNumbersJerseyCannotConvertAnswerItsNotFoundPage) {
  int status = 0;
  const std::string scanner = OpenScanner("{}", &status);
  ASSERT_EQ(status, 201);
  for (const char* query : {"n=x", "n=99999999999", "c=x", "c=1e3"}) {
    HttpResponse r = Call("GET", scanner + "?" + query);
    EXPECT_EQ(r.status, 404) << query;
    EXPECT_NE(r.body.find("\"message\":\"Not Found\""), std::string::npos) << query;
  }
  // Out of range but numbers: HBase's defaults; the scanner is untouched by the refusals.
  HttpResponse rows = Call("GET", scanner + "?n=-5&c=0");
  EXPECT_EQ(rows.status, 200);
  EXPECT_NE(rows.body.find(Base64Encode("v1")), std::string::npos);
}

TEST_F(RestHostileTest, ScannerReadingNoVersionsAnswers204) {
  for (const char* body : {"{\"maxVersions\":-1}", "{\"maxVersions\":0}"}) {
    int status = 0;
    const std::string scanner = OpenScanner(body, &status);
    ASSERT_EQ(status, 201) << body;
    EXPECT_EQ(Call("GET", scanner).status, 204) << body;
  }
}

std::string ColumnsJson(int count) {
  std::string json = "{\"column\":[";
  for (int i = 0; i < count; ++i) {
    if (i > 0) json += ",";
    json += "\"" + Base64Encode("f:c" + std::to_string(1000000 + i)) + "\"";
  }
  return json + "]}";
}

TEST_F(RestHostileTest, RestScannersCountAgainstTheScannerBytesTheThriftScannersShare) {
  Limits limits;
  limits.scanner_bytes = 3 << 20;
  admin::ScopedLimits scoped(limits);
  const int64_t before = ScannerBudget::Held();
  const std::string columns = ColumnsJson(20000);  // ~1 MB of scanner state each
  int status = 0;
  const std::string first = OpenScanner(columns, &status);
  ASSERT_EQ(status, 201);
  const int64_t one = ScannerBudget::Held() - before;
  EXPECT_GT(one, 500000);
  EXPECT_EQ(ScannerRegistry::HeldBytes(), ScannerBudget::Held());  // one budget for all doors
  std::vector<std::string> open = {first};
  HttpResponse refused;
  for (int i = 0; i < 10; ++i) {
    HttpResponse r = Call("PUT", "/t/scanner", {{"Content-Type", "application/json"}}, columns);
    if (r.status != 201) {
      refused = r;
      break;
    }
    open.push_back(r.headers.front().second.substr(r.headers.front().second.find("/t/scanner")));
  }
  ASSERT_EQ(refused.status, 503) << "no refusal after " << open.size() << " scanners";
  EXPECT_EQ(refused.body.rfind("Unavailable\r\norg.apache.hadoop.hbase.RegionTooBusyException: "
                               "Above scanner memory limit",
                               0),
            0u)
      << refused.body;
  EXPECT_NE(refused.body.find("scanner_bytes limit of 3145728 bytes"), std::string::npos);
  // A deleted scanner gives its room back.
  EXPECT_EQ(Call("DELETE", open.back()).status, 200);
  int reopened = 0;
  OpenScanner(columns, &reopened);
  EXPECT_EQ(reopened, 201);
}

TEST_F(RestHostileTest, RestScannerRowsReadAheadAreCountedAfterEachFetch) {
  // One row of 200 cells of 10 KB: a fetch of 1 cell keeps the rest of the row in the scanner.
  const std::string value(10000, 'x');
  for (int i = 0; i < 200; ++i) {
    ASSERT_EQ(Call("PUT", "/t/big/f:c" + std::to_string(i),
                   {{"Content-Type", "application/octet-stream"}}, value)
                  .status,
              200);
  }
  int status = 0;
  const std::string scanner = OpenScanner("{\"startRow\":\"" + Base64Encode("big") + "\"}", &status);
  ASSERT_EQ(status, 201);
  const int64_t opened = ScannerBudget::Held();
  ASSERT_EQ(Call("GET", scanner + "?c=1").status, 200);
  EXPECT_GT(ScannerBudget::Held() - opened, 199 * 10000);
  EXPECT_EQ(Call("DELETE", scanner).status, 200);
}

}  // namespace
}  // namespace hbemu::server::rest
