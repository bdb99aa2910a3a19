// The console's navigation, test-control pages, configuration page and number formatting.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "server/admin/console.h"
#include "server/admin/metrics.h"
#include "server/admin/pages.h"
#include "storage/store.h"
#include "tests/server/admin/scoped_limits.h"
#include "tests/test_util.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

json CallsAnswer() {
  return json{{"mark", 3},
              {"enabled", true},
              {"held", 1234},
              {"bytes", 100},
              {"dropped", 0},
              {"calls",
               json::array({json{{"seq", 2},
                                 {"started_unix_ms", 1795934972835},
                                 {"service", "thrift1"},
                                 {"method", "getRowWithColumns"},
                                 {"peer", "127.0.0.1:1"},
                                 {"duration_us", 1234},
                                 {"outcome", "error"},
                                 {"table", "orders"},
                                 {"row", "r1"},
                                 {"exception", "IOError"},
                                 {"error", "boom"},
                                 {"reason", "java.io.IOException: boom"}}})}};
}

json FaultsAnswer() {
  return json{{"rules", json::array({json{{"id", 7},
                                          {"service", "*"},
                                          {"method", "get*"},
                                          {"table", "orders"},
                                          {"row_prefix", ""},
                                          {"action", "fail"},
                                          {"times", -1},
                                          {"probability", 0.1 + 0.2},
                                          {"seed", 0},
                                          {"matched", 12345},
                                          {"triggered", 3},
                                          {"exception", "java.io.IOException"},
                                          {"message", "injected"},
                                          {"can_retry", true}}})},
              {"triggered", {{"fail", 3}, {"delay", 0}}}};
}

class ConsolePagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(nullptr, &store_));
  }

  // A console; with `controls`, its control GETs are answered here and recorded.
  std::unique_ptr<Console> Make(bool controls) {
    ConsoleSources sources;
    sources.store = store_.get();
    sources.metrics = &metrics_;
    sources.version = "test";
    sources.in_memory = true;
    sources.bind_address = "127.0.0.1";
    sources.admin_port = 9095;
    sources.services.push_back({"thrift1", 9090, "framed, any protocol", nullptr, nullptr});
    sources.configuration = {{"command_line", {"--port", "9090", "--limit", "open_scanners=50"}},
                             {"version", {"hbase-emulator 9.9 (commit abc)", "build: Release"}},
                             {"data", "in memory"},
                             {"settings", json::array({json{{"flag", "--idle-timeout-ms"},
                                                            {"value", 60000}}})},
                             {"test_controls_remote", false}};
    if (controls) {
      sources.control_get = [this](const std::string& target) {
        targets_.push_back(target);
        HttpReply reply;
        reply.content_type = "application/json";
        if (target.rfind("/control/calls", 0) == 0) {
          reply.body = CallsAnswer().dump();
        } else if (target == "/control/faults") {
          reply.body = FaultsAnswer().dump();
        } else if (target == "/control/clock") {
          reply.body = json{{"now_ms", 86400000 + 1500},
                            {"frozen", true},
                            {"offset_ms", 0},
                            {"system_ms", 1500}}
                           .dump();
        } else if (target == "/control/snapshots") {
          reply.body = json{{"snapshots", json::array({json{{"name", "seed"},
                                                           {"tables", json::array()},
                                                           {"created_ms", 0},
                                                           {"whole_store", true},
                                                           {"cells", 1500000},
                                                           {"bytes", 3 << 20}}})}}
                           .dump();
        } else {
          reply.status = 404;
          reply.body = json{{"error", "no route"}, {"status", 404}}.dump();
        }
        return reply;
      };
    }
    return std::make_unique<Console>(sources);
  }

  std::unique_ptr<storage::Store> store_;
  Metrics metrics_;
  std::vector<std::string> targets_;
};

TEST_F(ConsolePagesTest, NavigationListsTheTestControlPagesOnlyWhenTheControlsAreOn) {
  const std::string with = Make(true)->Handle("GET", "/").body;
  for (const char* page : {"/calls", "/errors", "/clock", "/faults", "/snapshots", "/config"}) {
    EXPECT_TRUE(Has(with, "<a href=\"" + std::string(page) + "\">")) << page;
  }
  const std::string without = Make(false)->Handle("GET", "/tables").body;
  EXPECT_FALSE(Has(without, "<a href=\"/calls\">"));
  EXPECT_TRUE(Has(without, "<a href=\"/config\">"));
  // And the pages themselves say why they are missing.
  const HttpReply calls = Make(false)->Handle("GET", "/clock");
  EXPECT_EQ(calls.status, 404);
  EXPECT_TRUE(Has(calls.body, "--test-controls"));
}

TEST_F(ConsolePagesTest, CallsPagePassesItsFilterToTheCallLogAndShowsTimeAndAWayToClearIt) {
  auto console = Make(true);
  const HttpReply page = console->Handle("GET", "/calls?table=orders&method=getRow%2A&errors=1");
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(targets_, (std::vector<std::string>{
                          "/control/calls?limit=500&table=orders&method=getRow%2A&errors=1",
                          "/control/faults"}));
  EXPECT_TRUE(Has(page.body, "<th>time</th>"));
  EXPECT_TRUE(Has(page.body, "title=\"2026-11-29T06:49:32.835Z\""));
  EXPECT_TRUE(Has(page.body, ">06:49:32.835<"));
  EXPECT_TRUE(Has(page.body, "id=\"filter\""));
  EXPECT_TRUE(Has(page.body, "on table <code>orders</code>, of method <code>getRow*</code>, that failed"));
  EXPECT_TRUE(Has(page.body, "<a id=\"clear-filter\" href=\"/calls\">"));
  EXPECT_TRUE(Has(page.body, "<input name=\"table\" value=\"orders\">"));
  EXPECT_TRUE(Has(page.body, "1,234 calls held"));
  EXPECT_TRUE(Has(page.body, ">1.23 ms<"));  // duration_us 1234
  // The method links to the page filtered by it, keeping the rest of the filter.
  EXPECT_TRUE(Has(page.body, "href=\"/calls?table=orders&amp;method=getRowWithColumns&amp;errors=1\""));
}

TEST_F(ConsolePagesTest, AnUnfilteredCallsPageShowsNoFilterLine) {
  auto console = Make(true);
  const HttpReply page = console->Handle("GET", "/calls");
  EXPECT_EQ(targets_.at(0), "/control/calls?limit=500");
  EXPECT_FALSE(Has(page.body, "id=\"filter\""));
}

TEST_F(ConsolePagesTest, ErrorsPageAsksForErrorsOnlyAndClearsBackToItself) {
  auto console = Make(true);
  const HttpReply page = console->Handle("GET", "/errors?table=orders");
  EXPECT_EQ(targets_[0], "/control/calls?limit=500&table=orders&errors=1");
  EXPECT_TRUE(Has(page.body, "<h1>Recent errors</h1>"));
  EXPECT_TRUE(Has(page.body, "<a id=\"clear-filter\" href=\"/errors\">"));
  EXPECT_TRUE(Has(page.body, "Fault rules"));
}

TEST_F(ConsolePagesTest, FaultsClockAndSnapshotsPagesRenderTheirControlAnswers) {
  auto console = Make(true);
  const std::string faults = console->Handle("GET", "/faults").body;
  EXPECT_TRUE(Has(faults, "class=\"fault-rule\" data-id=\"7\""));
  EXPECT_TRUE(Has(faults, "<td class=\"num\">always</td>"));
  EXPECT_TRUE(Has(faults, "<td class=\"num\">30%</td>"));  // probability 0.30000000000000004
  EXPECT_TRUE(Has(faults, "<td class=\"num\">12,345</td>"));
  const std::string clock = console->Handle("GET", "/clock").body;
  EXPECT_TRUE(Has(clock, "1970-01-02T00:00:01.500Z"));
  EXPECT_TRUE(Has(clock, "data-frozen=\"true\""));
  EXPECT_TRUE(Has(clock, "data-ms=\"86400000\">24 h 00 min"));
  const std::string snapshots = console->Handle("GET", "/snapshots").body;
  EXPECT_TRUE(Has(snapshots, "data-name=\"seed\""));
  EXPECT_TRUE(Has(snapshots, "the whole store"));
  EXPECT_TRUE(Has(snapshots, "1,500,000"));
  EXPECT_TRUE(Has(snapshots, "3.0 MiB"));
}

TEST_F(ConsolePagesTest, ConfigurationShowsCommandLineDoorsLimitsAndTestControls) {
  Limits changed;
  changed.open_scanners = 50;
  ScopedLimits limits(changed);
  auto console = Make(true);
  const json config = console->Configuration();
  EXPECT_EQ(config["test_controls"], true);
  ASSERT_EQ(config["doors"].size(), 3u);
  EXPECT_EQ(config["doors"][0]["address"], "127.0.0.1:9090");
  EXPECT_EQ(config["doors"][0]["speaks"], "framed, any protocol");
  EXPECT_EQ(config["doors"][1]["name"], "admin");
  EXPECT_EQ(config["doors"][2]["address"], "127.0.0.1:9095/control/");
  bool found = false;
  for (const json& l : config["limits"]) {
    if (l["name"] == "open_scanners") {
      found = true;
      EXPECT_EQ(l["value"], 50);
      EXPECT_EQ(l["default"], Limits().open_scanners);
    }
  }
  EXPECT_TRUE(found);
  const std::string page = console->Handle("GET", "/config").body;
  EXPECT_TRUE(Has(page, "hbase-emulator --port 9090 --limit open_scanners=50"));
  EXPECT_TRUE(Has(page, "hbase-emulator 9.9 (commit abc)"));
  EXPECT_TRUE(Has(page, "class=\"limit changed\" data-name=\"open_scanners\" data-value=\"50\""));
  EXPECT_TRUE(Has(page, "<td>60,000 ms</td>"));
  EXPECT_TRUE(Has(page, "id=\"test-controls\">on<"));
  EXPECT_EQ(json::parse(console->Handle("GET", "/api/config").body)["doors"].size(), 3u);
  const json off = Make(false)->Configuration();
  EXPECT_EQ(off["test_controls"], false);
  EXPECT_EQ(off["doors"][2]["address"], "off");
}

TEST(ConsolePageFormatTest, OverviewShowsCpuTimeUptimeAndCountsForPeople) {
  json o = {{"version", "v"},
            {"started", "2026-11-29T06:00:00.000Z"},
            {"uptime_seconds", 7500},
            {"storage", "in memory"},
            {"store_table_file_bytes", 0},
            {"scanners_open", 0},
            {"calls", 1234567},
            {"errors", 0},
            {"bind_address", "127.0.0.1"},
            {"admin_port", 9095},
            {"services", json::array()},
            {"methods", json::array()},
            {"process",
             {{"resident_bytes", 1 << 20},
              {"cpu_seconds", 0.35781199999999996},
              {"threads", 12},
              {"open_fds", 30}}}};
  const std::string page = RenderOverviewPage(o);
  EXPECT_FALSE(Has(page, "0.35781199999999996 s"));
  EXPECT_TRUE(Has(page, "358 ms CPU"));
  EXPECT_TRUE(Has(page, "2 h 05 min"));
  EXPECT_TRUE(Has(page, "data-count=\"1234567\">1,234,567<"));
}

TEST_F(ConsolePagesTest, MetricsBucketBoundsUseShortestRoundTripText) {
  { CallScope call(&metrics_, "thrift1", "getRow"); }
  const std::string text = Make(false)->Handle("GET", "/metrics").body;
  EXPECT_TRUE(Has(text, "method=\"getRow\",le=\"5e-05\"}")) << text.substr(0, 2000);
  EXPECT_TRUE(Has(text, "le=\"0.0001\"}"));
  EXPECT_TRUE(Has(text, "le=\"+Inf\"}"));
  EXPECT_FALSE(Has(text, "0000000000"));  // no %.17g noise anywhere
}

}  // namespace
}  // namespace hbemu::server::admin
