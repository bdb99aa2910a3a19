// REST calls through the test controls' gate (faults, the call log) and the metrics' per-method
// series and heat map, as Thrift calls go through theirs.

#include <set>

#include <gtest/gtest.h>

#include "server/admin/known_methods.h"
#include "server/admin/metrics.h"
#include "server/control/control_state.h"
#include "tests/server/rest/rest_testing.h"

namespace hbemu::server::rest {
namespace {

using control::CallQuery;
using control::FaultRule;

class RestCallsTest : public RestDoorTest {
 protected:
  void SetUp() override {
    RestDoorTest::SetUp();
    if (HasFatalFailure()) return;
    door_->SetCallGate(controls_.GateFor("rest"));
    door_->SetMetrics(&metrics_);
    controls_.Refresh();
    ASSERT_TRUE(store_->CreateTable("t", {testutil::Family("f", 3)}).ok());
  }

  // JSON answers; a body is a single value (octet-stream).
  HttpResponse Call(const std::string& method, const std::string& target,
                    const std::string& body = "") {
    Headers headers{kAcceptJson};
    if (!body.empty()) headers.push_back(kOctetBody);
    return RestDoorTest::Call(method, target, std::move(headers), body);
  }

  void AddRule(const nlohmann::json& doc) {
    FaultRule rule;
    std::string error;
    ASSERT_TRUE(FaultRule::FromJson(doc, &rule, &error)) << error;
    int64_t id = 0;
    ASSERT_TRUE(controls_.faults().Add(rule, &id, &error)) << error;
    controls_.Refresh();
  }

  std::vector<control::CallRecord> Logged() {
    return controls_.calls().Query(CallQuery()).calls;
  }

  control::ControlState controls_;
  admin::Metrics metrics_;
};

TEST(RestMethodNameTest, EveryResourceCallHasAKnownNameAndEveryKnownNameAResource) {
  std::set<std::string> named;
  for (const char* method : {"GET", "HEAD", "PUT", "POST", "DELETE"}) {
    for (int e = 0; e < kEndpointCount - 1; ++e) {
      named.insert(RestMethodName(method, static_cast<Endpoint>(e)));
    }
  }
  for (std::string_view known : admin::KnownMethods("rest")) {
    EXPECT_EQ(named.count(std::string(known)), 1u) << known;
  }
  EXPECT_TRUE(admin::IsKnownMethod("rest", RestMethodName("HEAD", Endpoint::kRow)));
  EXPECT_EQ(RestMethodName("HEAD", Endpoint::kRow), "GET /table/row");
  EXPECT_EQ(RestMethodName("GET", Endpoint::kTableScan), "GET /table/prefix*");
  EXPECT_EQ(RestMethodName("DELETE", Endpoint::kScanner), "DELETE /table/scanner/id");
}

TEST_F(RestCallsTest, CallsAreLoggedWithTheirRestNameTableRowAndOutcome) {
  ASSERT_EQ(Call("PUT", "/t/r%201/f:q", "v").status, 200);
  ASSERT_EQ(Call("GET", "/t/nosuch").status, 404);
  ASSERT_EQ(Call("GET", "/t/multiget?row=a&row=b").status, 404);
  const auto calls = Logged();
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].service, "rest");
  EXPECT_EQ(calls[0].call.method, "PUT /table/row");
  EXPECT_EQ(calls[0].call.table, "t");
  EXPECT_EQ(calls[0].call.row, "r 1");
  EXPECT_EQ(calls[0].peer, "127.0.0.1:5555");
  EXPECT_FALSE(calls[0].error);
  EXPECT_EQ(calls[1].call.method, "GET /table/row");
  EXPECT_TRUE(calls[1].error);
  EXPECT_EQ(calls[1].exception, "HTTP 404");
  EXPECT_EQ(calls[1].error_message, "Not found\r\n");
  EXPECT_EQ(calls[2].call.rows, (std::vector<std::string>{"a", "b"}));
}

TEST_F(RestCallsTest, AFailFaultIsAnsweredAsHBasesGatewayAnswersTheException) {
  AddRule({{"service", "rest"}, {"method", "PUT /table/row"}, {"table", "t"},
           {"exception", "org.apache.hadoop.hbase.NotServingRegionException"},
           {"message", "region moving"}, {"times", 1}});
  HttpResponse failed = Call("PUT", "/t/r/f:q", "v");
  EXPECT_EQ(failed.status, 503);
  EXPECT_EQ(failed.body,
            "Unavailable\r\norg.apache.hadoop.hbase.NotServingRegionException: region moving\r\n");
  EXPECT_EQ(Call("GET", "/t/r/f:q").status, 404);  // not written
  EXPECT_EQ(Call("PUT", "/t/r/f:q", "v").status, 200);  // the rule hit once
  const auto calls = Logged();
  EXPECT_EQ(calls[0].fault.rfind("rule ", 0), 0u);
  EXPECT_EQ(calls[0].error_class, "org.apache.hadoop.hbase.NotServingRegionException");

  AddRule({{"service", "rest"}, {"method", "GET *"},
           {"exception", "java.lang.IllegalArgumentException"}, {"message", "bad"},
           {"times", 1}});
  EXPECT_EQ(Call("GET", "/t/r/f:q").body, "Bad request\r\njava.lang.IllegalArgumentException: bad\r\n");
  AddRule({{"service", "*"}, {"method", "*"},
           {"exception", "org.apache.hadoop.hbase.TableNotFoundException"}, {"message", "t"},
           {"times", 1}});
  EXPECT_EQ(Call("GET", "/t/r/f:q").status, 404);
}

TEST_F(RestCallsTest, CloseFaultsCloseWithoutAnAnswerBeforeOrAfterTheCallRuns) {
  AddRule({{"service", "rest"}, {"method", "PUT /table/row"}, {"action", "close_before"},
           {"times", 1}});
  HttpResponse before = Call("PUT", "/t/a/f:q", "v");
  EXPECT_TRUE(before.close_without_reply);
  EXPECT_EQ(Call("GET", "/t/a/f:q").status, 404);
  AddRule({{"service", "rest"}, {"method", "PUT /table/row"}, {"action", "close_after"},
           {"times", 1}});
  HttpResponse after = Call("PUT", "/t/b/f:q", "v");
  EXPECT_TRUE(after.close_without_reply);
  EXPECT_EQ(Call("GET", "/t/b/f:q").status, 200);
}

TEST_F(RestCallsTest, ThriftRulesDoNotHitRestCalls) {
  AddRule({{"service", "thrift1"}, {"method", "*"}, {"message", "x"}});
  EXPECT_EQ(Call("PUT", "/t/r/f:q", "v").status, 200);
}

TEST_F(RestCallsTest, ReadsAndWritesAreCountedPerMethodAndInTheTablesHeatMap) {
  ASSERT_EQ(Call("PUT", "/t/r1/f:q", "v").status, 200);
  ASSERT_EQ(Call("PUT", "/t/r2/f:q", "v").status, 200);
  ASSERT_EQ(Call("GET", "/t/r1/f:q").status, 200);
  ASSERT_EQ(Call("GET", "/t/multiget?row=r1&row=r2").status, 200);
  ASSERT_EQ(Call("GET", "/t/r*").status, 200);
  ASSERT_EQ(Call("DELETE", "/t/r2").status, 200);
  ASSERT_EQ(Call("GET", "/t/nosuch").status, 404);
  std::shared_ptr<admin::TableStats> table = metrics_.FindTable("t");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->rows_written.load(), 3u);  // two puts and a delete
  EXPECT_EQ(table->rows_read.load(), 5u);     // one get, two of the multiget, two scanned
  uint64_t puts = 0;
  uint64_t failed_gets = 0;
  for (const admin::MethodStats* m : metrics_.Methods()) {
    if (m->service != "rest") continue;
    if (m->method == "PUT /table/row") puts = m->calls[0].load();
    if (m->method == "GET /table/row") failed_gets = m->calls[1].load();
  }
  EXPECT_EQ(puts, 2u);
  EXPECT_EQ(failed_gets, 1u);
}

}  // namespace
}  // namespace hbemu::server::rest
