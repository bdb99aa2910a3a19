#include "server/admin/console.h"
#include "server/gateway/rest_counters.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "server/admin/metrics.h"
#include "server/net/wire_stats.h"
#include "storage/store.h"
#include "tests/server/admin/scoped_limits.h"
#include "tests/test_util.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

class ConsoleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(nullptr, &store_));
    storage::FamilyDescriptor f;
    f.name = "f";
    f.max_versions = 3;
    ASSERT_OK(store_->CreateTable("t", std::vector<storage::FamilyDescriptor>{f}));
    // As main() does: series for existing tables only, with their regions from the start.
    const storage::Store* store = store_.get();
    metrics_.SetTableCatalog(
        [store](std::string_view table) -> std::optional<std::vector<std::string>> {
          std::shared_ptr<const storage::TableDescriptor> descriptor;
          if (!store->DescribeTable(table, &descriptor).ok()) return std::nullopt;
          return descriptor->split_keys;
        },
        [store] {
          std::vector<std::string> names;
          for (const auto& t : store->ListTables()) names.push_back(t->name.ToString());
          return names;
        });
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

TEST_F(ConsoleTest, RowsWithMarkersOnlyLeaveOutPutsAndRowsWithoutMarkers) {
  Put("r1", 1000, "a");
  storage::RowMutation del;
  del.row = "r1";
  del.mutations.push_back({storage::MutationType::kDeleteColumn, "f", "q", 500, ""});
  ASSERT_OK(store_->Mutate("t", del));
  Put("r2", 1000, "b");
  storage::RowMutation family;
  family.row = "r3";
  family.mutations.push_back({storage::MutationType::kDeleteFamily, "f", "", 700, ""});
  ASSERT_OK(store_->Mutate("t", family));

  HttpReply reply = console_->Handle("GET", "/api/tables/t/rows?markers=only");
  ASSERT_EQ(reply.status, 200);
  json page = json::parse(reply.body);
  EXPECT_EQ(page["markers"], "only");
  ASSERT_EQ(page["rows"].size(), 2u);
  EXPECT_EQ(page["rows"][0]["key"], "r1");
  ASSERT_EQ(page["rows"][0]["cells"].size(), 1u);
  EXPECT_EQ(page["rows"][0]["cells"][0]["type"], "DeleteColumn");
  EXPECT_EQ(page["rows"][0]["cells"][0]["timestamp"], 500);
  EXPECT_EQ(page["rows"][1]["key"], "r3");
  EXPECT_EQ(page["rows"][1]["cells"][0]["type"], "DeleteFamily");
  EXPECT_EQ(json::parse(console_->Handle("GET", "/api/tables/t/rows?markers=1").body)["markers"],
            true);
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

// Cells of one page of /api/tables/t/rows, in order, as "row/qualifier".
std::vector<std::string> CellsOf(const json& page) {
  std::vector<std::string> out;
  for (const json& row : page["rows"]) {
    for (const json& cell : row["cells"]) {
      out.push_back(row["key"].get<std::string>() + "/" + cell["qualifier"].get<std::string>());
    }
  }
  return out;
}

TEST_F(ConsoleTest, ValuesKeysAndQualifiersShowTheirFirstBytesAndFullLength) {
  ScopedLimits limits([] {
    Limits l;
    l.admin_value_bytes = 4;
    return l;
  }());
  storage::RowMutation m;
  m.row = "a-long-row";
  m.mutations.push_back({storage::MutationType::kPut, "f", "qualifier", 1, "0123456789"});
  m.mutations.push_back({storage::MutationType::kPut, "f", "q", 1, std::string("\0\0\0\0\0\0\0\x2a", 8)});
  ASSERT_OK(store_->Mutate("t", m));
  json page = console_->Rows("t", {});
  const json& row = page["rows"][0];
  EXPECT_EQ(row["key"], "a-lo");
  EXPECT_EQ(row["key_length"], 10);
  const json& cells = row["cells"];
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0]["qualifier"], "q");
  EXPECT_EQ(cells[0]["length"], 8);
  EXPECT_TRUE(cells[0]["long"].is_null());  // only 4 of its 8 bytes are here
  EXPECT_EQ(cells[1]["qualifier"], "qual");
  EXPECT_EQ(cells[1]["qualifier_length"], 9);
  EXPECT_EQ(cells[1]["text"], "0123");
  EXPECT_EQ(cells[1]["hex"], "30313233");
  EXPECT_EQ(cells[1]["length"], 10);
  EXPECT_TRUE(cells[1]["truncated"].get<bool>());
  HttpReply html = console_->Handle("GET", "/browse/t");
  EXPECT_NE(html.body.find("&hellip; (10 bytes)"), std::string::npos);
}

TEST_F(ConsoleTest, TheCellCapCutsARowAndTheCursorGoesOnWithItsNextCell) {
  ScopedLimits limits([] {
    Limits l;
    l.admin_page_cells = 10;
    return l;
  }());
  storage::RowMutation wide;
  wide.row = "w";
  std::vector<std::string> expected;
  for (int i = 0; i < 25; ++i) {
    const std::string q = "q" + std::to_string(100 + i);
    wide.mutations.push_back({storage::MutationType::kPut, "f", q, 1, "v"});
    expected.push_back("w/" + q);
  }
  ASSERT_OK(store_->Mutate("t", wide));
  Put("x", 1, "v");
  expected.push_back("x/q");

  std::vector<std::string> seen;
  Console::BrowseQuery q;
  q.limit = 5;
  for (int pages = 0; pages < 10; ++pages) {
    json page = console_->Rows("t", q);
    const std::vector<std::string> cells = CellsOf(page);
    EXPECT_LE(cells.size(), 10u);
    seen.insert(seen.end(), cells.begin(), cells.end());
    if (!page.contains("next_cursor")) break;
    EXPECT_EQ(page["ended_by"], "admin_page_cells");
    EXPECT_EQ(page["row_continues"], !page.contains("next_start"));
    q.cursor = page["next_cursor"].get<std::string>();
  }
  EXPECT_EQ(seen, expected);

  HttpReply html = console_->Handle("GET", "/browse/t");
  EXPECT_NE(html.body.find("id=\"page-ended\""), std::string::npos);
  EXPECT_NE(html.body.find("inside a row"), std::string::npos);
  EXPECT_NE(html.body.find("?cursor="), std::string::npos);
  EXPECT_EQ(console_->Handle("GET", "/browse/t?cursor=xyz").status, 400);
  EXPECT_EQ(console_->Handle("GET", "/api/tables/t/rows?cursor=abc").status, 400);
}

TEST_F(ConsoleTest, APageEndsBeforeItsBodyPassesAdminPageBytes) {
  ScopedLimits limits([] {
    Limits l;
    l.admin_page_bytes = 64 << 10;
    return l;
  }());
  for (int i = 0; i < 200; ++i) {
    Put("r" + std::to_string(1000 + i), 1, std::string(1000, '"'));  // 6x in HTML, 2x in JSON
  }
  for (const std::string& target : {"/api/tables/t/rows?limit=200", "/browse/t?limit=200",
                                    "/browse/t?limit=200&format=hex"}) {
    HttpReply reply = console_->Handle("GET", target);
    EXPECT_EQ(reply.status, 200) << target;
    EXPECT_LE(reply.body.size(), 64u << 10) << target;
    EXPECT_GT(reply.body.size(), 32u << 10) << target;  // and uses most of it
  }
  json page = json::parse(console_->Handle("GET", "/api/tables/t/rows?limit=200").body);
  EXPECT_EQ(page["ended_by"], "admin_page_bytes");
  EXPECT_FALSE(page["row_continues"].get<bool>());
  EXPECT_LT(page["rows"].size(), 200u);
  // A page of one cell bigger than the budget still shows that cell, so paging moves on.
  ScopedLimits tiny([] {
    Limits l;
    l.admin_page_bytes = 1;
    return l;
  }());
  page = console_->Rows("t", {});
  EXPECT_EQ(CellsOf(page).size(), 1u);
  EXPECT_EQ(page["next_start"], "r1001");
}

TEST_F(ConsoleTest, TheTablesListEndsAtThePageBudgetAndSaysSo) {
  ScopedLimits limits([] {
    Limits l;
    l.admin_page_bytes = 40 << 10;
    return l;
  }());
  storage::FamilyDescriptor f;
  f.name = "f";
  for (int i = 0; i < 200; ++i) {
    ASSERT_OK(store_->CreateTable("table_" + std::to_string(i), std::vector<storage::FamilyDescriptor>{f}));
  }
  HttpReply api = console_->Handle("GET", "/api/tables");
  ASSERT_EQ(api.status, 200);
  EXPECT_LE(api.body.size(), 40u << 10);
  json doc = json::parse(api.body);
  EXPECT_EQ(doc["ended_by"], "admin_page_bytes");
  EXPECT_EQ(doc["table_count"], 201);
  EXPECT_LT(doc["tables"].size(), 201u);
  HttpReply html = console_->Handle("GET", "/tables");
  ASSERT_EQ(html.status, 200);
  EXPECT_LE(html.body.size(), 40u << 10);
  EXPECT_NE(html.body.find("id=\"page-ended\""), std::string::npos);
}

TEST_F(ConsoleTest, ATableWithThousandsOfRegionsShowsThoseThatFit) {
  ScopedLimits limits([] {
    Limits l;
    l.admin_page_bytes = 256 << 10;
    return l;
  }());
  storage::TableDescriptor spec;
  storage::FamilyDescriptor f;
  f.name = "f";
  spec.families = {f};
  for (int i = 0; i < 5000; ++i) spec.split_keys.push_back("split" + std::to_string(10000 + i));
  ASSERT_OK(store_->CreateTable("many", spec));
  for (const std::string& target : {"/table/many", "/api/tables/many", "/tables", "/api/tables"}) {
    HttpReply reply = console_->Handle("GET", target);
    EXPECT_EQ(reply.status, 200) << target;
    EXPECT_LE(reply.body.size(), 256u << 10) << target;
  }
  json t = console_->Table("many");
  EXPECT_EQ(t["region_count"], 5001);
  EXPECT_LT(t["regions"].size(), 5001u);
  EXPECT_GT(t["regions"].size(), 10u);
}

TEST_F(ConsoleTest, DroppedTablesLeaveMetricsAndTheirPagesAnswer404) {
  storage::FamilyDescriptor f;
  f.name = "f";
  ASSERT_OK(store_->CreateTable("gone", std::vector<storage::FamilyDescriptor>{f}));
  {
    CallScope call(&metrics_, "thrift1", "mutateRow");
    NoteWrite("gone", "r");
  }
  EXPECT_NE(console_->Handle("GET", "/metrics").body.find("{table=\"gone\"}"), std::string::npos);
  ASSERT_OK(store_->DisableTable("gone"));
  ASSERT_OK(store_->DeleteTable("gone"));
  EXPECT_EQ(console_->Handle("GET", "/metrics").body.find("{table=\"gone\"}"), std::string::npos);
  EXPECT_EQ(metrics_.FindTable("gone"), nullptr);
  EXPECT_EQ(console_->Handle("GET", "/table/gone").status, 404);
}

TEST_F(ConsoleTest, TablesNeverCalledShowTheirRegionsAndNoSeriesIsMadeForThem) {
  storage::TableDescriptor spec;
  storage::FamilyDescriptor f;
  f.name = "f";
  spec.families = {f};
  spec.split_keys = {"m"};
  ASSERT_OK(store_->CreateTable("quiet", spec));
  json t = console_->Table("quiet");
  EXPECT_EQ(t["metrics"], "none");
  EXPECT_EQ(t["heat"]["regions"].size(), 2u);
  EXPECT_EQ(metrics_.FindTable("quiet"), nullptr);
}

TEST(ConsoleHelpersTest, JsonTextTurnsBytesThatAreNotUtf8IntoReplacementCharacters) {
  const std::string text = JsonText(json{{"name", std::string("a\xff\xfe", 3)}}, -1);
  EXPECT_EQ(text, "{\"name\":\"a\xef\xbf\xbd\xef\xbf\xbd\"}");
}

TEST(ConsoleWireTest, MetricsTextShowsConnectionsByModeAndOnCallThreads) {
  std::unique_ptr<storage::Store> store;
  ASSERT_OK(testutil::OpenInMemoryStore(nullptr, &store));
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

TEST(ConsoleMetricsTest, AdminPortsRefusedConnectionsAreCountedBesideTheThriftPorts) {
  std::unique_ptr<storage::Store> store;
  ASSERT_OK(testutil::OpenInMemoryStore(nullptr, &store));
  Metrics metrics;
  WireStats wire;
  wire.refused = 4;
  ConsoleSources sources;
  sources.store = store.get();
  sources.metrics = &metrics;
  ServicePort thrift1;
  thrift1.name = "thrift1";
  thrift1.wire = &wire;
  sources.services.push_back(thrift1);
  sources.admin_refused_connections = [] { return uint64_t{7}; };
  Console console(sources);
  const std::string text = console.Handle("GET", "/metrics").body;
  EXPECT_NE(text.find("hbase_emulator_connections_refused_total{service=\"thrift1\"} 4"),
            std::string::npos);
  EXPECT_NE(text.find("hbase_emulator_connections_refused_total{service=\"admin\"} 7"),
            std::string::npos)
      << text;
}

TEST(ConsoleMetricsTest, RestCallsAreExportedByEndpointAndStatusClass) {
  std::unique_ptr<storage::Store> store;
  ASSERT_OK(testutil::OpenInMemoryStore(nullptr, &store));
  Metrics metrics;
  RestCounters rest({"version", "row"});
  rest.Record(1, 200);
  rest.Record(1, 404);
  rest.Record(1, 404);
  ConsoleSources sources;
  sources.store = store.get();
  sources.metrics = &metrics;
  sources.rest_counters = &rest;
  Console console(sources);
  const std::string text = console.Handle("GET", "/metrics").body;
  EXPECT_NE(text.find("hbase_emulator_rest_requests_total{endpoint=\"row\",status=\"2xx\"} 1"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("hbase_emulator_rest_requests_total{endpoint=\"row\",status=\"4xx\"} 2"),
            std::string::npos);
  EXPECT_EQ(text.find("endpoint=\"version\""), std::string::npos);
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
