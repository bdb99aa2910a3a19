#include "server/admin/console.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "server/admin/metrics.h"
#include "server/net/wire_stats.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

class ConsoleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::StoreOptions options;
    options.in_memory = true;
    ASSERT_OK(storage::Store::Open(options, &store_));
    storage::FamilyDescriptor f;
    f.name = "f";
    f.max_versions = 3;
    ASSERT_OK(store_->CreateTable("t", std::vector<storage::FamilyDescriptor>{f}));
    ConsoleSources sources;
    sources.store = store_.get();
    sources.metrics = &metrics_;
    sources.version = "test";
    sources.in_memory = true;
    console_ = std::make_unique<Console>(sources);
  }

  void Put(const std::string& row, int64_t ts, const std::string& value) {
    storage::RowMutation m;
    m.row = row;
    m.mutations.push_back({storage::MutationType::kPut, "f", "q", ts, value});
    ASSERT_OK(store_->Mutate("t", m));
  }

  std::unique_ptr<storage::Store> store_;
  Metrics metrics_;
  std::unique_ptr<Console> console_;
};

TEST_F(ConsoleTest, ProbesAnswerPlainText) {
  EXPECT_EQ(console_->Handle("GET", "/health").status, 200);
  EXPECT_EQ(console_->Handle("GET", "/ready").body, "ready\n");
}

TEST_F(ConsoleTest, UnknownPathsAndMissingTablesAre404Pages) {
  HttpReply unknown = console_->Handle("GET", "/nope");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_NE(unknown.body.find("no page at /nope"), std::string::npos);
  HttpReply missing = console_->Handle("GET", "/table/missing");
  EXPECT_EQ(missing.status, 404);
  EXPECT_NE(missing.body.find("no table named"), std::string::npos);
  HttpReply api = console_->Handle("GET", "/api/tables/missing");
  EXPECT_EQ(api.status, 404);
  EXPECT_EQ(json::parse(api.body)["status"], 404);
}

TEST_F(ConsoleTest, NonUtf8RowKeysAndBadEscapesAre400) {
  EXPECT_EQ(console_->Handle("GET", "/browse/t?start=%FF%FE").status, 400);
  EXPECT_EQ(console_->Handle("GET", "/browse/t?prefix=%C0%80").status, 400);  // overlong
  EXPECT_EQ(console_->Handle("GET", "/browse/t?start=%G1").status, 400);
  EXPECT_EQ(console_->Handle("GET", "/browse/t?start=%4").status, 400);
  EXPECT_EQ(console_->Handle("GET", "/browse/t?limit=abc").status, 400);
  EXPECT_EQ(console_->Handle("GET", "/browse/t?format=octal").status, 400);
  EXPECT_EQ(console_->Handle("GET", "/browse/%FF").status, 400);
  EXPECT_EQ(console_->Handle("GET", "/browse/t?start=%C3%A9").status, 200);  // "é" is fine
}

TEST_F(ConsoleTest, RowsShowEveryVersionAndMarkersOnlyOnRequest) {
  Put("r1", 1000, "a");
  Put("r1", 2000, std::string("\0\0\0\0\0\0\0\x2a", 8));
  storage::RowMutation del;
  del.row = "r1";
  del.mutations.push_back({storage::MutationType::kDeleteColumn, "f", "q", 500, ""});
  ASSERT_OK(store_->Mutate("t", del));
  Put("r2", 1000, "b");

  json rows = console_->Rows("t", {});
  ASSERT_EQ(rows["rows"].size(), 2u);
  const json& r1 = rows["rows"][0]["cells"];
  ASSERT_EQ(r1.size(), 2u);  // both versions, no marker
  EXPECT_EQ(r1[0]["timestamp"], 2000);
  EXPECT_EQ(r1[0]["long"], 42);
  EXPECT_EQ(r1[0]["date"], "1970-01-01T00:00:02.000Z");
  EXPECT_EQ(r1[1]["text"], "a");
  EXPECT_EQ(r1[1]["hex"], "61");

  Console::BrowseQuery with_markers;
  with_markers.markers = true;
  json raw = console_->Rows("t", with_markers);
  ASSERT_EQ(raw["rows"][0]["cells"].size(), 3u);
  EXPECT_EQ(raw["rows"][0]["cells"][2]["type"], "DeleteColumn");
}

TEST_F(ConsoleTest, RowsPageByLimitAndFilterByPrefix) {
  for (const char* row : {"a1", "a2", "a3", "b1"}) Put(row, 1, "v");
  Console::BrowseQuery q;
  q.limit = 2;
  json page = console_->Rows("t", q);
  ASSERT_EQ(page["rows"].size(), 2u);
  EXPECT_EQ(page["next_start"], "a3");
  q.start = "a3";
  page = console_->Rows("t", q);
  EXPECT_EQ(page["rows"][0]["key"], "a3");
  Console::BrowseQuery prefix;
  prefix.prefix = "b";
  page = console_->Rows("t", prefix);
  ASSERT_EQ(page["rows"].size(), 1u);
  EXPECT_EQ(page["rows"][0]["key"], "b1");
  EXPECT_FALSE(page.contains("next_start"));
}

TEST_F(ConsoleTest, TablePageShowsCountsAndHeatFromTheMetrics) {
  Put("row1", 1, "v");
  {
    CallScope call(&metrics_, "thrift1", "mutateRow");
    for (int i = 0; i < 10; ++i) NoteWrite("t", "row" + std::to_string(i));
  }
  json t = console_->Table("t");
  EXPECT_EQ(t["rows_written"], 10);
  EXPECT_EQ(t["regions"].size(), 1u);
  EXPECT_EQ(t["stored_rows"], 1);
  EXPECT_EQ(t["heat"]["spread"]["kind"], "hot");
  EXPECT_EQ(t["heat"]["buckets"][0]["bucket"], "r");
  HttpReply page = console_->Handle("GET", "/table/t");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("data-spread=\"hot\""), std::string::npos);
}

TEST_F(ConsoleTest, BucketPrefixLengthIsChosenByQueryOnThePageAndTheApi) {
  {
    CallScope call(&metrics_, "thrift1", "mutateRows");
    for (const char* salt : {"0", "1", "2", "3"}) {
      for (int i = 0; i < 5; ++i) NoteWrite("t", std::string(salt) + ":" + std::to_string(i));
    }
  }
  json one = json::parse(console_->Handle("GET", "/api/tables/t").body);
  EXPECT_EQ(one["heat"]["prefix_bytes"], 1);
  EXPECT_EQ(one["heat"]["buckets"].size(), 4u);
  json two = json::parse(console_->Handle("GET", "/api/tables/t?prefix_bytes=2").body);
  EXPECT_EQ(two["heat"]["prefix_bytes"], 2);
  ASSERT_EQ(two["heat"]["buckets"].size(), 4u);
  EXPECT_EQ(two["heat"]["buckets"][0]["bucket"], "0:");
  EXPECT_EQ(two["heat"]["buckets"][0]["prefix_hex"], "303a");
  EXPECT_EQ(two["heat"]["buckets"][0]["writes"], 5);
  EXPECT_EQ(two["heat"]["spread"]["kind"], "even");
  json delimited = json::parse(console_->Handle("GET", "/api/tables/t?delimiter=%3A").body);
  EXPECT_EQ(delimited["heat"]["delimiter"], ":");
  EXPECT_EQ(delimited["heat"]["buckets"][3]["bucket"], "3:");

  HttpReply page = console_->Handle("GET", "/table/t?prefix_bytes=2");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<select name=\"prefix_bytes\">"), std::string::npos);
  EXPECT_NE(page.body.find("<option value=\"2\" selected>"), std::string::npos);
  EXPECT_NE(page.body.find("data-label=\"3:\" data-writes=\"5\""), std::string::npos);

  EXPECT_EQ(console_->Handle("GET", "/table/t?prefix_bytes=5").status, 400);
  HttpReply bad = console_->Handle("GET", "/api/tables/t?prefix_bytes=x");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(json::parse(bad.body)["error"].get<std::string>().find("prefix_bytes"), std::string::npos);
  EXPECT_EQ(console_->Handle("GET", "/api/tables/t?delimiter=ab").status, 400);
}

TEST_F(ConsoleTest, HashedKeysPastThePrefixCapAreJudgedEvenByTheirFirstBytes) {
  {
    CallScope call(&metrics_, "thrift1", "mutateRows");
    uint32_t x = 7;
    for (int i = 0; i < 20 * 256; ++i) {  // 20 rows for every first byte, random bytes after it
      x = x * 1664525u + 1013904223u;
      std::string row(1, static_cast<char>(i % 256));
      row += std::string(reinterpret_cast<const char*>(&x), 3);
      NoteWrite("t", row);
    }
  }
  json two = json::parse(console_->Handle("GET", "/api/tables/t?prefix_bytes=2").body);
  EXPECT_TRUE(two["heat"]["prefixes_full"].get<bool>());
  EXPECT_EQ(two["heat"]["tracked_prefixes"], kMaxPrefixes);
  EXPECT_TRUE(two["heat"]["spread"]["by_first_byte"].get<bool>());
  EXPECT_EQ(two["heat"]["spread"]["kind"], "even");
  EXPECT_EQ(two["heat"]["spread"]["buckets_used"], 256);
  uint64_t writes = 0;
  bool has_rest = false;
  for (const json& b : two["heat"]["buckets"]) {
    writes += b["writes"].get<uint64_t>();
    has_rest = has_rest || b["rest"].get<bool>();
  }
  EXPECT_EQ(writes, 20u * 256u);  // nothing goes uncounted
  EXPECT_TRUE(has_rest);
  json one = json::parse(console_->Handle("GET", "/api/tables/t").body);
  EXPECT_FALSE(one["heat"]["spread"]["by_first_byte"].get<bool>());
  EXPECT_EQ(one["heat"]["spread"]["kind"], "even");
}

TEST_F(ConsoleTest, RegionsFollowTheTablesSplitKeysInPagesAndHeat) {
  storage::TableDescriptor spec;
  storage::FamilyDescriptor f;
  f.name = "f";
  spec.families = {f};
  spec.split_keys = {"4", "8", "c"};
  spec.values["OWNER"] = "me";
  ASSERT_OK(store_->CreateTable("split", spec));
  json before = console_->Table("split");  // learns the boundaries
  ASSERT_EQ(before["regions"].size(), 4u);
  EXPECT_EQ(before["regions"][1]["start"], "4");
  EXPECT_EQ(before["regions"][1]["end"], "8");
  EXPECT_EQ(before["attributes"]["OWNER"], "me");
  {
    CallScope call(&metrics_, "thrift2", "put");
    for (const char* row : {"0:a", "5:a", "9:a", "9:b", "f:a"}) NoteWrite("split", row);
  }
  json t = console_->Table("split");
  const json& regions = t["heat"]["regions"];
  ASSERT_EQ(regions.size(), 4u);
  EXPECT_EQ(regions[0]["writes"], 1);
  EXPECT_EQ(regions[1]["writes"], 1);
  EXPECT_EQ(regions[2]["writes"], 2);
  EXPECT_EQ(regions[3]["writes"], 1);
  HttpReply page = console_->Handle("GET", "/table/split");
  EXPECT_NE(page.body.find("id=\"region-count\" data-count=\"4\""), std::string::npos);
}

TEST_F(ConsoleTest, MetricsTextHasCallsTablesLevelDbAndProcess) {
  {
    CallScope call(&metrics_, "thrift2", "put");
    NoteWrite("t", "x");
  }
  const std::string text = console_->Handle("GET", "/metrics").body;
  EXPECT_NE(text.find("hbase_emulator_calls_total{service=\"thrift2\",method=\"put\",outcome=\"ok\"} 1"),
            std::string::npos);
  EXPECT_NE(text.find("hbase_emulator_table_rows_written_total{table=\"t\"} 1"), std::string::npos);
  EXPECT_NE(text.find("hbase_emulator_leveldb_files{level=\"0\"}"), std::string::npos);
  EXPECT_NE(text.find("process_resident_memory_bytes "), std::string::npos);
  EXPECT_NE(text.find("# TYPE hbase_emulator_call_duration_seconds histogram"), std::string::npos);
}

TEST(ConsoleWireTest, MetricsTextShowsConnectionsByModeAndOnCallThreads) {
  std::unique_ptr<storage::Store> store;
  storage::StoreOptions options;
  options.in_memory = true;
  ASSERT_OK(storage::Store::Open(options, &store));
  Metrics metrics;
  WireStats wire;
  wire.open[WireStats::ModeIndex({WireTransport::kFramed, WireProtocol::kCompact})] = 3;
  wire.on_call_threads = 2;
  ConsoleSources sources;
  sources.store = store.get();
  sources.metrics = &metrics;
  ServicePort thrift1;
  thrift1.name = "thrift1";
  thrift1.wire = &wire;
  sources.services.push_back(thrift1);
  Console console(sources);
  const std::string text = console.Handle("GET", "/metrics").body;
  EXPECT_NE(text.find("hbase_emulator_connections{service=\"thrift1\",mode=\"framed_compact\"} 3"),
            std::string::npos);
  EXPECT_NE(text.find("hbase_emulator_connections_on_call_threads{service=\"thrift1\"} 2"),
            std::string::npos)
      << text;
}

TEST(ConsoleHelpersTest, ToStringBinaryEscapesLikeHBase) {
  EXPECT_EQ(ToStringBinary(std::string("a\x00\xff\\", 4)), "a\\x00\\xFF\\x5C");
  EXPECT_EQ(UtcDate(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(HtmlEscape("<a href='x'>&</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;");
  EXPECT_TRUE(IsValidUtf8("h\xc3\xa9llo"));
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));  // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));      // cut short
}

}  // namespace
}  // namespace hbemu::server::admin
