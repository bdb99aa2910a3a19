// HBase's flush at disableTable and at the region reopen of an online schema change
// (storage/prune.h), through the Store facade. Each expectation was read off a real HBase 2.6.1
// with the same writes; the stored cells are checked with a raw read.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::DeleteOp;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

class PruneTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_)); }

  void Create(FamilyDescriptor family) {
    ASSERT_OK(store_->CreateTable("t", {std::move(family)}));
  }
  void Write(std::vector<ColumnMutation> mutations) {
    ASSERT_OK(store_->Mutate("t", Row("r", std::move(mutations))));
  }
  void Cycle() {
    ASSERT_OK(store_->DisableTable("t"));
    ASSERT_OK(store_->EnableTable("t"));
  }
  // Timestamps of the puts a read of every version sees within [min, max).
  std::vector<int64_t> Read(int64_t min = 0, int64_t max = INT64_MAX) {
    ReadSpec spec;
    spec.max_versions = 100;
    spec.time_range = TimeRange{min, max};
    RowResult result;
    EXPECT_OK(store_->Get("t", "r", spec, &result));
    std::vector<int64_t> out;
    for (const Cell& cell : result.cells) out.push_back(cell.timestamp);
    return out;
  }
  // "q@ts" for puts and "q@ts/marker" for delete markers, as stored.
  std::vector<std::string> Raw() {
    Store::RawPage page;
    EXPECT_OK(store_->ReadRawRows("t", "", "", 100, 1000, &page));
    std::vector<std::string> out;
    for (const Store::RawCell& c : page.cells) {
      out.push_back(c.qualifier + "@" + std::to_string(c.timestamp) +
                    (c.type == CellType::kPut ? "" : "/marker"));
    }
    return out;
  }

  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

using V = std::vector<int64_t>;
using S = std::vector<std::string>;

TEST_F(PruneTest, DisableDropsVersionsBeyondVersions) {
  Create(Family("f", 2));
  Write({PutOp("f", "q", 1, "a"), PutOp("f", "q", 2, "b"), PutOp("f", "q", 3, "c")});
  EXPECT_EQ(Read(0, 3), (V{2, 1}));  // before the flush a time range reaches past VERSIONS
  Cycle();
  EXPECT_EQ(Read(0, 3), (V{2}));
  EXPECT_EQ(Read(), (V{3, 2}));
  EXPECT_EQ(Raw(), (S{"q@3", "q@2"}));
}

TEST_F(PruneTest, DeletedVersionsDoNotCountAndMarkersStay) {
  Create(Family("f", 1));
  Write({PutOp("f", "q", 1, "a"), PutOp("f", "q", 2, "b")});
  Write({DeleteOp(MutationType::kDeleteVersion, "f", "q", 2)});
  Cycle();
  EXPECT_EQ(Read(), (V{1}));
  EXPECT_EQ(Raw(), (S{"q@2/marker", "q@1"}));
}

TEST_F(PruneTest, MarkersKeepMaskingPutsWrittenAfterTheFlush) {
  Create(Family("f", 5));
  Write({PutOp("f", "a", 5, "x"), DeleteOp(MutationType::kDeleteColumn, "f", "a", 5),
         PutOp("f", "b", 5, "x"), DeleteOp(MutationType::kDeleteFamily, "f", "", 3)});
  Cycle();
  EXPECT_EQ(Raw(), (S{"@3/marker", "a@5/marker", "b@5"}));
  Write({PutOp("f", "a", 4, "y"), PutOp("f", "b", 2, "y")});
  EXPECT_EQ(Read(), (V{5}));  // only b@5
}

TEST_F(PruneTest, KeepDeletedCellsKeepsMaskedVersionsButCountsThemAgainstVersions) {
  FamilyDescriptor f = Family("f", 2);
  f.keep_deleted_cells = KeepDeletedCells::kTrue;
  Create(f);
  Write({PutOp("f", "q", 1, "a"), PutOp("f", "q", 2, "b"), PutOp("f", "q", 3, "c")});
  Write({DeleteOp(MutationType::kDeleteVersion, "f", "q", 3)});
  EXPECT_EQ(Read(), (V{2, 1}));
  Cycle();
  EXPECT_EQ(Read(), (V{2}));
  EXPECT_EQ(Raw(), (S{"q@3/marker", "q@3", "q@2"}));
}

TEST_F(PruneTest, KeepDeletedCellsTtlLetsOnlyExpiredMarkersMask) {
  FamilyDescriptor f = Family("f", 5);
  f.keep_deleted_cells = KeepDeletedCells::kTtl;
  f.ttl_seconds = 5;
  f.min_versions = 1;
  Create(f);
  Write({PutOp("f", "a", kTestNowMs - 20'000, "x"), PutOp("f", "a", kTestNowMs - 15'000, "y"),
         DeleteOp(MutationType::kDeleteColumn, "f", "a", kTestNowMs - 10'000),
         PutOp("f", "b", kTestNowMs - 1'000, "z"),
         DeleteOp(MutationType::kDeleteColumn, "f", "b", kTestNowMs - 500)});
  EXPECT_EQ(Read(0, kTestNowMs - 12'000), (V{kTestNowMs - 15'000}));
  Cycle();
  EXPECT_EQ(Read(0, kTestNowMs - 12'000), V{});
  EXPECT_EQ(Read(0, kTestNowMs - 600), (V{kTestNowMs - 1'000}));
}

TEST_F(PruneTest, ExpiredCellsGoBeyondMinVersions) {
  FamilyDescriptor f = Family("f", 5);
  f.ttl_seconds = 5;
  f.min_versions = 1;
  Create(f);
  Write({PutOp("f", "q", kTestNowMs - 30'000, "a"), PutOp("f", "q", kTestNowMs - 20'000, "b"),
         PutOp("f", "q", kTestNowMs - 10'000, "c")});
  Cycle();
  EXPECT_EQ(Raw(), (S{"q@" + std::to_string(kTestNowMs - 10'000)}));
}

TEST_F(PruneTest, ExpiredCellTtlGoes) {
  Create(Family("f", 3));
  RowMutation m = Row("r", {PutOp("f", "q", kTestNowMs, "a")});
  m.cell_ttl_ms = 1'000;
  ASSERT_OK(store_->Mutate("t", m));
  Write({PutOp("f", "q", kTestNowMs - 1, "b")});
  clock_.Advance(2'000);
  Cycle();
  EXPECT_EQ(Raw(), (S{"q@" + std::to_string(kTestNowMs - 1)}));
}

TEST_F(PruneTest, OnlineSchemaChangesFlushUnderTheOldSettings) {
  for (int call = 0; call < 4; ++call) {
    SCOPED_TRACE(call);
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    ASSERT_OK(store_->CreateTable("t", {Family("f", 1), Family("g", 1)}));
    Write({PutOp("f", "q", 1, "a"), PutOp("f", "q", 2, "b"), PutOp("f", "q", 3, "c")});
    switch (call) {
      case 0: ASSERT_OK(store_->ModifyFamily("t", Family("f", 5))); break;
      case 1: ASSERT_OK(store_->AddFamily("t", Family("h", 1))); break;
      case 2: ASSERT_OK(store_->DeleteFamily("t", "g")); break;
      case 3: {
        TableDescriptor spec;
        spec.families = {Family("f", 5), Family("g", 1)};
        ASSERT_OK(store_->ModifyTable("t", spec));
        break;
      }
    }
    EXPECT_EQ(Read(), (V{3}));
  }
}

TEST_F(PruneTest, ARejectedSchemaChangeDoesNotFlush) {
  Create(Family("f", 1));
  Write({PutOp("f", "q", 1, "a"), PutOp("f", "q", 2, "b")});
  FamilyDescriptor zstd = Family("f", 5);
  zstd.compression = "ZSTD";
  EXPECT_CODE(kDoNotRetry, store_->ModifyFamily("t", zstd));
  EXPECT_EQ(Read(0, 2), (V{1}));
}

}  // namespace
}  // namespace hbemu::storage
