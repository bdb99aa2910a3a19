// Seek hints of nested filter lists: each list works out its hint once per cell, from what its
// sub-filters answered, so a parent list (and the read asking the root) takes it instead of
// walking the subtree again. Counted on a leaf that answers every cell with a hint.

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "storage/filter.h"

namespace hbemu::storage {
namespace {

// Answers every cell with a seek to (f, `qualifier`), counting the hints it is asked for; or,
// with an empty qualifier, includes every cell.
class HintingLeaf : public Filter {
 public:
  HintingLeaf(std::string qualifier, int* hint_calls)
      : qualifier_(std::move(qualifier)), hint_calls_(hint_calls) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<HintingLeaf>(qualifier_, hint_calls_);
  }
  void Restart() override {}
  FilterCode FilterCell(const CellView&) override {
    return qualifier_.empty() ? FilterCode::kInclude : FilterCode::kSeekNextUsingHint;
  }
  bool NextCellHint(const CellView&, std::string* family, std::string* qualifier) const override {
    ++*hint_calls_;
    *family = "f";
    *qualifier = qualifier_;
    return true;
  }
  std::string ToString() const override { return "HintingLeaf"; }

 private:
  const std::string qualifier_;
  int* const hint_calls_;
};

// `levels` nested lists of two, (leaf OR (leaf OR (... leaf))), or with `alternate` every
// other list an AND (whose first leaf includes, so the cell reaches the rest). The hinting
// leaf at depth i hints at qualifier "q<i>" (zero-padded, so deeper leaves hint further on).
std::unique_ptr<Filter> NestedHintingLists(int levels, bool alternate, int* hint_calls) {
  char name[16];
  snprintf(name, sizeof name, "q%05d", levels);
  std::unique_ptr<Filter> tree = std::make_unique<HintingLeaf>(name, hint_calls);
  for (int i = levels - 1; i >= 0; --i) {
    const bool is_and = alternate && i % 2 == 1;
    snprintf(name, sizeof name, "q%05d", i);
    std::vector<std::unique_ptr<Filter>> pair;
    pair.push_back(std::make_unique<HintingLeaf>(is_and ? "" : name, hint_calls));
    pair.push_back(std::move(tree));
    tree = std::make_unique<FilterList>(is_and ? FilterList::Op::kAnd : FilterList::Op::kOr,
                                        std::move(pair));
  }
  return tree;
}

TEST(FilterHintsTest, NestedListsAskEachLeafForItsHintAboutOncePerCell) {
  // 300 levels: walking each child list again for its hint asked the leaves ~45,000 times per
  // cell (depth squared over 2); now each leaf is asked once.
  constexpr int kLevels = 300;
  for (const bool alternate : {false, true}) {
    int hint_calls = 0;
    std::unique_ptr<Filter> root = NestedHintingLists(kLevels, alternate, &hint_calls);
    for (int cell = 0; cell < 3; ++cell) {
      hint_calls = 0;
      const std::string qualifier_text = "a" + std::to_string(cell);  // the view points into it
      const CellView view{"row", "f", qualifier_text, 1, "v"};
      ASSERT_EQ(root->FilterCell(view), FilterCode::kSeekNextUsingHint);
      std::string family, qualifier;
      ASSERT_TRUE(root->NextCellHint(view, &family, &qualifier));
      EXPECT_EQ(family, "f");
      EXPECT_EQ(qualifier, "q00000");  // OR seeks to the nearest hint
      EXPECT_LE(hint_calls, 2 * (kLevels + 1)) << "cell " << cell << ", alternate " << alternate;
      root->Reset();
    }
  }
}

TEST(FilterHintsTest, ARootAskedAboutAnotherCellThanItsLastAnswerWalksItsTree) {
  int hint_calls = 0;
  std::unique_ptr<Filter> root = NestedHintingLists(3, false, &hint_calls);
  std::unique_ptr<Filter> other = NestedHintingLists(3, false, &hint_calls);
  const CellView view{"row", "f", "a", 1, "v"};
  ASSERT_EQ(root->FilterCell(view), FilterCode::kSeekNextUsingHint);
  ASSERT_EQ(other->FilterCell(view), FilterCode::kSeekNextUsingHint);  // a later walk
  hint_calls = 0;
  std::string family, qualifier;
  ASSERT_TRUE(root->NextCellHint(view, &family, &qualifier));
  EXPECT_EQ(qualifier, "q00000");
  EXPECT_GT(hint_calls, 0);  // worked out again, not taken from another walk
}

}  // namespace
}  // namespace hbemu::storage
