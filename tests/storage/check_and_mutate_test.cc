// checkAndMutate's comparison with every operator (docs/hbase-semantics.md#check-and-mutate): the
// rule in comparators.h and the Store call all three Thrift check-and-* methods go through. The
// matrix below was measured on HBase 2.6.1 through Thrift2 checkAndMutate: stored absent / empty /
// "m" against expected "", "a", "m", "z" for each operator.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/comparators.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

struct MatrixRow {
  CompareOp op;
  // Results for expected "", "a", "m", "z", per stored state.
  std::vector<bool> absent;
  std::vector<bool> empty;
  std::vector<bool> m;
};

const std::vector<std::string> kExpected = {"", "a", "m", "z"};

const std::vector<MatrixRow> kMatrix = {
    {CompareOp::kLess, {1, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}},
    {CompareOp::kLessOrEqual, {1, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 1, 0}},
    {CompareOp::kEqual, {1, 0, 0, 0}, {1, 0, 0, 0}, {0, 0, 1, 0}},
    {CompareOp::kNotEqual, {0, 0, 0, 0}, {0, 1, 1, 1}, {1, 1, 0, 1}},
    {CompareOp::kGreaterOrEqual, {1, 0, 0, 0}, {1, 1, 1, 1}, {0, 0, 1, 1}},
    {CompareOp::kGreater, {1, 0, 0, 0}, {1, 1, 1, 1}, {0, 0, 0, 1}},
};

TEST(CheckValueMatchesTest, ExpectedOpStoredAsHBaseMeasured) {
  for (const MatrixRow& row : kMatrix) {
    for (size_t i = 0; i < kExpected.size(); ++i) {
      const std::optional<std::string> expected = kExpected[i];
      bool matches = false;
      ASSERT_OK(CheckValueMatches(row.op, expected, std::nullopt, &matches));
      EXPECT_EQ(matches, row.absent[i]) << CompareOpName(row.op) << " absent vs '" << kExpected[i];
      ASSERT_OK(CheckValueMatches(row.op, expected, std::string_view(), &matches));
      EXPECT_EQ(matches, row.empty[i]) << CompareOpName(row.op) << " empty vs '" << kExpected[i];
      ASSERT_OK(CheckValueMatches(row.op, expected, std::string_view("m"), &matches));
      EXPECT_EQ(matches, row.m[i]) << CompareOpName(row.op) << " 'm' vs '" << kExpected[i];
    }
  }
}

TEST(CheckValueMatchesTest, UnsetExpectedIsTheSameAsEmpty) {
  for (const MatrixRow& row : kMatrix) {
    for (const std::optional<std::string_view>& stored :
         {std::optional<std::string_view>(), std::optional<std::string_view>(""),
          std::optional<std::string_view>("m")}) {
      bool unset = false, empty = false;
      ASSERT_OK(CheckValueMatches(row.op, std::nullopt, stored, &unset));
      ASSERT_OK(CheckValueMatches(row.op, std::string(), stored, &empty));
      EXPECT_EQ(unset, empty) << CompareOpName(row.op);
    }
  }
}

TEST(CheckValueMatchesTest, BytesCompareUnsignedWithAPrefixFirst) {
  bool matches = false;
  // 0x80 sorts after 0x7f as unsigned bytes.
  ASSERT_OK(CheckValueMatches(CompareOp::kLess, std::string("\x7f"), std::string_view("\x80"),
                              &matches));
  EXPECT_TRUE(matches);
  ASSERT_OK(CheckValueMatches(CompareOp::kLess, std::string("ab"), std::string_view("abc"),
                              &matches));
  EXPECT_TRUE(matches);
  ASSERT_OK(CheckValueMatches(CompareOp::kGreater, std::string("abc"), std::string_view("ab"),
                              &matches));
  EXPECT_TRUE(matches);
}

TEST(CheckValueMatchesTest, NoOpPassesOnlyWhereNoComparisonIsNeeded) {
  bool matches = false;
  ASSERT_OK(CheckValueMatches(CompareOp::kNoOp, std::string(), std::nullopt, &matches));
  EXPECT_TRUE(matches);
  ASSERT_OK(CheckValueMatches(CompareOp::kNoOp, std::string(), std::string_view("m"), &matches));
  EXPECT_FALSE(matches);
  ASSERT_OK(CheckValueMatches(CompareOp::kNoOp, std::string("a"), std::nullopt, &matches));
  EXPECT_FALSE(matches);
  // HBase's region server throws "Unknown Compare op NO_OP" when it must compare.
  const Status s = CheckValueMatches(CompareOp::kNoOp, std::string("a"), std::string_view("m"),
                                     &matches);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("Unknown Compare op NO_OP"), std::string::npos);
  EXPECT_FALSE(matches);
}

class CheckAndMutateStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    ASSERT_OK(store_->CreateTable("t", {Family("f", 3)}));
  }

  // Runs checkAndMutate(op, expected) on f:q of `row` with a put of f:applied.
  bool Check(const std::string& row, CompareOp op, std::optional<std::string> expected) {
    bool applied = false;
    EXPECT_OK(store_->CheckAndMutate("t", row, "f", "q", op, expected,
                                     Row(row, {PutOp("f", "applied", kLatestTimestamp, "1")}),
                                     &applied));
    return applied;
  }

  bool Applied(const std::string& row) {
    ReadSpec spec;
    spec.columns.AddColumn("f", "applied");
    RowResult result;
    EXPECT_OK(store_->Get("t", row, spec, &result));
    return !result.cells.empty();
  }

  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

TEST_F(CheckAndMutateStoreTest, EveryOperatorComparesExpectedAgainstTheNewestStoredValue) {
  // Two versions: only the newest ("m") is compared.
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "z"), PutOp("f", "q", 2, "m")})));
  EXPECT_TRUE(Check("r", CompareOp::kLess, std::string("a")));
  EXPECT_FALSE(Check("r", CompareOp::kLess, std::string("z")));
  EXPECT_TRUE(Check("r", CompareOp::kGreaterOrEqual, std::string("m")));
  EXPECT_FALSE(Check("r", CompareOp::kGreater, std::string("m")));
  EXPECT_TRUE(Check("r", CompareOp::kNotEqual, std::string("z")));
  EXPECT_TRUE(Check("r", CompareOp::kNotEqual, std::nullopt));
  EXPECT_TRUE(Applied("r"));
}

TEST_F(CheckAndMutateStoreTest, AFailedCheckWritesNothing) {
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "m")})));
  EXPECT_FALSE(Check("r", CompareOp::kGreater, std::string("a")));
  EXPECT_FALSE(Check("r", CompareOp::kLessOrEqual, std::nullopt));
  EXPECT_FALSE(Applied("r"));
  EXPECT_FALSE(Check("absent", CompareOp::kLess, std::string("a")));
  EXPECT_FALSE(Applied("absent"));
  EXPECT_TRUE(Check("absent", CompareOp::kGreater, std::string()));
  EXPECT_TRUE(Applied("absent"));
}

TEST_F(CheckAndMutateStoreTest, NoOpThatMustCompareFailsAndWritesNothing) {
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "m")})));
  bool applied = true;
  EXPECT_CODE(kIOError, store_->CheckAndMutate("t", "r", "f", "q", CompareOp::kNoOp,
                                               std::string("a"),
                                               Row("r", {PutOp("f", "applied", 5, "1")}),
                                               &applied));
  EXPECT_FALSE(applied);
  EXPECT_FALSE(Applied("r"));
  EXPECT_TRUE(Check("absent", CompareOp::kNoOp, std::nullopt));
}

}  // namespace
}  // namespace hbemu::storage
