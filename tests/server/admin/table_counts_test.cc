#include "server/admin/table_counts.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/store.h"
#include "tests/server/admin/scoped_limits.h"
#include "tests/test_util.h"

namespace hbemu::server::admin {
namespace {

class TableCountsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(nullptr, &store_));
    storage::FamilyDescriptor f;
    f.name = "f";
    for (const char* name : {"a", "b"}) {
      ASSERT_OK(store_->CreateTable(name, std::vector<storage::FamilyDescriptor>{f}));
    }
  }

  void Put(const std::string& table, int rows) {
    for (int i = 0; i < rows; ++i) {
      storage::RowMutation m;
      m.row = "r" + std::to_string(next_row_++);
      m.mutations.push_back({storage::MutationType::kPut, "f", "q", 1, "v"});
      ASSERT_OK(store_->Mutate(table, m));
    }
  }

  TableCounts::Table Of(const std::string& name, uint64_t rows_written = 0) {
    TableCounts::Table t;
    EXPECT_OK(store_->DescribeTable(name, &t.descriptor));
    t.rows_written = rows_written;
    return t;
  }

  std::unique_ptr<storage::Store> store_;
  int next_row_ = 0;
};

TEST_F(TableCountsTest, OneRequestWalksAtMostAdminCountCellsLongestAgoCountedFirst) {
  ScopedLimits limits([] {
    Limits l;
    l.admin_count_cells = 100;
    return l;
  }());
  Put("a", 150);
  Put("b", 10);
  TableCounts counts(store_.get());
  std::vector<TableCounts::Count> c = counts.Get({Of("a"), Of("b")}, 0);
  EXPECT_TRUE(c[0].known);
  EXPECT_FALSE(c[0].complete);
  EXPECT_EQ(c[0].cells, 100u);  // "at least 100"
  EXPECT_FALSE(c[1].known);     // the budget was spent on a
  c = counts.Get({Of("a"), Of("b")}, 1);
  EXPECT_EQ(c[0].cells, 100u);  // remembered, not walked again
  ASSERT_TRUE(c[1].known);
  EXPECT_TRUE(c[1].complete);
  EXPECT_EQ(c[1].rows, 10u);
}

TEST_F(TableCountsTest, ACountIsKeptUntilWritesDdlOrTimeSayItChanged) {
  Put("a", 5);
  TableCounts counts(store_.get());
  EXPECT_EQ(counts.Get({Of("a", 5)}, 0)[0].rows, 5u);
  Put("a", 3);
  // Nothing says the table changed: the remembered count stands.
  EXPECT_EQ(counts.Get({Of("a", 5)}, 1)[0].rows, 5u);
  // The metrics saw writes.
  EXPECT_EQ(counts.Get({Of("a", 8)}, 2)[0].rows, 8u);
  Put("a", 1);
  EXPECT_EQ(counts.Get({Of("a", 8)}, 2 + TableCounts::kFreshSeconds)[0].rows, 9u);
  Put("a", 1);
  // DDL makes a new descriptor.
  ASSERT_OK(store_->DisableTable("a"));
  EXPECT_EQ(counts.Get({Of("a", 8)}, 13)[0].rows, 10u);
}

}  // namespace
}  // namespace hbemu::server::admin
