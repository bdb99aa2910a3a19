// Store's raw reads for the admin console (storage/store_inspect.cc): what one call may read is
// bounded by RawReadLimits, and a RawPosition resumes at the exact cell where a page stopped.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

class StoreInspectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions options;
    options.in_memory = true;
    ASSERT_OK(Store::Open(options, &store_));
    FamilyDescriptor f;
    f.name = "f";
    f.max_versions = 3;
    ASSERT_OK(store_->CreateTable("t", std::vector<FamilyDescriptor>{f}));
  }

  void Put(const std::string& row, const std::string& qualifier, const std::string& value) {
    RowMutation m;
    m.row = row;
    m.mutations.push_back({MutationType::kPut, "f", qualifier, 1, value});
    ASSERT_OK(store_->Mutate("t", m));
  }

  // "row/qualifier" of every cell of a page.
  static std::vector<std::string> Cells(const Store::RawPage& page) {
    std::vector<std::string> out;
    for (const Store::RawCell& c : page.cells) out.push_back(c.row + "/" + c.qualifier);
    return out;
  }

  std::unique_ptr<Store> store_;
};

TEST_F(StoreInspectTest, ValuesAreCutToMaxValueBytesWithTheirFullLength) {
  Put("r", "q", std::string(5000, 'x'));
  Store::RawReadLimits limits;
  limits.max_value_bytes = 10;
  Store::RawPage page;
  ASSERT_OK(store_->ReadRawRows("t", "", "", "", limits, &page));
  ASSERT_EQ(page.cells.size(), 1u);
  EXPECT_EQ(page.cells[0].value, std::string(10, 'x'));
  EXPECT_EQ(page.cells[0].value_size, 5000u);
  EXPECT_TRUE(page.next_position.empty());
}

TEST_F(StoreInspectTest, TheCellBoundCutsARowAndItsPositionResumesAtTheNextCell) {
  for (int i = 0; i < 7; ++i) Put("a", "q" + std::to_string(i), "v");
  Put("b", "q", "v");
  Store::RawReadLimits limits;
  limits.max_cells = 3;
  std::vector<std::string> seen;
  std::string position;
  for (int pages = 0; pages < 10; ++pages) {
    Store::RawPage page;
    ASSERT_OK(store_->ReadRawRows("t", "", "", position, limits, &page));
    EXPECT_LE(page.cells.size(), 3u);
    const std::vector<std::string> cells = Cells(page);
    seen.insert(seen.end(), cells.begin(), cells.end());
    if (page.next_position.empty()) break;
    // The position names the first cell not read.
    ASSERT_EQ(page.next_row, pages < 2 ? "a" : "b");
    position = page.next_position;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"a/q0", "a/q1", "a/q2", "a/q3", "a/q4", "a/q5",
                                            "a/q6", "b/q"}));
}

TEST_F(StoreInspectTest, TheByteBoundEndsThePageAfterAtLeastOneCell) {
  for (int i = 0; i < 5; ++i) Put("r" + std::to_string(i), "q", std::string(100, 'v'));
  Store::RawReadLimits limits;
  limits.max_bytes = 250;  // each cell keeps 2 + 1 + 1 + 100 bytes
  Store::RawPage page;
  ASSERT_OK(store_->ReadRawRows("t", "", "", "", limits, &page));
  EXPECT_EQ(Cells(page), (std::vector<std::string>{"r0/q", "r1/q", "r2/q"}));
  EXPECT_EQ(page.next_row, "r3");
  limits.max_bytes = 0;
  ASSERT_OK(store_->ReadRawRows("t", "", "", "", limits, &page));
  EXPECT_EQ(Cells(page), (std::vector<std::string>{"r0/q"}));
}

TEST_F(StoreInspectTest, APositionOfACellShownResumesRightThereAndNeverBeforeThePrefix) {
  for (const char* row : {"a1", "b1", "b2", "c1"}) Put(row, "q", "v");
  Store::RawPage all;
  ASSERT_OK(store_->ReadRawRows("t", "", "", 100, 100, &all));
  ASSERT_EQ(all.cells.size(), 4u);
  Store::RawReadLimits limits;
  Store::RawPage page;
  ASSERT_OK(store_->ReadRawRows("t", "", "", Store::RawPosition(all.cells[2]), limits, &page));
  EXPECT_EQ(Cells(page), (std::vector<std::string>{"b2/q", "c1/q"}));
  // A position before the prefix starts at the prefix; one after it ends the scan.
  ASSERT_OK(store_->ReadRawRows("t", "", "b", Store::RawPosition(all.cells[0]), limits, &page));
  EXPECT_EQ(Cells(page), (std::vector<std::string>{"b1/q", "b2/q"}));
  ASSERT_OK(store_->ReadRawRows("t", "", "b", Store::RawPosition(all.cells[3]), limits, &page));
  EXPECT_TRUE(page.cells.empty());
  // Garbage positions stay inside the table.
  ASSERT_OK(store_->ReadRawRows("t", "", "", std::string(20, '\xff'), limits, &page));
  EXPECT_TRUE(page.cells.empty());
}

}  // namespace
}  // namespace hbemu::storage
