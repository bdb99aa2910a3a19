#include "storage/result_budget.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

RowResult Row(const std::string& key, size_t value_bytes, int cells = 1) {
  RowResult r;
  r.row = key;
  for (int i = 0; i < cells; ++i) r.cells.push_back({"f", "q" + std::to_string(i), 1, std::string(value_bytes, 'x')});
  return r;
}

TEST(ResultBudgetTest, ACallPastTheLimitFailsNamingIt) {
  ResultBudget budget(10000);
  EXPECT_OK(budget.Charge(Row("r", 4000)));
  const Status s = budget.Charge(Row("r", 6000));
  EXPECT_EQ(s.code(), Status::Code::kResultTooLarge);
  EXPECT_NE(s.message().find("result_bytes limit of 10000 bytes"), std::string::npos) << s.message();
}

// A small row named over and over costs its result and reply structs, not only its bytes.
TEST(ResultBudgetTest, EveryRowAndCellIsChargedWhatHoldingItCosts) {
  ResultBudget budget(1 << 20);
  int rows = 0;
  while (budget.Charge(Row("r", 1)).ok()) ++rows;
  EXPECT_LT(rows, static_cast<int>((1 << 20) / ResultBudget::kRowOverhead));
  EXPECT_GT(rows, 1000);
  ResultBudget empty(1 << 20);
  EXPECT_OK(empty.Charge(RowResult{}));
  EXPECT_EQ(empty.used(), ResultBudget::kRowOverhead);
}

}  // namespace
}  // namespace hbemu::storage
