#include "storage/mutation.h"

#include <gtest/gtest.h>

#include <string>

namespace hbemu::storage {
namespace {

TEST(MutationBatchViewTest, RowsKeepTheirOwnColumnsIncludingEmptyRows) {
  MutationBatchView batch;
  batch.AddRow("a", 5);
  batch.AddColumn({MutationType::kPut, "f", "q", 1, "v"});
  batch.AddColumn({MutationType::kDeleteColumn, "f", "r", 2, ""});
  batch.AddRow("b");  // no columns
  batch.AddRow("c");
  batch.AddColumn({MutationType::kDeleteFamily, "g", "", 3, ""});
  ASSERT_EQ(batch.size(), 3u);
  const RowMutationView a = batch[0], b = batch[1], c = batch[2];
  EXPECT_EQ(a.row, "a");
  EXPECT_EQ(a.cell_ttl_ms, 5);
  ASSERT_EQ(a.end - a.begin, 2);
  EXPECT_EQ(a.begin[1].qualifier, "r");
  EXPECT_EQ(b.row, "b");
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(c.row, "c");
  ASSERT_EQ(c.end - c.begin, 1);
  EXPECT_EQ(c.begin->type, MutationType::kDeleteFamily);
  batch.Clear();
  EXPECT_TRUE(batch.empty());
}

TEST(MutationBatchViewTest, OwnedRowsAreViewedInPlace) {
  RowMutation owned;
  owned.row = "row";
  owned.cell_ttl_ms = 7;
  owned.mutations.push_back({MutationType::kPut, "f", "q", 9, std::string(100, 'v')});
  MutationBatchView batch;
  batch.Add(owned);
  const RowMutationView view = batch[0];
  EXPECT_EQ(view.row.data(), owned.row.data());
  EXPECT_EQ(view.cell_ttl_ms, 7);
  ASSERT_EQ(view.end - view.begin, 1);
  EXPECT_EQ(view.begin->value.data(), owned.mutations[0].value.data());
  EXPECT_EQ(view.begin->timestamp, 9);
}

}  // namespace
}  // namespace hbemu::storage
