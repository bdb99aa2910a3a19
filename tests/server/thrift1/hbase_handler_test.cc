// The Hbase handler called in-process (no socket): the Thrift-edge translation rules of
// docs/thrift-api.md#thrift1-the-hbase-service — column specs, result shapes, exception types and
// messages, the mutateRow/mutateRows ordering, and the scanner lifecycle.

#include "server/thrift1/hbase_handler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>

#include "server/gateway/scanner_registry.h"
#include "server/limits.h"
#include "server/thrift1/errors.h"
#include "storage/clock.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::server {
namespace {

using thrift::BatchMutation;
using thrift::ColumnDescriptor;
using thrift::Mutation;
using thrift::TCell;
using thrift::TRowResult;

const std::map<std::string, std::string> kNoAttrs;

Mutation Put(const std::string& column, const std::string& value) {
  Mutation m;
  m.column = column;
  m.value = value;
  return m;
}

Mutation Delete(const std::string& column) {
  Mutation m;
  m.isDelete = true;
  m.column = column;
  return m;
}

ColumnDescriptor Family(const std::string& name, int versions = 3) {
  ColumnDescriptor d;
  d.name = name;
  d.maxVersions = versions;
  return d;
}

class HbaseHandlerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    scanners_ = std::make_unique<ScannerRegistry>(&clock_, 60000);
    handler_ = std::make_unique<HbaseHandler>(store_.get(), scanners_.get(),
                                              HbaseHandler::Options());
    handler_->createTable("t", {Family("f:"), Family("g")});
  }

  std::vector<TCell> Get(const std::string& row, const std::string& column) {
    std::vector<TCell> cells;
    handler_->get(cells, "t", row, column, kNoAttrs);
    return cells;
  }

  storage::ManualClock clock_{1'700'000'000'000};
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<ScannerRegistry> scanners_;
  std::unique_ptr<HbaseHandler> handler_;
};

TEST_F(HbaseHandlerTest, TrailingColonMeansEmptyQualifierNotFamily) {
  handler_->mutateRow("t", "r", {Put("f:", "e"), Put("f:a", "x")}, kNoAttrs);
  const auto empty_only = Get("r", "f:");
  ASSERT_EQ(empty_only.size(), 1u);
  EXPECT_EQ(empty_only[0].value, "e");
  EXPECT_EQ(Get("r", "f").size(), 2u);  // the bare family: every column, newest each
}

TEST_F(HbaseHandlerTest, GetVerTsExcludesTheGivenTimestamp) {
  for (int64_t ts : {10, 20, 30}) {
    handler_->mutateRowTs("t", "r", {Put("f:q", "v" + std::to_string(ts))}, ts, kNoAttrs);
  }
  std::vector<TCell> cells;
  handler_->getVerTs(cells, "t", "r", "f:q", 30, 3, kNoAttrs);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].timestamp, 20);
  EXPECT_EQ(cells[1].timestamp, 10);
}

TEST_F(HbaseHandlerTest, GetVerWithNonPositiveVersionsIsRetryableIOError) {
  std::vector<TCell> cells;
  try {
    handler_->getVer(cells, "t", "r", "f:q", 0, kNoAttrs);
    FAIL() << "expected IOError";
  } catch (const thrift::IOError& e) {
    EXPECT_NE(e.message.find("versions must be positive"), std::string::npos);
    EXPECT_TRUE(e.canRetry);
  }
}

// A clock that moves one millisecond every time it is read, so each storage operation gets
// its own "now", as two separate region operations on a real server usually do.
class SteppingClock : public storage::Clock {
 public:
  int64_t NowMillis() const override { return now_.fetch_add(1); }

 private:
  mutable std::atomic<int64_t> now_{1'700'000'000'000};
};

TEST(HbaseHandlerOrderTest, MutateRowAppliesDeletesBeforePuts) {
  SteppingClock clock;
  std::unique_ptr<storage::Store> store;
  ASSERT_OK(testutil::OpenInMemoryStore(&clock, &store));
  ScannerRegistry scanners(&clock, 60000);
  HbaseHandler handler(store.get(), &scanners, HbaseHandler::Options());
  handler.createTable("t", {Family("f")});
  // Listed put-then-delete, applied delete-then-put: the put lands after the marker.
  handler.mutateRow("t", "r", {Put("f:a", "new"), Delete("f:a")}, kNoAttrs);
  std::vector<TCell> cells;
  handler.get(cells, "t", "r", "f:a", kNoAttrs);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, "new");
}

TEST_F(HbaseHandlerTest, MutateRowDeleteAndPutInSameMillisecondLeaveColumnMasked) {
  // HBase's known hazard: both operations read the same "now", and a marker covers a put
  // with an equal timestamp.
  handler_->mutateRow("t", "r", {Put("f:a", "new"), Delete("f:a")}, kNoAttrs);
  EXPECT_TRUE(Get("r", "f:a").empty());
}

TEST_F(HbaseHandlerTest, MutateRowWithExplicitTimestampDeleteMasksPutAtSameTs) {
  handler_->mutateRowTs("t", "r", {Put("f:a", "x"), Delete("f:a")}, 100, kNoAttrs);
  EXPECT_TRUE(Get("r", "f:a").empty());
}

TEST_F(HbaseHandlerTest, MutateRowsAppliesPutsBeforeDeletesSoColumnEndsDeleted) {
  BatchMutation b;
  b.row = "r";
  b.mutations = {Delete("f:a"), Put("f:a", "x")};
  handler_->mutateRows("t", {b}, kNoAttrs);
  EXPECT_TRUE(Get("r", "f:a").empty());
}

TEST_F(HbaseHandlerTest, FamilyOnlyPutIsSkippedInMutateRowButFailsMutateRows) {
  handler_->mutateRow("t", "r", {Put("f", "ignored"), Put("f:b", "kept")}, kNoAttrs);
  EXPECT_EQ(Get("r", "f").size(), 1u);

  BatchMutation b;
  b.row = "r2";
  b.mutations = {Put("f:ok", "1"), Put("f", "bad")};
  EXPECT_THROW(handler_->mutateRows("t", {b}, kNoAttrs), ApplicationError);
  EXPECT_TRUE(Get("r2", "f").empty()) << "nothing may be applied";
}

BatchMutation Row(const std::string& row, std::vector<Mutation> mutations) {
  BatchMutation b;
  b.row = row;
  b.mutations = std::move(mutations);
  return b;
}

// The message of the IOError `call` throws ("" if it throws nothing).
template <class Call>
std::string IOErrorOf(Call&& call) {
  try {
    call();
  } catch (const thrift::IOError& e) {
    return e.message;
  }
  return "";
}

TEST_F(HbaseHandlerTest, MutateRowsToAMissingTableFailsItsPutsOrElseItsDeletes) {
  const std::string batch_failed =
      "org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException: ";
  EXPECT_EQ(IOErrorOf([&] {
              handler_->mutateRows("nope", {Row("a", {Put("f:q", "1"), Delete("f:x")}),
                                            Row("b", {Delete("f:x")}), Row("c", {Put("g:", "")})},
                                   kNoAttrs);
            }),
            batch_failed + "Failed 2 actions: nope: 2 times, servers with issues: null");
  EXPECT_EQ(IOErrorOf([&] {
              handler_->mutateRows("nope", {Row("a", {Delete("f:x")}), Row("b", {Delete("g")})},
                                   kNoAttrs);
            }),
            batch_failed + "Failed 2 actions: nope: 2 times, servers with issues: null");
  // Nothing to send: HBase never looks the table up.
  EXPECT_EQ(IOErrorOf([&] { handler_->mutateRows("nope", {Row("a", {})}, kNoAttrs); }), "");
  EXPECT_EQ(IOErrorOf([&] { handler_->mutateRows("nope", {}, kNoAttrs); }), "");
}

TEST_F(HbaseHandlerTest, MutateRowsChecksEveryRowBeforeFindingTheTableMissing) {
  EXPECT_THROW(handler_->mutateRows("nope", {Row("a", {Put("f:q", "1")}), Row("", {})}, kNoAttrs),
               ApplicationError);
  EXPECT_THROW(
      handler_->mutateRows("nope", {Row("a", {Put("f:q", "1")}), Row("b", {Put("f", "x")})},
                           kNoAttrs),
      ApplicationError);
}

TEST_F(HbaseHandlerTest, MutateRowsToADisabledTableIsNotServingAndWritesNothing) {
  handler_->disableTable("t");
  const std::string message = IOErrorOf(
      [&] { handler_->mutateRows("t", {Row("a", {Put("f:q", "1")})}, kNoAttrs); });
  EXPECT_NE(message.find("Failed 1 action: NotServingRegionException: 1 time, "),
            std::string::npos)
      << message;
  handler_->enableTable("t");
  EXPECT_TRUE(Get("a", "f:q").empty());
}

TEST_F(HbaseHandlerTest, EmptyRowIsIllegalArgumentInMutateRowButApplicationErrorInGet) {
  EXPECT_THROW(handler_->mutateRow("t", "", {Put("f:a", "x")}, kNoAttrs), thrift::IllegalArgument);
  EXPECT_THROW(Get("", "f:a"), ApplicationError);
}

TEST_F(HbaseHandlerTest, MissingTableIsIOErrorNamingJavaException) {
  std::vector<TRowResult> rows;
  try {
    handler_->getRow(rows, "nope", "r", kNoAttrs);
    FAIL() << "expected IOError";
  } catch (const thrift::IOError& e) {
    EXPECT_EQ(e.message.rfind("org.apache.hadoop.hbase.TableNotFoundException: nope", 0), 0u)
        << e.message;
    EXPECT_FALSE(e.canRetry);
  }
}

TEST_F(HbaseHandlerTest, UnknownFamilyIsNoSuchColumnFamilyIOError) {
  try {
    handler_->mutateRow("t", "r", {Put("x:q", "v")}, kNoAttrs);
    FAIL() << "expected IOError";
  } catch (const thrift::IOError& e) {
    EXPECT_NE(e.message.find("NoSuchColumnFamilyException"), std::string::npos) << e.message;
  }
}

TEST_F(HbaseHandlerTest, CreateTableErrorsFollowHBase) {
  EXPECT_THROW(handler_->createTable("t", {Family("f")}), thrift::AlreadyExists);
  EXPECT_THROW(handler_->createTable("bad name", {Family("f")}), ApplicationError);
  ColumnDescriptor bad_codec = Family("f");
  bad_codec.compression = "NOPE";
  EXPECT_THROW(handler_->createTable("t2", {bad_codec}), thrift::IllegalArgument);
  ColumnDescriptor bad_bloom = Family("f");
  bad_bloom.bloomFilterType = "row";  // case-sensitive in HBase
  EXPECT_THROW(handler_->createTable("t2", {bad_bloom}), thrift::IllegalArgument);
  EXPECT_THROW(handler_->createTable("t2", {}), thrift::IOError);
  EXPECT_THROW(handler_->createTable("nsx:t", {Family("f")}), thrift::IOError);
}

TEST_F(HbaseHandlerTest, ColumnDescriptorsAreKeyedWithTrailingColon) {
  std::map<std::string, ColumnDescriptor> families;
  handler_->getColumnDescriptors(families, "t");
  ASSERT_EQ(families.size(), 2u);
  EXPECT_EQ(families.at("f:").name, "f:");
  EXPECT_EQ(families.at("f:").maxVersions, 3);
  EXPECT_EQ(families.at("f:").timeToLive, 2147483647);
  EXPECT_EQ(families.at("g:").bloomFilterType, "NONE");
}

TEST_F(HbaseHandlerTest, TableLifecycleErrors) {
  try {
    handler_->deleteTable("missing");
    FAIL();
  } catch (const thrift::IOError& e) {
    EXPECT_NE(e.message.find("table does not exist"), std::string::npos);
    EXPECT_TRUE(e.canRetry);
  }
  EXPECT_THROW(handler_->deleteTable("t"), thrift::IOError);  // still enabled
  EXPECT_THROW(handler_->enableTable("t"), thrift::IOError);  // already enabled
  handler_->disableTable("t");
  EXPECT_FALSE(handler_->isTableEnabled("t"));
  try {
    Get("r", "f:a");
    FAIL();
  } catch (const thrift::IOError& e) {
    EXPECT_NE(e.message.find("TableNotEnabledException"), std::string::npos);
  }
  std::map<std::string, ColumnDescriptor> families;
  handler_->getColumnDescriptors(families, "t");  // still works on a disabled table
  handler_->deleteTable("t");
  std::vector<std::string> names;
  handler_->getTableNames(names);
  EXPECT_TRUE(names.empty());
}

TEST_F(HbaseHandlerTest, TableRegionsOfMissingTableIsEmptyList) {
  std::vector<thrift::TRegionInfo> regions;
  handler_->getTableRegions(regions, "missing");
  EXPECT_TRUE(regions.empty());
  handler_->getTableRegions(regions, "t");
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].startKey, "");
  EXPECT_EQ(regions[0].endKey, "");
  EXPECT_EQ(regions[0].version, 1);
  EXPECT_EQ(regions[0].name.rfind("t,,", 0), 0u);
  thrift::TRegionInfo info;
  handler_->getRegionInfo(info, "t,somerow,99999999999999");
  EXPECT_EQ(info.name, regions[0].name);
}

TEST_F(HbaseHandlerTest, TableNamesOmitDefaultPrefix) {
  ASSERT_TRUE(store_->CreateNamespace("ns1").ok());
  handler_->createTable("default:t3", {Family("f")});
  handler_->createTable("ns1:t1", {Family("f")});
  std::vector<std::string> names;
  handler_->getTableNames(names);
  EXPECT_EQ(names, (std::vector<std::string>{"t", "t3", "ns1:t1"}));
}

TEST_F(HbaseHandlerTest, RowResultsCarryNewestVersionAndDropMissingRows) {
  handler_->mutateRowTs("t", "a", {Put("f:q", "old")}, 1, kNoAttrs);
  handler_->mutateRowTs("t", "a", {Put("f:q", "new")}, 2, kNoAttrs);
  std::vector<TRowResult> rows;
  handler_->getRows(rows, "t", {"a", "missing", "a"}, kNoAttrs);
  ASSERT_EQ(rows.size(), 2u);  // missing rows are dropped, repeated rows repeated
  EXPECT_EQ(rows[0].columns.at("f:q").value, "new");
  EXPECT_FALSE(rows[0].__isset.sortedColumns);
  rows.clear();
  handler_->getRowTs(rows, "t", "a", 2, kNoAttrs);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].columns.at("f:q").value, "old");
}

TEST_F(HbaseHandlerTest, AtomicIncrementUsesEightByteBigEndianAndRejectsOtherWidths) {
  EXPECT_EQ(handler_->atomicIncrement("t", "r", "f:c", 5), 5);
  EXPECT_EQ(handler_->atomicIncrement("t", "r", "f:c", -7), -2);
  EXPECT_EQ(Get("r", "f:c")[0].value, std::string("\xff\xff\xff\xff\xff\xff\xff\xfe", 8));
  EXPECT_EQ(handler_->atomicIncrement("t", "r", "f", 1), 1) << "bare family = empty qualifier";
  handler_->mutateRow("t", "r", {Put("f:s", "10")}, kNoAttrs);
  try {
    handler_->atomicIncrement("t", "r", "f:s", 1);
    FAIL();
  } catch (const thrift::IOError& e) {
    EXPECT_NE(e.message.find("Field is not a long, it's 2 bytes wide"), std::string::npos);
    EXPECT_FALSE(e.canRetry);
  }
}

TEST_F(HbaseHandlerTest, CheckAndPutWithEmptyExpectedPassesOnlyWhenAbsent) {
  Mutation put = Put("f:q", "x");
  EXPECT_TRUE(handler_->checkAndPut("t", "r", "f:q", "", put, kNoAttrs));
  EXPECT_FALSE(handler_->checkAndPut("t", "r", "f:q", "", put, kNoAttrs));
  put.isDelete = true;  // ignored by HBase: still a put
  put.value = "y";
  EXPECT_TRUE(handler_->checkAndPut("t", "r", "f:q", "x", put, kNoAttrs));
  EXPECT_EQ(Get("r", "f:q")[0].value, "y");
  EXPECT_THROW(handler_->checkAndPut("t", "r", "f", "", put, kNoAttrs), ApplicationError);
}

TEST_F(HbaseHandlerTest, AppendAndIncrementValidateTheirArguments) {
  thrift::TAppend app;
  app.table = "t";
  app.row = "r";
  app.columns = {"f:s"};
  app.values = {"ab"};
  std::vector<TCell> cells;
  handler_->append(cells, app);
  handler_->append(cells, app);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, "abab");
  app.values.push_back("extra");
  EXPECT_THROW(handler_->append(cells, app), ApplicationError);

  thrift::TIncrement inc;
  inc.table = "t";
  inc.row = "r";
  inc.column = "f:n";
  inc.ammount = 3;
  handler_->incrementRows({inc, inc});
  EXPECT_EQ(Get("r", "f:n")[0].value, std::string("\0\0\0\0\0\0\0\6", 8));
  inc.row = "";
  EXPECT_THROW(handler_->increment(inc), ApplicationError);
}

TEST_F(HbaseHandlerTest, ScannerIdsStartAtZeroAndExhaustedScannerReturnsEmpty) {
  for (const char* row : {"a", "b", "c"}) handler_->mutateRow("t", row, {Put("f:q", row)}, kNoAttrs);
  const int32_t first = handler_->scannerOpen("t", "", {}, kNoAttrs);
  const int32_t second = handler_->scannerOpenWithStop("t", "b", "c", {"f:q"}, kNoAttrs);
  EXPECT_EQ(first, 0);
  EXPECT_EQ(second, 1);
  std::vector<TRowResult> rows;
  handler_->scannerGetList(rows, first, 2);
  EXPECT_EQ(rows.size(), 2u);
  rows.clear();
  handler_->scannerGetList(rows, first, 10);
  EXPECT_EQ(rows.size(), 1u);
  for (int i = 0; i < 2; ++i) {
    rows.clear();
    handler_->scannerGet(rows, first);
    EXPECT_TRUE(rows.empty());
  }
  rows.clear();
  handler_->scannerGetList(rows, second, 10);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].row, "b");
  handler_->scannerClose(first);
  EXPECT_THROW(handler_->scannerClose(first), thrift::IllegalArgument);
  EXPECT_THROW(handler_->scannerGet(rows, 12345), thrift::IllegalArgument);
  EXPECT_THROW(handler_->scannerGetList(rows, second, -1), ApplicationError);
}

TEST_F(HbaseHandlerTest, IdleScannerExpiresAfterTimeout) {
  handler_->mutateRow("t", "a", {Put("f:q", "1")}, kNoAttrs);
  const int32_t id = handler_->scannerOpen("t", "", {}, kNoAttrs);
  clock_.Advance(59'000);
  std::vector<TRowResult> rows;
  handler_->scannerGetList(rows, id, 0);  // touching it restarts the idle timer
  clock_.Advance(59'000);
  handler_->scannerGetList(rows, id, 1);
  EXPECT_EQ(rows.size(), 1u);
  clock_.Advance(60'001);
  EXPECT_THROW(handler_->scannerGetList(rows, id, 1), thrift::IllegalArgument);
  EXPECT_EQ(scanners_->size(), 0u);
}

// Sets some limits for one test, and puts the previous ones back.
class LimitsForTest {
 public:
  explicit LimitsForTest(const std::function<void(Limits*)>& change)
      : saved_(CurrentLimits()) {
    Limits limits = saved_;
    change(&limits);
    SetLimits(limits);
  }
  ~LimitsForTest() { SetLimits(saved_); }

 private:
  const Limits saved_;
};

TEST_F(HbaseHandlerTest, ScannerFetchReturnsAtMostScannerRowsPerCallAndTheScanGoesOn) {
  for (int i = 0; i < 10; ++i) {
    handler_->mutateRow("t", "r" + std::to_string(i), {Put("f:q", "v")}, kNoAttrs);
  }
  LimitsForTest limits([](Limits* l) { l->scanner_rows_per_call = 4; });
  const int32_t id = handler_->scannerOpen("t", "", {}, kNoAttrs);
  std::vector<size_t> sizes;
  for (int i = 0; i < 4; ++i) {
    std::vector<TRowResult> rows;
    handler_->scannerGetList(rows, id, INT32_MAX);
    sizes.push_back(rows.size());
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{4, 4, 2, 0}));
}

TEST_F(HbaseHandlerTest, ScannerFetchStopsAddingRowsPastReplyBytes) {
  for (int i = 0; i < 6; ++i) {
    handler_->mutateRow("t", "r" + std::to_string(i), {Put("f:q", std::string(100, 'x'))},
                        kNoAttrs);
  }
  // Each row holds 2 + 1 + 1 + 100 bytes: the third row takes a fetch past 250.
  LimitsForTest limits([](Limits* l) { l->reply_bytes = 250; });
  const int32_t id = handler_->scannerOpen("t", "", {}, kNoAttrs);
  std::vector<std::string> first;
  for (int fetch = 0; fetch < 3; ++fetch) {
    std::vector<TRowResult> rows;
    handler_->scannerGetList(rows, id, 100);
    ASSERT_EQ(rows.size(), fetch < 2 ? 3u : 0u) << fetch;
    for (const TRowResult& row : rows) first.push_back(row.row);
  }
  EXPECT_EQ(first, (std::vector<std::string>{"r0", "r1", "r2", "r3", "r4", "r5"}));
}

TEST_F(HbaseHandlerTest, ScanWithBatchSizeSplitsWideRowsAndSortColumnsGivesList) {
  std::vector<Mutation> puts;
  for (const char* q : {"c1", "c2", "c3", "c4", "c5"}) puts.push_back(Put(std::string("f:") + q, q));
  handler_->mutateRow("t", "r", puts, kNoAttrs);
  thrift::TScan scan;
  scan.__set_batchSize(2);
  scan.__set_sortColumns(true);
  const int32_t id = handler_->scannerOpenWithScan("t", scan, kNoAttrs);
  std::vector<TRowResult> rows;
  handler_->scannerGetList(rows, id, 10);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].sortedColumns.size(), 2u);
  EXPECT_EQ(rows[2].sortedColumns.size(), 1u);
  EXPECT_EQ(rows[2].row, "r");
  EXPECT_EQ(rows[0].sortedColumns[0].columnName, "f:c1");
  EXPECT_FALSE(rows[0].__isset.columns);
}

TEST_F(HbaseHandlerTest, ReversedScanAndPrefixScan) {
  for (const char* row : {"a", "b", "b1", "ba", "c", "d"}) {
    handler_->mutateRow("t", row, {Put("f:q", row)}, kNoAttrs);
  }
  thrift::TScan scan;
  scan.__set_startRow("c");
  scan.__set_stopRow("b");
  scan.__set_reversed(true);
  std::vector<TRowResult> rows;
  handler_->scannerGetList(rows, handler_->scannerOpenWithScan("t", scan, kNoAttrs), 10);
  std::vector<std::string> keys;
  for (const auto& r : rows) keys.push_back(r.row);
  EXPECT_EQ(keys, (std::vector<std::string>{"c", "ba", "b1"}));

  rows.clear();
  keys.clear();
  handler_->scannerGetList(rows, handler_->scannerOpenWithPrefix("t", "b", {}, kNoAttrs), 10);
  for (const auto& r : rows) keys.push_back(r.row);
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "b1", "ba"}));
}

TEST_F(HbaseHandlerTest, FilterStringFiltersTheScan) {
  for (const char* row : {"a", "b", "b1", "c"}) {
    handler_->mutateRow("t", row, {Put("f:q", row)}, kNoAttrs);
  }
  thrift::TScan scan;
  scan.__set_filterString("PrefixFilter('b')");
  std::vector<TRowResult> rows;
  handler_->scannerGetList(rows, handler_->scannerOpenWithScan("t", scan, kNoAttrs), 10);
  std::vector<std::string> keys;
  for (const auto& r : rows) keys.push_back(r.row);
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "b1"}));
}

TEST_F(HbaseHandlerTest, MalformedFilterStringIsAnApplicationErrorNotIOError) {
  for (const char* bad : {"NoSuchFilter('x')", "PrefixFilter()", "", "PrefixFilter('a'))"}) {
    thrift::TScan scan;
    scan.__set_filterString(bad);
    EXPECT_THROW(handler_->scannerOpenWithScan("t", scan, kNoAttrs), ApplicationError) << bad;
  }
}

TEST_F(HbaseHandlerTest, RowFilterWithBatchIsARetryableIOErrorAtTheFirstFetch) {
  handler_->mutateRow("t", "r", {Put("f:a", "1"), Put("f:b", "2"), Put("f:c", "3")}, kNoAttrs);
  thrift::TScan scan;
  scan.__set_filterString("PageFilter(10)");
  scan.__set_batchSize(2);
  const int32_t id = handler_->scannerOpenWithScan("t", scan, kNoAttrs);
  std::vector<TRowResult> rows;
  try {
    handler_->scannerGetList(rows, id, 10);
    FAIL();
  } catch (const thrift::IOError& e) {
    EXPECT_NE(e.message.find("Cannot set batch on a scan using a filter that returns true for "
                             "filter.hasFilterRow"),
              std::string::npos)
        << e.message;
    EXPECT_TRUE(e.canRetry);
  }
}

TEST_F(HbaseHandlerTest, DeleteAllVariantsUseMarkersAtNowOrTimestamp) {
  handler_->mutateRowTs("t", "r", {Put("f:a", "1"), Put("f:b", "2"), Put("g:c", "3")}, 100,
                        kNoAttrs);
  handler_->deleteAllTs("t", "r", "f:a", 100, kNoAttrs);
  EXPECT_TRUE(Get("r", "f:a").empty());
  handler_->mutateRowTs("t", "r", {Put("f:a", "late")}, 50, kNoAttrs);
  EXPECT_TRUE(Get("r", "f:a").empty()) << "a marker masks later puts with older timestamps";
  handler_->deleteAll("t", "r", "f", kNoAttrs);
  EXPECT_TRUE(Get("r", "f").empty());
  EXPECT_EQ(Get("r", "g").size(), 1u);
  handler_->deleteAllRow("t", "r", kNoAttrs);
  std::vector<TRowResult> rows;
  handler_->getRow(rows, "t", "r", kNoAttrs);
  EXPECT_TRUE(rows.empty());
}

TEST_F(HbaseHandlerTest, CellTtlAttributeExpiresCells) {
  std::map<std::string, std::string> attrs{{"_ttl", std::string("\0\0\0\0\0\0\x03\xe8", 8)}};
  handler_->mutateRowTs("t", "r", {Put("f:q", "x")}, clock_.NowMillis() - 5000, attrs);
  EXPECT_TRUE(Get("r", "f:q").empty());
  handler_->mutateRow("t", "r", {Put("f:q", "y")}, attrs);
  EXPECT_EQ(Get("r", "f:q").size(), 1u);
  clock_.Advance(1001);
  EXPECT_TRUE(Get("r", "f:q").empty());
}

TEST_F(HbaseHandlerTest, ServerIdentity) {
  EXPECT_EQ(handler_->getThriftServerType(), thrift::TThriftServerType::ONE);
  std::string a, b;
  handler_->getClusterId(a);
  handler_->getClusterId(b);
  EXPECT_EQ(a.size(), 36u);
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace hbemu::server
