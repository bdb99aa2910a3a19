// Row writes and point reads through the Store facade with an injected ManualClock: versions, time
// ranges, every delete type, TTL, column selection, validation, and the read-modify-write calls
// (docs/hbase-semantics.md#cells-and-their-order to #ttl, #increment-append-check-and-mutate;
// golden cases G1-G31, G39-G43, G75-G84).

#include <atomic>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "storage/coding.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellStrings;
using testutil::DeleteOp;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

using namespace std::string_literals;
using Cells = std::vector<std::string>;

constexpr int64_t kNow = kTestNowMs;
constexpr int64_t kHourMs = 3600 * 1000;

std::string Long(int64_t v) {
  std::string s;
  PutFixed64BE(&s, static_cast<uint64_t>(v));
  return s;
}

ReadSpec Versions(int32_t n, int64_t min_ts = 0, int64_t max_ts = INT64_MAX) {
  ReadSpec spec;
  spec.max_versions = n;
  spec.time_range.min = min_ts;
  spec.time_range.max = max_ts;
  return spec;
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_)); }

  Status CreateTable(std::vector<FamilyDescriptor> families) {
    return store_->CreateTable("t", std::move(families));
  }
  Status Put(const std::string& row, const std::string& family, const std::string& qualifier,
             int64_t ts, const std::string& value) {
    return store_->Mutate("t", Row(row, {PutOp(family, qualifier, ts, value)}));
  }
  Status Mutate(const std::string& row, std::vector<ColumnMutation> mutations) {
    return store_->Mutate("t", Row(row, std::move(mutations)));
  }
  // The visible cells of a row as "f:q@ts=value" strings.
  Cells Get(const std::string& row, const ReadSpec& spec = ReadSpec()) {
    RowResult result;
    const Status s = store_->Get("t", row, spec, &result);
    EXPECT_OK(s);
    return CellStrings(result.cells);
  }

  ManualClock clock_{kNow};
  std::unique_ptr<Store> store_;
};

// ---------------------------------------------------------------- versions and ordering

TEST_F(StoreTest, LargestTimestampWinsNotLastWrite) {
  // G1
  ASSERT_OK(CreateTable({Family("f", 1)}));
  ASSERT_OK(Put("r", "f", "q", 200, "new"));
  ASSERT_OK(Put("r", "f", "q", 100, "old"));
  EXPECT_EQ(Get("r"), (Cells{"f:q@200=new"}));
}

TEST_F(StoreTest, SameTimestampRewrittenKeepsOnlyLastWrite) {
  // G2
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "q", 100, "a"));
  ASSERT_OK(Put("r", "f", "q", 100, "b"));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@100=b"}));
}

TEST_F(StoreTest, VersionsAreCappedByFamilyNewestFirst) {
  // G3
  ASSERT_OK(CreateTable({Family("f", 3)}));
  for (int ts = 1; ts <= 5; ++ts) ASSERT_OK(Put("r", "f", "q", ts, "v" + std::to_string(ts)));
  EXPECT_EQ(Get("r", Versions(10)), (Cells{"f:q@5=v5", "f:q@4=v4", "f:q@3=v3"}));
  EXPECT_EQ(Get("r", Versions(2)), (Cells{"f:q@5=v5", "f:q@4=v4"}));
}

class VersionedStoreTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    ASSERT_OK(CreateTable({Family("f", 3)}));
    for (int64_t ts : {10, 20, 30}) ASSERT_OK(Put("r", "f", "q", ts, "v" + std::to_string(ts)));
  }
};

TEST_F(VersionedStoreTest, DefaultReadReturnsNewestVersionOnly) {
  // G4
  EXPECT_EQ(Get("r"), (Cells{"f:q@30=v30"}));
}

TEST_F(VersionedStoreTest, TimeRangeIsHalfOpen) {
  // G5
  EXPECT_EQ(Get("r", Versions(3, 10, 30)), (Cells{"f:q@20=v20", "f:q@10=v10"}));
}

TEST_F(VersionedStoreTest, TimeRangeAppliesBeforeVersionLimit) {
  // G6
  EXPECT_EQ(Get("r", Versions(1, 0, 25)), (Cells{"f:q@20=v20"}));
}

TEST_F(VersionedStoreTest, ExactTimestampIsOneMillisecondRange) {
  // G7: Thrift2 TGet.timestamp=20 is [20, 21).
  EXPECT_EQ(Get("r", Versions(3, 20, 21)), (Cells{"f:q@20=v20"}));
}

TEST_F(VersionedStoreTest, Thrift1ReadTimestampExcludesThatTimestamp) {
  // G8: Thrift1 getVerTs(ts=30) is the range [0, 30).
  EXPECT_EQ(Get("r", Versions(3, 0, 30)), (Cells{"f:q@20=v20", "f:q@10=v10"}));
}

TEST_F(VersionedStoreTest, EmptyTimeRangeReturnsNothing) {
  EXPECT_EQ(Get("r", Versions(3, 20, 20)), Cells{});
}

TEST_F(StoreTest, CellsComeBackInFamilyThenQualifierOrder) {
  // G9: the empty qualifier sorts first.
  ASSERT_OK(CreateTable({Family("g"), Family("f")}));
  ASSERT_OK(Put("r", "g", "a", 1, "1"));
  ASSERT_OK(Put("r", "f", "b", 1, "2"));
  ASSERT_OK(Put("r", "f", "a", 1, "3"));
  ASSERT_OK(Put("r", "f", "", 1, "4"));
  EXPECT_EQ(Get("r"), (Cells{"f:@1=4", "f:a@1=3", "f:b@1=2", "g:a@1=1"}));
}

TEST_F(StoreTest, QualifiersCompareAsUnsignedBytes) {
  ASSERT_OK(CreateTable({Family("f")}));
  for (const std::string& q : {"\xff"s, "\x80"s, "\x7f"s, "a\x00"s, "a"s, "\x00"s}) {
    ASSERT_OK(Put("r", "f", q, 1, "v"));
  }
  EXPECT_EQ(Get("r"), (Cells{"f:\\x00@1=v", "f:a@1=v", "f:a\\x00@1=v", "f:\\x7f@1=v",
                             "f:\\x80@1=v", "f:\\xff@1=v"}));
}

TEST_F(StoreTest, OneMutationSharesOneServerTimestamp) {
  // G12
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Mutate("r", {PutOp("f", "a", kLatestTimestamp, "1"),
                         PutOp("f", "b", kLatestTimestamp, "2")}));
  EXPECT_EQ(Get("r"), (Cells{"f:a@" + std::to_string(kNow) + "=1",
                             "f:b@" + std::to_string(kNow) + "=2"}));
}

TEST_F(StoreTest, LatestTimestampIsReplacedByInjectedClock) {
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "q", kLatestTimestamp, "a"));
  clock_.Advance(5);
  ASSERT_OK(Put("r", "f", "q", kLatestTimestamp, "b"));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@" + std::to_string(kNow + 5) + "=b",
                                          "f:q@" + std::to_string(kNow) + "=a"}));
}

TEST_F(StoreTest, LargestExplicitTimestampRoundTrips) {
  // INT64_MAX itself is LATEST_TIMESTAMP, so INT64_MAX - 1 is the newest storable version.
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "q", INT64_MAX - 1, "max"));
  ASSERT_OK(Put("r", "f", "q", 0, "zero"));
  EXPECT_EQ(Get("r", Versions(3)),
            (Cells{"f:q@" + std::to_string(INT64_MAX - 1) + "=max", "f:q@0=zero"}));
}

TEST_F(StoreTest, OversizedCellIsInvalidArgument) {
  // hbase.client.keyvalue.maxsize defaults to 10 MB.
  ASSERT_OK(CreateTable({Family("f")}));
  EXPECT_CODE(kInvalidArgument, Put("r", "f", "q", 1, std::string(10 * 1024 * 1024 + 1, 'v')));
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(StoreTest, TheCellSizeLimitIsTheOneTheStoreWasOpenedWith) {
  StoreLimits limits;
  limits.cell_bytes = 100;
  store_.reset();
  ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_, limits));
  ASSERT_OK(CreateTable({Family("f")}));
  // Row, family, qualifier and value: 1 + 1 + 1 + 97 = 100 bytes fits, one more does not.
  ASSERT_OK(Put("r", "f", "q", 1, std::string(97, 'v')));
  const Status over = Put("s", "f", "q", 1, std::string(98, 'v'));
  EXPECT_CODE(kInvalidArgument, over);
  EXPECT_EQ(over.message(), "KeyValue size too large");
  EXPECT_EQ(Get("s"), Cells{});
}

TEST_F(StoreTest, MissingRowReadsAsEmpty) {
  // G42
  ASSERT_OK(CreateTable({Family("f")}));
  RowResult result;
  ASSERT_OK(store_->Get("t", "zz", ReadSpec(), &result));
  EXPECT_TRUE(result.cells.empty());
}

TEST_F(StoreTest, BinaryValuesAndRowsRoundTrip) {
  ASSERT_OK(CreateTable({Family("f")}));
  const std::string row = "\x00\xff\x00"s, value = "\x00\x01\xff\x00"s;
  ASSERT_OK(Put(row, "f", "q\x00"s, 1, value));
  RowResult result;
  ASSERT_OK(store_->Get("t", row, ReadSpec(), &result));
  ASSERT_EQ(result.cells.size(), 1u);
  EXPECT_EQ(result.row, row);
  EXPECT_EQ(result.cells[0].qualifier, "q\x00"s);
  EXPECT_EQ(result.cells[0].value, value);
  // Neighbouring rows that share the escaped prefix stay separate.
  EXPECT_EQ(Get("\x00\xff"s), Cells{});
  EXPECT_EQ(Get("\x00\xff\x00\x00"s), Cells{});
}

// ---------------------------------------------------------------- deletes

TEST_F(VersionedStoreTest, DeleteColumnMasksOlderVersionsOnly) {
  // G13
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "q", 20)}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@30=v30"}));
}

TEST_F(VersionedStoreTest, VersionDeleteMasksExactlyOneVersion) {
  // G14
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteVersion, "f", "q", 20)}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@30=v30", "f:q@10=v10"}));
}

TEST_F(StoreTest, UnmatchedVersionDeleteMasksLaterPutAtThatTimestamp) {
  // G15
  ASSERT_OK(CreateTable({Family("f", 5)}));
  for (int64_t ts : {10, 20, 30}) ASSERT_OK(Put("r", "f", "q", ts, "v" + std::to_string(ts)));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteVersion, "f", "q", 25)}));
  ASSERT_OK(Put("r", "f", "q", 25, "x"));
  EXPECT_EQ(Get("r", Versions(5)), (Cells{"f:q@30=v30", "f:q@20=v20", "f:q@10=v10"}));
}

TEST_F(StoreTest, RepeatedLatestVersionDeletesPeelVersionsOneByOne) {
  // G16 (docs/hbase-semantics.md#marker-timestamps).
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "q", 100, "a"));
  ASSERT_OK(Put("r", "f", "q", 200, "b"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteVersion, "f", "q")}));
  EXPECT_EQ(Get("r"), (Cells{"f:q@100=a"}));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteVersion, "f", "q")}));
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(VersionedStoreTest, TwoLatestVersionDeletesInOneMutationTargetNewestAndSecondNewest) {
  // HRegion.prepareDeleteTimestamps counts repeated "latest" deletes of one column.
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteVersion, "f", "q"),
                         DeleteOp(MutationType::kDeleteVersion, "f", "q")}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@10=v10"}));
}

TEST_F(StoreTest, LatestVersionDeleteOfEmptyColumnUsesServerTime) {
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteVersion, "f", "q")}));
  ASSERT_OK(Put("r", "f", "q", kNow, "masked"));       // exactly at the marker
  ASSERT_OK(Put("r", "f", "q", kNow - 1, "visible"));  // a version delete covers one ts only
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@" + std::to_string(kNow - 1) + "=visible"}));
}

TEST_F(StoreTest, DeleteFamilyMasksEveryColumnUpToItsTimestamp) {
  // G17
  ASSERT_OK(CreateTable({Family("f", 3), Family("g", 3)}));
  ASSERT_OK(Put("r", "f", "a", 10, "a10"));
  ASSERT_OK(Put("r", "f", "a", 30, "a30"));
  ASSERT_OK(Put("r", "f", "b", 20, "b20"));
  ASSERT_OK(Put("r", "g", "c", 5, "c5"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteFamily, "f", "", 20)}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:a@30=a30", "g:c@5=c5"}));
}

TEST_F(StoreTest, DeleteFamilyAlsoMasksTheEmptyQualifier) {
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "", 10, "e10"));
  ASSERT_OK(Put("r", "f", "", 30, "e30"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteFamily, "f", "", 20)}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:@30=e30"}));
}

TEST_F(StoreTest, DeleteFamilyVersionMasksOneTimestampInEveryColumn) {
  // G18
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "a", 20, "a20"));
  ASSERT_OK(Put("r", "f", "a", 10, "a10"));
  ASSERT_OK(Put("r", "f", "b", 20, "b20"));
  ASSERT_OK(Put("r", "f", "c", 30, "c30"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteFamilyVersion, "f", "", 20)}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:a@10=a10", "f:c@30=c30"}));
}

// HBase's Delete.addFamilyVersion(f, Long.MAX_VALUE) is accepted and dated "now" by the region
// server (measured on 2.6.1 through Thrift2): older cells stay.
TEST_F(StoreTest, DeleteFamilyVersionAtLatestTimestampIsDatedNowAndLeavesOlderCells) {
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "a", 5, "a5"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteFamilyVersion, "f", "")}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:a@5=a5"}));
}

TEST_F(StoreTest, RowDeleteMasksEveryFamilyUpToItsTimestamp) {
  // G19
  ASSERT_OK(CreateTable({Family("f", 3), Family("g", 3)}));
  ASSERT_OK(Put("r", "f", "a", 500, "a500"));
  ASSERT_OK(Put("r", "f", "a", 1500, "a1500"));
  ASSERT_OK(Put("r", "g", "b", 700, "b700"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteRow, "", "", 1000)}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:a@1500=a1500"}));
}

TEST_F(StoreTest, RowDeleteWithoutTimestampUsesServerTime) {
  ASSERT_OK(CreateTable({Family("f"), Family("g")}));
  ASSERT_OK(Put("r", "f", "a", kNow, "a"));
  ASSERT_OK(Put("r", "g", "b", kNow + 1, "future"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteRow, "", "")}));
  EXPECT_EQ(Get("r"), (Cells{"g:b@" + std::to_string(kNow + 1) + "=future"}));
}

TEST_F(StoreTest, DeleteColumnMasksLaterPutWithOlderTimestamp) {
  // G20, G21
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "q", 1000)}));
  ASSERT_OK(Put("r", "f", "q", 900, "late"));
  EXPECT_EQ(Get("r"), Cells{});
  ASSERT_OK(Put("r", "f", "q", 1000, "at-marker"));
  EXPECT_EQ(Get("r"), Cells{});
  ASSERT_OK(Put("r", "f", "q", 1001, "new"));
  EXPECT_EQ(Get("r"), (Cells{"f:q@1001=new"}));
}

TEST_F(StoreTest, DeleteFamilyMasksLaterPutWithOlderTimestamp) {
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteFamily, "f", "", 1000)}));
  ASSERT_OK(Put("r", "f", "q", 999, "late"));
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(StoreTest, DeletedVersionsDoNotCountAgainstVersions) {
  // G22
  ASSERT_OK(CreateTable({Family("f", 2)}));
  for (int64_t ts : {10, 20, 30}) ASSERT_OK(Put("r", "f", "q", ts, "v" + std::to_string(ts)));
  EXPECT_EQ(Get("r", Versions(2)), (Cells{"f:q@30=v30", "f:q@20=v20"}));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteVersion, "f", "q", 30)}));
  EXPECT_EQ(Get("r", Versions(2)), (Cells{"f:q@20=v20", "f:q@10=v10"}));
}

TEST_F(StoreTest, KeepDeletedCellsLetsTimeRangeReadSeeBehindMarker) {
  // G23
  FamilyDescriptor f = Family("f", 3);
  f.keep_deleted_cells = KeepDeletedCells::kTrue;
  ASSERT_OK(CreateTable({f}));
  ASSERT_OK(Put("r", "f", "q", 100, "a"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "q", 200)}));
  EXPECT_EQ(Get("r"), Cells{});
  EXPECT_EQ(Get("r", Versions(1, 0, 150)), (Cells{"f:q@100=a"}));
  EXPECT_EQ(Get("r", Versions(1, 0, 201)), Cells{});  // marker inside the range applies
}

TEST_F(StoreTest, KeepDeletedCellsTtlAlsoSeesBehindMarker) {
  FamilyDescriptor f = Family("f", 3);
  f.keep_deleted_cells = KeepDeletedCells::kTtl;
  ASSERT_OK(CreateTable({f}));
  ASSERT_OK(Put("r", "f", "q", 100, "a"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteFamily, "f", "", 200)}));
  EXPECT_EQ(Get("r"), Cells{});
  EXPECT_EQ(Get("r", Versions(1, 0, 150)), (Cells{"f:q@100=a"}));
}

TEST_F(StoreTest, WithoutKeepDeletedCellsTimeRangeReadStaysMasked) {
  // G24
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "q", 100, "a"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "q", 200)}));
  EXPECT_EQ(Get("r", Versions(1, 0, 150)), Cells{});
}

TEST_F(StoreTest, DeletingMissingRowSucceeds) {
  // G25
  ASSERT_OK(CreateTable({Family("f")}));
  EXPECT_OK(Mutate("zz", {DeleteOp(MutationType::kDeleteRow, "", "")}));
  EXPECT_EQ(Get("zz"), Cells{});
}

TEST_F(StoreTest, PutAndDeleteColumnInOneMutationLeaveColumnDeleted) {
  // G26a: one shared timestamp, and at equal timestamps the marker covers the put, whatever
  // the order inside the mutation.
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Mutate("r1", {PutOp("f", "a", kLatestTimestamp, "x"),
                          DeleteOp(MutationType::kDeleteColumn, "f", "a")}));
  ASSERT_OK(Mutate("r2", {DeleteOp(MutationType::kDeleteColumn, "f", "a"),
                          PutOp("f", "a", kLatestTimestamp, "x")}));
  EXPECT_EQ(Get("r1"), Cells{});
  EXPECT_EQ(Get("r2"), Cells{});
}

TEST_F(StoreTest, DeleteOfOneColumnLeavesOthers) {
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Mutate("r", {PutOp("f", "a", 5, "a"), PutOp("f", "b", 5, "b")}));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "a", 5)}));
  EXPECT_EQ(Get("r"), (Cells{"f:b@5=b"}));
}

// ---------------------------------------------------------------- TTL

class TtlStoreTest : public StoreTest {
 protected:
  Status CreateTtlTable(int32_t ttl_seconds, int32_t versions = 1, int32_t min_versions = 0) {
    FamilyDescriptor f = Family("f", versions);
    f.ttl_seconds = ttl_seconds;
    f.min_versions = min_versions;
    return CreateTable({f});
  }
};

TEST_F(TtlStoreTest, CellOlderThanTtlIsExpiredImmediately) {
  // G27
  ASSERT_OK(CreateTtlTable(3600));
  ASSERT_OK(Put("r", "f", "q", kNow - 7'200'000, "old"));
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(TtlStoreTest, CellWithinTtlIsVisible) {
  // G28
  ASSERT_OK(CreateTtlTable(3600));
  ASSERT_OK(Put("r", "f", "q", kNow - 1'800'000, "ok"));
  EXPECT_EQ(Get("r"), (Cells{"f:q@" + std::to_string(kNow - 1'800'000) + "=ok"}));
}

TEST_F(TtlStoreTest, ExpiryFollowsTheClockRelativeToCellTimestamp) {
  // Expired when ts < now - TTL*1000.
  ASSERT_OK(CreateTtlTable(3600));
  ASSERT_OK(Put("r", "f", "q", kLatestTimestamp, "v"));
  clock_.Advance(kHourMs);
  EXPECT_EQ(Get("r").size(), 1u);
  clock_.Advance(1);
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(TtlStoreTest, MinVersionsKeepsNewestExpiredVersion) {
  // G29, G30 (and the worked example in docs/hbase-semantics.md#ttl)
  ASSERT_OK(CreateTtlTable(3600, 3, 1));
  ASSERT_OK(Put("r", "f", "q", kNow - 10 * kHourMs, "a"));
  ASSERT_OK(Put("r", "f", "q", kNow - 9 * kHourMs, "b"));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@" + std::to_string(kNow - 9 * kHourMs) + "=b"}));
  ASSERT_OK(Put("r", "f", "q", kNow, "c"));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@" + std::to_string(kNow) + "=c"}));
}

TEST_F(TtlStoreTest, WithoutMinVersionsExpiredVersionsAreAllHidden) {
  ASSERT_OK(CreateTtlTable(3600, 3, 0));
  ASSERT_OK(Put("r", "f", "q", kNow - 10 * kHourMs, "a"));
  ASSERT_OK(Put("r", "f", "q", kNow - 9 * kHourMs, "b"));
  EXPECT_EQ(Get("r", Versions(3)), Cells{});
}

TEST_F(TtlStoreTest, MinVersionsTwoKeepsTwoNewestExpiredVersions) {
  ASSERT_OK(CreateTtlTable(3600, 3, 2));
  for (int h : {10, 9, 8}) ASSERT_OK(Put("r", "f", "q", kNow - h * kHourMs, std::to_string(h)));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@" + std::to_string(kNow - 8 * kHourMs) + "=8",
                                          "f:q@" + std::to_string(kNow - 9 * kHourMs) + "=9"}));
}

TEST_F(TtlStoreTest, CellTtlHidesCellAfterItsDeadline) {
  // G31: expired when ts + ttl < now.
  ASSERT_OK(CreateTtlTable(kForeverTtl));
  RowMutation m = Row("r", {PutOp("f", "q", kNow - 5000, "x")});
  m.cell_ttl_ms = 1000;
  ASSERT_OK(store_->Mutate("t", m));
  EXPECT_EQ(Get("r"), Cells{});

  RowMutation live = Row("r2", {PutOp("f", "q", kLatestTimestamp, "y")});
  live.cell_ttl_ms = 1000;
  ASSERT_OK(store_->Mutate("t", live));
  clock_.Advance(1000);
  EXPECT_EQ(Get("r2").size(), 1u);  // now == ts + ttl: not yet expired
  clock_.Advance(1);
  EXPECT_EQ(Get("r2"), Cells{});
}

TEST_F(TtlStoreTest, CellTtlIsNotProtectedByMinVersionsAndExpiredCellsDoNotCount) {
  ASSERT_OK(CreateTtlTable(3600, 3, 1));
  ASSERT_OK(Put("r", "f", "q", kNow - 100, "old"));
  RowMutation m = Row("r", {PutOp("f", "q", kNow - 50, "short-lived")});
  m.cell_ttl_ms = 10;
  ASSERT_OK(store_->Mutate("t", m));
  // The expired newer cell is skipped before counting, so the older one is the newest version.
  EXPECT_EQ(Get("r"), (Cells{"f:q@" + std::to_string(kNow - 100) + "=old"}));

  RowMutation only = Row("r2", {PutOp("f", "q", kNow - 50, "short-lived")});
  only.cell_ttl_ms = 10;
  ASSERT_OK(store_->Mutate("t", only));
  EXPECT_EQ(Get("r2"), Cells{});  // MIN_VERSIONS=1 does not keep it
}

TEST_F(TtlStoreTest, CellTtlOverflowWrapsAsInHBase) {
  // ScanQueryMatcher.isCellTTLExpired computes ts + ttl in Java longs, which wrap: a huge
  // timestamp plus a TTL overflows to a negative deadline and the cell reads as expired.
  ASSERT_OK(CreateTtlTable(kForeverTtl, 3));
  RowMutation m = Row("r", {PutOp("f", "q", INT64_MAX - 1, "x")});
  m.cell_ttl_ms = 10;
  ASSERT_OK(store_->Mutate("t", m));
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(TtlStoreTest, CellTtlCannotExtendFamilyTtl) {
  ASSERT_OK(CreateTtlTable(1));
  RowMutation m = Row("r", {PutOp("f", "q", kNow - 5000, "x")});
  m.cell_ttl_ms = 24 * kHourMs;
  ASSERT_OK(store_->Mutate("t", m));
  EXPECT_EQ(Get("r"), Cells{});
}

// ---------------------------------------------------------------- column selection

TEST_F(StoreTest, ColumnAfterFamilyNarrowsAndFamilyAfterColumnWidens) {
  // G39
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Mutate("r", {PutOp("f", "a", 1, "a"), PutOp("f", "b", 1, "b")}));
  ReadSpec family_then_column;
  family_then_column.columns.AddFamily("f");
  family_then_column.columns.AddColumn("f", "a");
  EXPECT_EQ(Get("r", family_then_column), (Cells{"f:a@1=a"}));
  ReadSpec column_then_family;
  column_then_family.columns.AddColumn("f", "a");
  column_then_family.columns.AddFamily("f");
  EXPECT_EQ(Get("r", column_then_family), (Cells{"f:a@1=a", "f:b@1=b"}));
}

TEST_F(StoreTest, EmptyQualifierColumnIsNotTheWholeFamily) {
  // G40
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Mutate("r", {PutOp("f", "", 1, "e"), PutOp("f", "a", 1, "x")}));
  ReadSpec column;
  column.columns.AddColumn("f", "");
  EXPECT_EQ(Get("r", column), (Cells{"f:@1=e"}));
  ReadSpec family;
  family.columns.AddFamily("f");
  EXPECT_EQ(Get("r", family), (Cells{"f:@1=e", "f:a@1=x"}));
}

TEST_F(StoreTest, SelectionCoversOnlyNamedFamiliesAndColumns) {
  ASSERT_OK(CreateTable({Family("f"), Family("g"), Family("h")}));
  ASSERT_OK(Mutate("r", {PutOp("f", "a", 1, "1"), PutOp("f", "b", 1, "2"),
                         PutOp("g", "a", 1, "3"), PutOp("h", "z", 1, "4")}));
  ReadSpec spec;
  spec.columns.AddColumn("f", "b");
  spec.columns.AddFamily("h");
  spec.columns.AddColumn("f", "zz");  // absent column: no error
  EXPECT_EQ(Get("r", spec), (Cells{"f:b@1=2", "h:z@1=4"}));
}

TEST_F(StoreTest, UnknownFamilyIsNoSuchColumnFamilyOnRead) {
  // G43
  ASSERT_OK(CreateTable({Family("f")}));
  RowResult result;
  ReadSpec family;
  family.columns.AddFamily("x");
  EXPECT_CODE(kNoSuchColumnFamily, store_->Get("t", "r", family, &result));
  ReadSpec column;
  column.columns.AddColumn("x", "q");
  EXPECT_CODE(kNoSuchColumnFamily, store_->Get("t", "r", column, &result));
}

TEST_F(StoreTest, UnknownFamilyIsNoSuchColumnFamilyOnWriteAndNothingIsWritten) {
  // G43; a row mutation is all-or-nothing.
  ASSERT_OK(CreateTable({Family("f")}));
  EXPECT_CODE(kNoSuchColumnFamily, Put("r", "x", "q", 1, "v"));
  EXPECT_CODE(kNoSuchColumnFamily,
              Mutate("r", {PutOp("f", "q", 1, "v"), PutOp("x", "q", 1, "v")}));
  EXPECT_CODE(kNoSuchColumnFamily, Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "x", "q")}));
  EXPECT_CODE(kNoSuchColumnFamily, Mutate("r", {DeleteOp(MutationType::kDeleteFamily, "x")}));
  EXPECT_EQ(Get("r"), Cells{});
}

// ---------------------------------------------------------------- validation

TEST_F(StoreTest, EmptyRowIsInvalidArgument) {
  ASSERT_OK(CreateTable({Family("f")}));
  EXPECT_CODE(kInvalidArgument, Put("", "f", "q", 1, "v"));
  RowResult result;
  EXPECT_CODE(kInvalidArgument, store_->Get("t", "", ReadSpec(), &result));
  std::vector<Cell> cells;
  EXPECT_CODE(kInvalidArgument, store_->Increment("t", "", {{"f", "c", 1}}, &cells));
  EXPECT_CODE(kInvalidArgument, store_->Append("t", "", {{"f", "s", "x"}}, &cells));
  bool applied = true;
  EXPECT_CODE(kInvalidArgument, store_->CheckAndMutate("t", "", "f", "q", CompareOp::kEqual,
                                                       std::nullopt,
                                                       Row("", {PutOp("f", "q", 1, "v")}),
                                                       &applied));
  EXPECT_FALSE(applied);
}

TEST_F(StoreTest, RowLongerThan32767BytesIsInvalidArgument) {
  ASSERT_OK(CreateTable({Family("f")}));
  const std::string max_row(32767, 'r');
  ASSERT_OK(Put(max_row, "f", "q", 1, "v"));
  EXPECT_EQ(Get(max_row), (Cells{"f:q@1=v"}));
  const std::string too_long(32768, 'r');
  EXPECT_CODE(kInvalidArgument, Put(too_long, "f", "q", 1, "v"));
  RowResult result;
  EXPECT_CODE(kInvalidArgument, store_->Get("t", too_long, ReadSpec(), &result));
}

TEST_F(StoreTest, NegativeTimestampIsInvalidArgument) {
  ASSERT_OK(CreateTable({Family("f")}));
  EXPECT_CODE(kInvalidArgument, Put("r", "f", "q", -1, "v"));
  EXPECT_CODE(kInvalidArgument, Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "q", -5)}));
  EXPECT_CODE(kInvalidArgument,
              Mutate("r", {PutOp("f", "a", 1, "ok"), PutOp("f", "b", INT64_MIN, "bad")}));
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(StoreTest, BadReadSpecsAreRejected) {
  ASSERT_OK(CreateTable({Family("f")}));
  RowResult result;
  EXPECT_CODE(kInvalidArgument, store_->Get("t", "r", Versions(1, -1, 10), &result));
  // HBase: IOException "maxStamp is smaller than minStamp".
  EXPECT_FALSE(store_->Get("t", "r", Versions(1, 20, 10), &result).ok());
  EXPECT_FALSE(store_->Get("t", "r", Versions(0), &result).ok());
}

TEST_F(StoreTest, EmptyMutationIsANoOp) {
  ASSERT_OK(CreateTable({Family("f")}));
  EXPECT_OK(Mutate("r", {}));
  EXPECT_EQ(Get("r"), Cells{});
}

// ---------------------------------------------------------------- table state

TEST_F(StoreTest, DataCallsOnDisabledTableAreTableNotEnabled) {
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Put("r", "f", "q", 1, "v"));
  ASSERT_OK(store_->DisableTable("t"));
  RowResult result;
  std::vector<Cell> cells;
  std::unique_ptr<Scanner> scanner;
  bool applied = true;
  EXPECT_CODE(kTableNotEnabled, Put("r", "f", "q", 2, "v"));
  EXPECT_CODE(kTableNotEnabled, store_->Get("t", "r", ReadSpec(), &result));
  EXPECT_CODE(kTableNotEnabled, store_->OpenScanner("t", ScanSpec(), &scanner));
  EXPECT_CODE(kTableNotEnabled, store_->Increment("t", "r", {{"f", "c", 1}}, &cells));
  EXPECT_CODE(kTableNotEnabled, store_->Append("t", "r", {{"f", "s", "x"}}, &cells));
  EXPECT_CODE(kTableNotEnabled,
              store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, std::nullopt,
                                     Row("r", {PutOp("f", "q", 1, "v")}), &applied));
  ASSERT_OK(store_->EnableTable("t"));
  EXPECT_EQ(Get("r"), (Cells{"f:q@1=v"}));
}

TEST_F(StoreTest, DataCallsOnMissingTableAreTableNotFound) {
  RowResult result;
  std::vector<Cell> cells;
  std::unique_ptr<Scanner> scanner;
  bool applied = true;
  EXPECT_CODE(kTableNotFound, Put("r", "f", "q", 1, "v"));
  EXPECT_CODE(kTableNotFound, store_->Get("t", "r", ReadSpec(), &result));
  EXPECT_CODE(kTableNotFound, store_->OpenScanner("t", ScanSpec(), &scanner));
  EXPECT_CODE(kTableNotFound, store_->Increment("t", "r", {{"f", "c", 1}}, &cells));
  EXPECT_CODE(kTableNotFound, store_->Append("t", "r", {{"f", "s", "x"}}, &cells));
  EXPECT_CODE(kTableNotFound,
              store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, std::nullopt,
                                     Row("r", {PutOp("f", "q", 1, "v")}), &applied));
}

// ---------------------------------------------------------------- multi-row mutations

// A big MutateRows holds one mutex per row-lock stripe it touches, but TSan's deadlock detector
// aborts once a thread holds 64; under TSan the batches stay below that.
#if defined(__SANITIZE_THREAD__)
#define HBEMU_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HBEMU_UNDER_TSAN 1
#endif
#endif
#ifdef HBEMU_UNDER_TSAN
constexpr int kBigBatchRows = 40;
#else
constexpr int kBigBatchRows = 3000;
#endif

// HBase's client batch: every good row is applied, a rejected row leaves nothing, and every
// rejection is reported (checked against HBase 2.6.1).
TEST_F(StoreTest, MutateRowsAppliesEveryGoodRowAndReportsEachBadOne) {
  ASSERT_OK(CreateTable({Family("f", 3)}));
  // The bad row's first cell is valid: it must not be written either.
  const std::vector<RowMutation> rows = {
      Row("a", {PutOp("f", "q", 1, "a")}),
      Row("b", {PutOp("f", "q", 1, "b"), PutOp("x", "q", 1, "b")}),
      Row("c", {PutOp("f", "q", 1, "c")}),
  };
  std::vector<Store::RowFailure> failures;
  EXPECT_CODE(kNoSuchColumnFamily, store_->MutateRows("t", rows, &failures));
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].index, 1u);
  EXPECT_EQ(Get("a"), (Cells{"f:q@1=a"}));
  EXPECT_EQ(Get("b"), Cells{});
  EXPECT_EQ(Get("c"), (Cells{"f:q@1=c"}));

  for (const ColumnMutation& bad :
       {PutOp("f", "q", -1, "v"), PutOp("f", "q", 1, std::string(10 * 1024 * 1024, 'x')),
        PutOp("nf", "q", 2, "v")}) {
    EXPECT_FALSE(store_->MutateRows("t", {Row("d", {PutOp("f", "q", 2, "d")}),
                                          Row("e", {PutOp("f", "q", 2, "e"), bad}),
                                          Row("k", {PutOp("f", "q", 2, "k")})})
                     .ok());
    EXPECT_EQ(Get("d"), (Cells{"f:q@2=d"}));
    EXPECT_EQ(Get("e"), Cells{});
    EXPECT_EQ(Get("k"), (Cells{"f:q@2=k"}));
  }
  EXPECT_CODE(kInvalidArgument, store_->MutateRows("t", {Row("g", {PutOp("f", "q", 1, "g")}),
                                                         Row("", {PutOp("f", "q", 1, "h")}),
                                                         Row("", {})},
                                                   &failures));
  EXPECT_EQ(failures.size(), 2u) << "an empty row is rejected even without mutations";
  EXPECT_EQ(Get("g"), (Cells{"f:q@1=g"}));
}

TEST_F(StoreTest, AppendAndIncrementReturnCellsSortedByColumn) {
  ASSERT_OK(CreateTable({Family("a", 3), Family("f", 3)}));
  std::vector<Cell> result;
  ASSERT_OK(store_->Append("t", "r", {{"f", "z", "1"}, {"f", "b", "2"}, {"a", "q", "3"}}, &result));
  ASSERT_EQ(result.size(), 3u);
  EXPECT_EQ(result[0].family + ":" + result[0].qualifier, "a:q");
  EXPECT_EQ(result[1].family + ":" + result[1].qualifier, "f:b");
  EXPECT_EQ(result[2].family + ":" + result[2].qualifier, "f:z");
}

TEST_F(StoreTest, MutateRowsGivesEveryRowOneServerTime) {
  ASSERT_OK(CreateTable({Family("f")}));
  std::vector<RowMutation> rows;
  for (int i = 0; i < kBigBatchRows; ++i) {
    rows.push_back(Row("r" + std::to_string(i), {PutOp("f", "q", kLatestTimestamp, "v")}));
  }
  ASSERT_OK(store_->MutateRows("t", rows));
  for (int i = 0; i < kBigBatchRows; i += 7) {
    EXPECT_EQ(Get("r" + std::to_string(i)), (Cells{"f:q@" + std::to_string(kNow) + "=v"}));
  }
}

TEST_F(StoreTest, MutateRowsAppliesRowsInOrderEvenForTheSameRow) {
  ASSERT_OK(CreateTable({Family("f", 3), Family("g")}));
  ASSERT_OK(store_->MutateRows(
      "t", {Row("r", {PutOp("f", "q", 1, "one"), PutOp("g", "q", 1, "g")}),
            Row("r", {PutOp("f", "q", 1, "rewritten"), PutOp("f", "q", 2, "two")}),
            // Reads the row: sees both rows written before it in this call.
            Row("r", {DeleteOp(MutationType::kDeleteVersion, "f", "q")}),
            Row("s", {PutOp("f", "q", 5, "s")}),
            Row("r", {DeleteOp(MutationType::kDeleteFamily, "g", "", 1)})}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:q@1=rewritten"}));
  EXPECT_EQ(Get("s"), (Cells{"f:q@5=s"}));
}

TEST_F(StoreTest, MutateRowsCarriesTheCellTtlOfEachRow) {
  ASSERT_OK(CreateTable({Family("f")}));
  RowMutation short_lived = Row("a", {PutOp("f", "q", kNow, "a")});
  short_lived.cell_ttl_ms = 10;
  ASSERT_OK(store_->MutateRows("t", {short_lived, Row("b", {PutOp("f", "q", kNow, "b")})}));
  clock_.Advance(11);
  EXPECT_EQ(Get("a"), Cells{});
  EXPECT_EQ(Get("b"), (Cells{"f:q@" + std::to_string(kNow) + "=b"}));
}

TEST_F(StoreTest, ConcurrentMutateRowsOverSharedRowsNeitherDeadlockNorTear) {
  ASSERT_OK(CreateTable({Family("f")}));
  constexpr int kThreads = 4, kRounds = 20, kRows = kBigBatchRows;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        std::vector<RowMutation> rows;
        // Each thread walks the rows in its own order; every row gets two cells at once.
        for (int i = 0; i < kRows; ++i) {
          const std::string row = "r" + std::to_string((i * (t + 1) * 7) % kRows);
          const std::string v = std::to_string(t) + "/" + std::to_string(round);
          rows.push_back(Row(row, {PutOp("f", "a", 1, v), PutOp("f", "b", 1, v)}));
        }
        EXPECT_OK(store_->MutateRows("t", rows));
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int i = 0; i < kRows; i += 7) {
    const Cells cells = Get("r" + std::to_string(i));
    ASSERT_EQ(cells.size(), 2u);
    EXPECT_EQ(cells[0].substr(cells[0].find('=')), cells[1].substr(cells[1].find('=')));
  }
}

// ---------------------------------------------------------------- increment and append

TEST_F(StoreTest, IncrementOfMissingColumnStoresTheAmount) {
  // G75, G76
  ASSERT_OK(CreateTable({Family("f", 3)}));
  std::vector<Cell> cells;
  ASSERT_OK(store_->Increment("t", "r", {{"f", "c", 5}}, &cells));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, "\x00\x00\x00\x00\x00\x00\x00\x05"s);
  EXPECT_EQ(cells[0].timestamp, kNow);
  EXPECT_EQ(Get("r"), (Cells{"f:c@" + std::to_string(kNow) + "=\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x05"}));

  clock_.Advance(10);
  ASSERT_OK(store_->Increment("t", "r", {{"f", "c", -7}}, &cells));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, "\xff\xff\xff\xff\xff\xff\xff\xfe"s);
  EXPECT_EQ(static_cast<int64_t>(DecodeFixed64BE(cells[0].value.data())), -2);
  // The old value stays behind as an older version.
  EXPECT_EQ(Get("r", Versions(3)).size(), 2u);
}

TEST_F(StoreTest, IncrementOfNonLongIsDoNotRetryAndLeavesValue) {
  // G77
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "c", 5, "10"));
  std::vector<Cell> cells;
  const Status s = store_->Increment("t", "r", {{"f", "c", 1}}, &cells);
  EXPECT_CODE(kDoNotRetry, s);
  EXPECT_NE(s.message().find("Field is not a long, it's 2 bytes wide"), std::string::npos)
      << s.ToString();
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"f:c@5=10"}));
}

TEST_F(StoreTest, IncrementWrapsAroundOnOverflow) {
  // G78
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Put("r", "f", "c", 5, Long(INT64_MAX)));
  std::vector<Cell> cells;
  ASSERT_OK(store_->Increment("t", "r", {{"f", "c", 1}}, &cells));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(static_cast<int64_t>(DecodeFixed64BE(cells[0].value.data())), INT64_MIN);
  EXPECT_EQ(cells[0].value, "\x80\x00\x00\x00\x00\x00\x00\x00"s);
}

TEST_F(StoreTest, IncrementOfFutureDatedCellLandsOneMillisecondLater) {
  // G79
  ASSERT_OK(CreateTable({Family("f", 3)}));
  const int64_t future = kNow + 1'000'000'000;
  ASSERT_OK(Put("r", "f", "c", future, Long(5)));
  std::vector<Cell> cells;
  ASSERT_OK(store_->Increment("t", "r", {{"f", "c", 1}}, &cells));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].timestamp, future + 1);
  RowResult result;
  ASSERT_OK(store_->Get("t", "r", ReadSpec(), &result));
  ASSERT_EQ(result.cells.size(), 1u);
  EXPECT_EQ(result.cells[0].timestamp, future + 1);
  EXPECT_EQ(result.cells[0].value, Long(6));
}

// HBase's Result is sorted by column, whatever the request order (checked against 2.6.1).
TEST_F(StoreTest, IncrementOfSeveralColumnsReturnsThemSortedByColumn) {
  ASSERT_OK(CreateTable({Family("f"), Family("g")}));
  ASSERT_OK(Put("r", "g", "b", 1, Long(100)));
  std::vector<Cell> cells;
  ASSERT_OK(store_->Increment("t", "r", {{"g", "b", 1}, {"f", "a", 2}}, &cells));
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].family, "f");
  EXPECT_EQ(cells[0].value, Long(2));
  EXPECT_EQ(cells[1].family, "g");
  EXPECT_EQ(cells[1].value, Long(101));
}

TEST_F(StoreTest, IncrementSkipsDeletedValues) {
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Put("r", "f", "c", 5, Long(41)));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "c", 5)}));
  std::vector<Cell> cells;
  ASSERT_OK(store_->Increment("t", "r", {{"f", "c", 1}}, &cells));
  EXPECT_EQ(cells[0].value, Long(1));
}

TEST_F(StoreTest, IncrementOfUnknownFamilyWritesNothing) {
  ASSERT_OK(CreateTable({Family("f")}));
  std::vector<Cell> cells;
  EXPECT_CODE(kNoSuchColumnFamily,
              store_->Increment("t", "r", {{"f", "a", 1}, {"x", "a", 1}}, &cells));
  EXPECT_EQ(Get("r"), Cells{});
}

// A hot counter piles up one stored version per increment until compaction: the read in each
// increment must still see exactly the newest visible one, markers included.
TEST_F(StoreTest, CounterWithTenThousandStoredVersionsKeepsHBaseSemantics) {
  FamilyDescriptor f = Family("f", 3);
  f.keep_deleted_cells = KeepDeletedCells::kTrue;
  ASSERT_OK(CreateTable({f, Family("g", 3)}));
  ASSERT_OK(Put("r", "g", "n", 1, "other"));
  std::vector<Cell> cells;
  constexpr int kIncrements = 10000;
  for (int i = 1; i <= kIncrements; ++i) {
    ASSERT_OK(store_->Increment("t", "r", {{"f", "n", 1}}, &cells));
    ASSERT_EQ(cells.size(), 1u);
    ASSERT_EQ(cells[0].value, Long(i));
    // The clock stands still: each new version lands 1 ms after the one it read.
    ASSERT_EQ(cells[0].timestamp, kNow + i - 1);
  }
  // "f:n@ts=value" of the i-th increment.
  const auto nth = [](int i) {
    return "f:n@" + std::to_string(kNow + i - 1) + "=" + testutil::Escape(Long(i));
  };
  EXPECT_EQ(Get("r", Versions(5)), (Cells{nth(10000), nth(9999), nth(9998), "g:n@1=other"}));
  // The time range applies before the version limit.
  EXPECT_EQ(Get("r", Versions(2, 0, kNow + 5000)), (Cells{nth(5000), nth(4999), "g:n@1=other"}));

  // A column delete newer than every version masks them all; the counter starts again.
  clock_.Set(kNow + 20000);
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "n")}));
  EXPECT_EQ(Get("r", Versions(3)), (Cells{"g:n@1=other"}));
  clock_.Advance(1);
  ASSERT_OK(store_->Increment("t", "r", {{"f", "n", 5}}, &cells));
  EXPECT_EQ(cells[0].value, Long(5));
  EXPECT_EQ(Get("r", Versions(3)),
            (Cells{"f:n@" + std::to_string(kNow + 20001) + "=" + testutil::Escape(Long(5)),
                   "g:n@1=other"}));
  // KEEP_DELETED_CELLS: a read whose range ends before the marker sees behind it.
  EXPECT_EQ(Get("r", Versions(1, 0, kNow + 20000)), (Cells{nth(10000), "g:n@1=other"}));

  // A row delete masks the counter and the other family alike.
  clock_.Advance(1);
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteRow, "")}));
  EXPECT_EQ(Get("r", Versions(3)), Cells{});
  clock_.Advance(1);
  ASSERT_OK(store_->Increment("t", "r", {{"f", "n", 1}, {"g", "n", 0}}, &cells));
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].value, Long(1));
  EXPECT_EQ(cells[1].value, Long(0));  // "other" is deleted, so it is not a non-long
}

// Point reads skip what cannot matter (visibility.h SkipAhead); a one-row scan steps through
// every stored cell. Random rows of puts and every marker type must read the same both ways.
TEST_F(StoreTest, PointReadsSeeWhatAOneRowScanSees) {
  FamilyDescriptor f = Family("f", 3);
  f.keep_deleted_cells = KeepDeletedCells::kTrue;
  FamilyDescriptor g = Family("g", 2);
  g.ttl_seconds = 3600;
  g.min_versions = 1;
  ASSERT_OK(CreateTable({f, g, Family("h", 1)}));
  std::mt19937_64 rng = testutil::MakeRng(61);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const std::vector<std::string> rows = {"r", "r\0"s, "\xff"s};
  const std::vector<std::string> families = {"f", "g", "h"};
  const std::vector<std::string> qualifiers = {"", "\0"s, "\0\0"s, "a", "a\0"s, "\xff"s};
  const MutationType types[] = {MutationType::kPut,          MutationType::kPut,
                                MutationType::kPut,          MutationType::kDeleteColumn,
                                MutationType::kDeleteVersion, MutationType::kDeleteFamily,
                                MutationType::kDeleteFamilyVersion, MutationType::kDeleteRow};
  for (int i = 0; i < 1500; ++i) {
    ColumnMutation m;
    m.type = types[pick(8)];
    m.family = families[pick(3)];
    m.qualifier = qualifiers[pick(6)];
    m.timestamp = pick(3) == 0 ? kNow - 3600 * 1000 - pick(3) : 1 + pick(40);
    if (m.type == MutationType::kDeleteVersion && pick(4) == 0) m.timestamp = kLatestTimestamp;
    m.value = "v" + std::to_string(i);
    ASSERT_OK(Mutate(rows[pick(3)], {m}));
  }
  for (int i = 0; i < 400; ++i) {
    ReadSpec spec;
    spec.max_versions = 1 + pick(4);
    if (pick(3) == 0) spec.time_range = TimeRange{pick(10), 10 + pick(40)};
    for (int k = pick(4); k > 0; --k) {
      if (pick(3) == 0) {
        spec.columns.AddFamily(families[pick(3)]);
      } else {
        spec.columns.AddColumn(families[pick(3)], qualifiers[pick(6)]);
      }
    }
    for (const std::string& row : rows) {
      SCOPED_TRACE("read " + std::to_string(i) + " of row " + testutil::Escape(row));
      ScanSpec scan;
      scan.start_row = row;
      scan.stop_row = row + '\0';
      scan.read = spec;
      std::unique_ptr<Scanner> scanner;
      ASSERT_OK(store_->OpenScanner("t", scan, &scanner));
      std::vector<RowResult> scanned;
      ASSERT_OK(scanner->Next(2, &scanned));
      const Cells expected = scanned.empty() ? Cells{} : CellStrings(scanned[0].cells);
      ASSERT_EQ(Get(row, spec), expected);
    }
  }
}

TEST_F(StoreTest, AppendConcatenatesOntoNewestValue) {
  // G80
  ASSERT_OK(CreateTable({Family("f", 3)}));
  std::vector<Cell> cells;
  ASSERT_OK(store_->Append("t", "r", {{"f", "s", "cd"}}, &cells));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, "cd");
  EXPECT_EQ(cells[0].timestamp, kNow);

  ASSERT_OK(Put("r2", "f", "s", 7, "ab"));
  ASSERT_OK(store_->Append("t", "r2", {{"f", "s", "cd"}}, &cells));
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, "abcd");
  EXPECT_EQ(Get("r2"), (Cells{"f:s@" + std::to_string(kNow) + "=abcd"}));
}

TEST_F(StoreTest, AppendOfFutureDatedCellLandsOneMillisecondLater) {
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Put("r", "f", "s", kNow + 100, "ab"));
  std::vector<Cell> cells;
  ASSERT_OK(store_->Append("t", "r", {{"f", "s", "\x00"s}}, &cells));
  EXPECT_EQ(Get("r"), (Cells{"f:s@" + std::to_string(kNow + 101) + "=ab\\x00"}));
}

// ---------------------------------------------------------------- check and mutate

TEST_F(StoreTest, CheckAndPutWithUnsetExpectedAppliesOnlyToAbsentColumn) {
  // G81
  ASSERT_OK(CreateTable({Family("f")}));
  bool applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, std::nullopt,
                                   Row("r", {PutOp("f", "q", kLatestTimestamp, "x")}), &applied));
  EXPECT_TRUE(applied);
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, std::nullopt,
                                   Row("r", {PutOp("f", "q", kLatestTimestamp, "y")}), &applied));
  EXPECT_FALSE(applied);
  EXPECT_EQ(Get("r"), (Cells{"f:q@" + std::to_string(kNow) + "=x"}));
}

TEST_F(StoreTest, CheckAndPutComparesOnlyNewestVersion) {
  // G82
  ASSERT_OK(CreateTable({Family("f", 3)}));
  ASSERT_OK(Put("r", "f", "q", 1, "a"));
  ASSERT_OK(Put("r", "f", "q", 2, "b"));
  bool applied = true;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, "a"s,
                                   Row("r", {PutOp("f", "x", 3, "1")}), &applied));
  EXPECT_FALSE(applied);
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, "b"s,
                                   Row("r", {PutOp("f", "x", 3, "2")}), &applied));
  EXPECT_TRUE(applied);
  EXPECT_EQ(Get("r"), (Cells{"f:q@2=b", "f:x@3=2"}));
}

TEST_F(StoreTest, CheckAndPutWithEmptyExpectedMatchesEmptyValue) {
  // G83: unset and empty expected values both match a stored empty value.
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Put("r", "f", "q", 1, ""));
  bool applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, std::nullopt,
                                   Row("r", {PutOp("f", "a", 1, "1")}), &applied));
  EXPECT_TRUE(applied);
  applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, ""s,
                                   Row("r", {PutOp("f", "b", 1, "2")}), &applied));
  EXPECT_TRUE(applied);
  EXPECT_EQ(Get("r"), (Cells{"f:a@1=1", "f:b@1=2", "f:q@1="}));
}

TEST_F(StoreTest, CheckAndPutWithValueFailsOnAbsentColumn) {
  ASSERT_OK(CreateTable({Family("f")}));
  bool applied = true;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, "x"s,
                                   Row("r", {PutOp("f", "q", 1, "y")}), &applied));
  EXPECT_FALSE(applied);
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(StoreTest, CheckAndPutSeesDeletes) {
  ASSERT_OK(CreateTable({Family("f")}));
  ASSERT_OK(Put("r", "f", "q", 1, "x"));
  ASSERT_OK(Mutate("r", {DeleteOp(MutationType::kDeleteColumn, "f", "q", 1)}));
  bool applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, std::nullopt,
                                   Row("r", {PutOp("f", "q", 2, "y")}), &applied));
  EXPECT_TRUE(applied);
}

TEST_F(StoreTest, CheckAndDeleteRowRemovesRow) {
  // G84
  ASSERT_OK(CreateTable({Family("f"), Family("g")}));
  ASSERT_OK(Mutate("r", {PutOp("f", "q", 1, "x"), PutOp("g", "a", 1, "y")}));
  bool applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, "x"s,
                                   Row("r", {DeleteOp(MutationType::kDeleteRow, "", "")}),
                                   &applied));
  EXPECT_TRUE(applied);
  EXPECT_EQ(Get("r"), Cells{});
}

TEST_F(StoreTest, CheckAndPutAgainstFutureDatedCellIsNotEclipsed) {
  // HRegion.checkAndMutate gives server-timestamped puts max(now, checked cell's ts) "to ensure
  // the write is not eclipsed"; explicit timestamps are kept.
  ASSERT_OK(CreateTable({Family("f", 3)}));
  const int64_t future = kNow + 1000;
  ASSERT_OK(Put("r", "f", "q", future, "x"));
  bool applied = false;
  ASSERT_OK(store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, "x"s,
                                   Row("r", {PutOp("f", "q", kLatestTimestamp, "y"),
                                             PutOp("f", "e", 5, "explicit")}),
                                   &applied));
  EXPECT_TRUE(applied);
  EXPECT_EQ(Get("r", Versions(3)),
            (Cells{"f:e@5=explicit", "f:q@" + std::to_string(future) + "=y"}));
}

TEST_F(StoreTest, CheckAndMutateRejectsOtherRowAndUnknownFamily) {
  ASSERT_OK(CreateTable({Family("f")}));
  bool applied = true;
  EXPECT_CODE(kInvalidArgument,
              store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kEqual, std::nullopt,
                                     Row("other", {PutOp("f", "q", 1, "v")}), &applied));
  EXPECT_FALSE(applied);
  EXPECT_CODE(kNoSuchColumnFamily,
              store_->CheckAndMutate("t", "r", "x", "q", CompareOp::kEqual, std::nullopt,
                                     Row("r", {PutOp("f", "q", 1, "v")}), &applied));
  EXPECT_EQ(Get("r"), Cells{});
  EXPECT_EQ(Get("other"), Cells{});
}

// ---------------------------------------------------------------- concurrency

TEST_F(StoreTest, ConcurrentIncrementsOfOneCounterAreNotLost) {
  ASSERT_OK(CreateTable({Family("f")}));
  constexpr int kThreads = 8, kPerThread = 500;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      std::vector<Cell> cells;
      for (int j = 0; j < kPerThread; ++j) {
        if (!store_->Increment("t", "counter", {{"f", "c", 1}}, &cells).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  RowResult result;
  ASSERT_OK(store_->Get("t", "counter", ReadSpec(), &result));
  ASSERT_EQ(result.cells.size(), 1u);
  EXPECT_EQ(static_cast<int64_t>(DecodeFixed64BE(result.cells[0].value.data())),
            kThreads * kPerThread);
}

TEST_F(StoreTest, ConcurrentAppendsToOneCellAreNotLost) {
  ASSERT_OK(CreateTable({Family("f")}));
  constexpr int kThreads = 4, kPerThread = 100;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      std::vector<Cell> cells;
      const std::string piece(1, static_cast<char>('a' + i));
      for (int j = 0; j < kPerThread; ++j) {
        EXPECT_OK(store_->Append("t", "r", {{"f", "s", piece}}, &cells));
      }
    });
  }
  for (auto& t : threads) t.join();
  RowResult result;
  ASSERT_OK(store_->Get("t", "r", ReadSpec(), &result));
  ASSERT_EQ(result.cells.size(), 1u);
  EXPECT_EQ(result.cells[0].value.size(), static_cast<size_t>(kThreads * kPerThread));
}

}  // namespace
}  // namespace hbemu::storage
