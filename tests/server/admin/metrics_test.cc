#include "server/admin/metrics.h"

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tests/server/admin/scoped_limits.h"

namespace hbemu::server::admin {
namespace {

uint64_t LatencyCount(const MethodStats& m) {
  uint64_t n = 0;
  for (const auto& c : m.latency) n += c.load();
  return n;
}

TEST(MetricsTest, CallScopeCountsOneCallPerDispatchWithItsOutcome) {
  Metrics metrics;
  { CallScope call(&metrics, "thrift1", "getRow"); }
  {
    CallScope call(&metrics, "thrift1", "getRow");
    NoteCallFailed();
  }
  { CallScope call(&metrics, "thrift2", "get"); }
  MethodStats* get_row = metrics.Method("thrift1", "getRow");
  EXPECT_EQ(get_row->calls[0].load(), 1u);
  EXPECT_EQ(get_row->calls[1].load(), 1u);
  EXPECT_EQ(LatencyCount(*get_row), 2u);
  EXPECT_EQ(metrics.Method("thrift2", "get")->calls[0].load(), 1u);
  // A name the service does not declare (getRow is Thrift1's): the "unknown" entry.
  EXPECT_EQ(metrics.Method("thrift2", "getRow")->method, "unknown");
  EXPECT_EQ(metrics.Method("thrift2", "getRow")->calls[0].load(), 0u);
  ASSERT_EQ(metrics.Methods().size(), 3u);
}

TEST(MetricsTest, AnExceptionLeavingTheDispatchCountsAsAnError) {
  Metrics metrics;
  try {
    CallScope call(&metrics, "thrift1", "mutateRow");
    throw std::runtime_error("bad message");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(metrics.Method("thrift1", "mutateRow")->calls[1].load(), 1u);
}

TEST(MetricsTest, RowNotesCountPerTableOnlyInsideACall) {
  Metrics metrics;
  NoteWrite("t", "row1");  // no call on this thread: nothing counted, nothing created
  EXPECT_TRUE(metrics.Tables().empty());
  {
    CallScope call(&metrics, "thrift1", "mutateRows");
    NoteWrite("t", "row1");
    NoteWrite("t", "row2");
    NoteRead("ns:u", "x");
  }
  std::shared_ptr<TableStats> t = metrics.Table("t");
  EXPECT_EQ(t->rows_written.load(), 2u);
  EXPECT_EQ(t->rows_read.load(), 0u);
  EXPECT_EQ(t->heat.Read(Metrics::NowSeconds()).total_writes['r'], 2u);
  EXPECT_EQ(metrics.Table("ns:u")->rows_read.load(), 1u);
}

TEST(MetricsTest, NullMetricsCountsNothing) {
  CallScope call(nullptr, "thrift1", "getRow");
  NoteWrite("t", "r");
  NoteCallFailed();
  SUCCEED();  // nothing to count into; must simply not crash
}

TEST(MetricsTest, NestedScopesRestoreTheOuterCall) {
  Metrics outer_metrics;
  Metrics inner_metrics;
  CallScope outer(&outer_metrics, "thrift1", "a");
  { CallScope inner(&inner_metrics, "thrift1", "b"); }
  NoteWrite("t", "r");
  EXPECT_EQ(outer_metrics.Table("t")->rows_written.load(), 1u);
  EXPECT_TRUE(inner_metrics.Tables().empty());
}

TEST(MetricsTest, TwoObjectsNeverShareEntriesThroughThePerThreadCache) {
  Metrics a;
  Metrics b;
  MethodStats* in_a = a.Method("thrift1", "get");
  MethodStats* in_b = b.Method("thrift1", "get");
  EXPECT_NE(in_a, in_b);
  EXPECT_EQ(a.Method("thrift1", "get"), in_a);
  EXPECT_EQ(b.Method("thrift1", "get"), in_b);
}

TEST(MetricsTest, CountsFromManyThreadsAddUpExactly) {
  Metrics metrics;
  constexpr int kThreads = 4;
  constexpr int kCalls = 5000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&metrics, t] {
      for (int i = 0; i < kCalls; ++i) {
        CallScope call(&metrics, "thrift1", "mutateRow");
        NoteWrite("t" + std::to_string(t % 2), "row");
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(metrics.Method("thrift1", "mutateRow")->calls[0].load(), uint64_t{kThreads * kCalls});
  EXPECT_EQ(metrics.Table("t0")->rows_written.load(), uint64_t{kThreads / 2 * kCalls});
  EXPECT_EQ(metrics.Table("t1")->rows_written.load(), uint64_t{kThreads / 2 * kCalls});
}

TEST(MetricsTest, ScanRepliesCountEveryRowAsNoteReadWould) {
  Metrics metrics;
  metrics.SetTableCatalog([](std::string_view) { return std::vector<std::string>{"r5"}; }, nullptr);
  storage::RowBatch rows;
  for (const char* row : {"skipped", "r1", "r2", "r2", "r5", "r6", "s", ""}) rows.BeginRow(row);
  {
    CallScope call(&metrics, "thrift1", "scannerGetList");
    NoteReads("batch", rows, 1);  // from the second row on
    for (size_t i = 1; i < rows.size(); ++i) NoteRead("single", rows.row_key(i));
  }
  std::shared_ptr<TableStats> batch = metrics.Table("batch");
  EXPECT_EQ(batch->rows_read.load(), 7u);
  EXPECT_EQ(metrics.Table("single")->rows_read.load(), 7u);
  const HeatMap::Snapshot a = batch->heat.Read(Metrics::NowSeconds());
  const HeatMap::Snapshot b = metrics.Table("single")->heat.Read(Metrics::NowSeconds());
  EXPECT_EQ(a.total_reads, b.total_reads);
  EXPECT_EQ(a.reads, b.reads);
  EXPECT_EQ(a.region_total_reads, b.region_total_reads);
  EXPECT_EQ(a.region_total_reads[1], 3u);
  EXPECT_EQ(a.prefixes.size(), b.prefixes.size());
}

TEST(MetricsTest, BatchWritesCountEveryRowAsNoteWriteWould) {
  Metrics metrics;
  metrics.SetTableCatalog([](std::string_view) { return std::vector<std::string>{"r5"}; }, nullptr);
  const std::vector<std::string> rows = {"r1", "r2", "r2", "r5", "r6", "s", "", "a"};
  {
    CallScope call(&metrics, "thrift1", "mutateRows");
    NoteWrites("batch", rows.size(), [&rows](size_t i) { return std::string_view(rows[i]); });
    for (const std::string& row : rows) NoteWrite("single", row);
  }
  std::shared_ptr<TableStats> batch = metrics.Table("batch");
  EXPECT_EQ(batch->rows_written.load(), 8u);
  EXPECT_EQ(batch->rows_read.load(), 0u);
  const HeatMap::Snapshot a = batch->heat.Read(Metrics::NowSeconds());
  const HeatMap::Snapshot b = metrics.Table("single")->heat.Read(Metrics::NowSeconds());
  EXPECT_EQ(a.total_writes, b.total_writes);
  EXPECT_EQ(a.writes, b.writes);
  EXPECT_EQ(a.region_total_writes, b.region_total_writes);
  EXPECT_EQ(a.region_total_writes[1], 3u);
  EXPECT_EQ(a.prefixes.size(), b.prefixes.size());
}

TEST(MetricsTest, ATablesRegionsAreKnownFromItsFirstCountedCall) {
  Metrics metrics;
  metrics.SetTableCatalog(
      [](std::string_view table) {
        return table == "split" ? std::vector<std::string>{"m"} : std::vector<std::string>{};
      },
      nullptr);
  {
    CallScope call(&metrics, "thrift1", "mutateRow");
    NoteWrite("split", "a");
    NoteWrite("split", "x");
    NoteWrite("plain", "x");
  }
  HeatMap::Snapshot split = metrics.Table("split")->heat.Read(Metrics::NowSeconds());
  EXPECT_EQ(split.regions, 2);
  EXPECT_EQ(split.region_total_writes[0], 1u);
  EXPECT_EQ(split.region_total_writes[1], 1u);
  EXPECT_EQ(metrics.Table("plain")->heat.Read(Metrics::NowSeconds()).regions, 1);
}

TEST(MetricsTest, LatencyLandsInTheBucketOfItsUpperBound) {
  MethodStats m("thrift1", "get");
  m.Record(Outcome::kOk, 50, 0);    // <= 50 us: first bucket
  m.Record(Outcome::kOk, 51, 0);    // second bucket
  m.Record(Outcome::kOk, 99999999, 0);  // +Inf
  EXPECT_EQ(m.latency[0].load(), 1u);
  EXPECT_EQ(m.latency[1].load(), 1u);
  EXPECT_EQ(m.latency[kLatencyBuckets - 1].load(), 1u);
  EXPECT_EQ(m.latency_sum_us.load(), 50u + 51u + 99999999u);
}

// A catalog of the tables in `existing`, each with one region.
void SetCatalog(Metrics* metrics, const std::set<std::string>* existing) {
  metrics->SetTableCatalog(
      [existing](std::string_view table) -> std::optional<std::vector<std::string>> {
        if (existing->count(std::string(table)) == 0) return std::nullopt;
        return std::vector<std::string>{};
      },
      [existing] { return std::vector<std::string>(existing->begin(), existing->end()); });
}

TEST(MetricsTest, MadeUpMethodNamesShareOneUnknownSeriesCountedAsErrors) {
  Metrics metrics;
  for (int i = 0; i < 1000; ++i) {
    CallScope call(&metrics, "thrift1", "madeUp" + std::to_string(i));
  }
  { CallScope call(&metrics, "thrift1", std::string("\xff\xfe", 2)); }
  { CallScope call(&metrics, "thrift1", "getRow"); }
  const auto methods = metrics.Methods();
  ASSERT_EQ(methods.size(), 2u);
  MethodStats* unknown = metrics.Method("thrift1", "another");
  EXPECT_EQ(unknown->method, "unknown");
  EXPECT_EQ(unknown->calls[1].load(), 1001u);  // UNKNOWN_METHOD is an error reply
  EXPECT_EQ(unknown->calls[0].load(), 0u);
  EXPECT_EQ(metrics.Method("thrift1", "getRow")->calls[0].load(), 1u);
}

TEST(MetricsTest, TablesTheCatalogDoesNotKnowAreNotCounted) {
  Metrics metrics;
  const std::set<std::string> existing = {"t"};
  SetCatalog(&metrics, &existing);
  {
    CallScope call(&metrics, "thrift1", "mutateRow");
    NoteWrite("t", "r");
    NoteWrite("gone", "r");
    NoteWrites("gone", 2, [](size_t) { return std::string_view("r"); });
  }
  EXPECT_EQ(metrics.Table("gone"), nullptr);
  ASSERT_EQ(metrics.Tables().size(), 1u);
  EXPECT_EQ(metrics.Tables()[0]->table, "t");
}

TEST(MetricsTest, PastMetricTablesFurtherTablesShareTheOtherSeries) {
  ScopedLimits limits([] {
    Limits l;
    l.metric_tables = 2;
    return l;
  }());
  Metrics metrics;
  const std::set<std::string> existing = {"a", "b", "c", "d"};
  SetCatalog(&metrics, &existing);
  {
    CallScope call(&metrics, "thrift1", "mutateRow");
    for (const char* t : {"a", "b", "c", "d", "c"}) NoteWrite(t, "r");
  }
  std::vector<std::string> names;
  for (const auto& t : metrics.Tables()) names.push_back(t->table);
  EXPECT_EQ(names, (std::vector<std::string>{"(other)", "a", "b"}));
  EXPECT_EQ(metrics.FindTable(Metrics::kOtherTables)->rows_written.load(), 3u);
}

TEST(MetricsTest, RetainTablesRemovesDroppedTablesAndTheSameNameStartsAfresh) {
  Metrics metrics;
  std::set<std::string> existing = {"t", "u"};
  SetCatalog(&metrics, &existing);
  {
    CallScope call(&metrics, "thrift1", "mutateRow");
    NoteWrite("t", "r");
    NoteWrite("u", "r");
  }
  std::shared_ptr<const TableStats> old = metrics.FindTable("t");
  // A listing that misses a table the catalog still has (made since) keeps its series.
  metrics.RetainTables({"u"});
  EXPECT_EQ(metrics.FindTable("t"), old);
  existing.erase("t");  // t is dropped
  metrics.RetainTables({"u"});
  EXPECT_EQ(metrics.FindTable("t"), nullptr);
  ASSERT_EQ(metrics.Tables().size(), 1u);
  // This thread's cache still held t's old entry: it is let go, and t made again counts anew.
  existing.insert("t");
  {
    CallScope call(&metrics, "thrift1", "mutateRow");
    NoteWrite("t", "r");
  }
  ASSERT_NE(metrics.FindTable("t"), nullptr);
  EXPECT_NE(metrics.FindTable("t"), old);
  EXPECT_EQ(metrics.FindTable("t")->rows_written.load(), 1u);
  EXPECT_EQ(old->rows_written.load(), 1u);  // the removed entry stays valid while held
  EXPECT_EQ(metrics.FindTable("u")->rows_written.load(), 1u);
}

TEST(MetricsTest, DroppedTablesAreSweptWhenTheSeriesDoubleWithoutAnyReader) {
  Metrics metrics;
  std::set<std::string> existing;
  SetCatalog(&metrics, &existing);
  // 1,000 tables made, counted and dropped one after another, as a test suite does: the series
  // kept never pass the first sweep's threshold (64) by much.
  for (int i = 0; i < 1000; ++i) {
    const std::string name = "t" + std::to_string(i);
    existing.insert(name);
    {
      CallScope call(&metrics, "thrift1", "mutateRow");
      NoteWrite(name, "r");
    }
    existing.erase(name);
  }
  EXPECT_LE(metrics.Tables().size(), 65u);
}

}  // namespace
}  // namespace hbemu::server::admin
