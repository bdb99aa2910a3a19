// Online schema changes, truncate, split keys and namespace configuration through the Store
// facade (store_admin.cc): what HBase 2.6's Admin calls do to the data a table already holds.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellStrings;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

class StoreAdminTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_)); }

  std::vector<std::string> Read(const std::string& table, const std::string& row,
                                int32_t max_versions = 10) {
    ReadSpec spec;
    spec.max_versions = max_versions;
    RowResult result;
    EXPECT_OK(store_->Get(table, row, spec, &result));
    return CellStrings(result.cells);
  }

  std::shared_ptr<const TableDescriptor> Describe(const std::string& table) {
    std::shared_ptr<const TableDescriptor> out;
    EXPECT_OK(store_->DescribeTable(table, &out));
    return out;
  }

  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

TEST_F(StoreAdminTest, RaisingVersionsAppliesToLaterWritesNotToVersionsTheReopenFlushed) {
  ASSERT_OK(store_->CreateTable("t", {Family("f", 1)}));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "a"), PutOp("f", "q", 2, "b")})));
  EXPECT_EQ(Read("t", "r").size(), 1u);
  // Online: the table stays enabled; HBase's region reopen flushes under VERSIONS 1 first.
  ASSERT_OK(store_->ModifyFamily("t", Family("f", 3)));
  EXPECT_EQ(Read("t", "r"), (std::vector<std::string>{"f:q@2=b"}));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 3, "c")})));
  EXPECT_EQ(Read("t", "r"), (std::vector<std::string>{"f:q@3=c", "f:q@2=b"}));
  EXPECT_EQ(Describe("t")->families[0].max_versions, 3);
}

TEST_F(StoreAdminTest, ChangingTtlHidesExpiredCellsOnTheNextRead) {
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", kTestNowMs - 10'000, "old")})));
  EXPECT_EQ(Read("t", "r").size(), 1u);
  FamilyDescriptor f = Family("f");
  f.ttl_seconds = 5;
  ASSERT_OK(store_->ModifyFamily("t", f));
  EXPECT_TRUE(Read("t", "r").empty());
}

TEST_F(StoreAdminTest, DeletedFamilyLosesItsCellsAndComesBackEmpty) {
  ASSERT_OK(store_->CreateTable("t", {Family("f"), Family("g")}));
  for (const char* row : {"a", "b", "c"}) {
    ASSERT_OK(store_->Mutate("t", Row(row, {PutOp("f", "q", 1, "x"), PutOp("g", "q", 1, "y")})));
  }
  ASSERT_OK(store_->DeleteFamily("t", "g"));
  EXPECT_EQ(Read("t", "b"), (std::vector<std::string>{"f:q@1=x"}));
  ASSERT_OK(store_->AddFamily("t", Family("g")));
  EXPECT_EQ(Read("t", "b"), (std::vector<std::string>{"f:q@1=x"}));  // no resurrection
}

TEST_F(StoreAdminTest, FamilyOperationsUseHBaseMessages) {
  ASSERT_OK(store_->CreateTable("ns_t", {Family("f")}));
  const Status dup = store_->AddFamily("ns_t", Family("f"));
  EXPECT_CODE(kInvalidFamilyOperation, dup);
  EXPECT_EQ(dup.message(), "Column family 'f' in table 'ns_t' already exists so cannot be added");
  const Status missing = store_->ModifyFamily("ns_t", Family("zz"));
  EXPECT_EQ(missing.message(), "Family 'zz' does not exist, so it cannot be modified");
  EXPECT_EQ(store_->DeleteFamily("ns_t", "zz").message(),
            "Family 'zz' does not exist, so it cannot be deleted");
  EXPECT_CODE(kInvalidFamilyOperation, store_->DeleteFamily("ns_t", "f"));  // the only one
  EXPECT_CODE(kTableNotFound, store_->AddFamily("nope", Family("g")));
}

TEST_F(StoreAdminTest, ModifyTableReplacesFamiliesAndAttributesButKeepsSplits) {
  TableDescriptor spec;
  spec.families = {Family("f"), Family("g")};
  spec.split_keys = {"m"};
  spec.values = {{"A", "1"}};
  ASSERT_OK(store_->CreateTable("t", spec));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "x"), PutOp("g", "q", 1, "y")})));
  TableDescriptor change;
  change.families = {Family("f", 5)};
  change.values = {{"B", "2"}};
  change.durability = Durability::kSyncWal;
  ASSERT_OK(store_->ModifyTable("t", change));
  auto table = Describe("t");
  ASSERT_EQ(table->families.size(), 1u);
  EXPECT_EQ(table->families[0].max_versions, 5);
  EXPECT_EQ(table->values, (std::map<std::string, std::string>{{"B", "2"}}));
  EXPECT_EQ(table->durability, Durability::kSyncWal);
  EXPECT_EQ(table->split_keys, (std::vector<std::string>{"m"}));
  EXPECT_EQ(Read("t", "r"), (std::vector<std::string>{"f:q@1=x"}));
  EXPECT_CODE(kDoNotRetry, store_->ModifyTable("t", TableDescriptor()));
}

TEST_F(StoreAdminTest, TruncateEmptiesTheTableEnablesItAndKeepsSplitsOnRequest) {
  TableDescriptor spec;
  spec.families = {Family("f")};
  spec.split_keys = {"m", "b"};
  ASSERT_OK(store_->CreateTable("t", spec));
  EXPECT_EQ(Describe("t")->split_keys, (std::vector<std::string>{"b", "m"}));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "x")})));
  EXPECT_CODE(kTableNotDisabled, store_->TruncateTable("t", true));
  ASSERT_OK(store_->DisableTable("t"));
  const int64_t created = Describe("t")->created_ms;
  clock_.Advance(5);
  ASSERT_OK(store_->TruncateTable("t", true));
  auto table = Describe("t");
  EXPECT_TRUE(table->enabled);
  EXPECT_EQ(table->split_keys, (std::vector<std::string>{"b", "m"}));
  EXPECT_GT(table->created_ms, created);  // a new region id
  EXPECT_TRUE(Read("t", "r").empty());
  ASSERT_OK(store_->DisableTable("t"));
  ASSERT_OK(store_->TruncateTable("t", false));
  EXPECT_TRUE(Describe("t")->split_keys.empty());
  store_->WaitForSweeps();
  EXPECT_CODE(kTableNotFound, store_->TruncateTable("nope", true));
}

TEST_F(StoreAdminTest, BadSplitKeysRejectTheCreate) {
  TableDescriptor spec;
  spec.families = {Family("f")};
  spec.split_keys = {"a", ""};
  EXPECT_CODE(kInvalidArgument, store_->CreateTable("t", spec));
  spec.split_keys = {"a", "a"};
  EXPECT_CODE(kInvalidArgument, store_->CreateTable("t", spec));
  EXPECT_TRUE(store_->ListTables().empty());
}

TEST_F(StoreAdminTest, NamespaceConfigurationIsKeptAndReplaced) {
  ASSERT_OK(store_->CreateNamespace("ns", {{"a", "b"}}));
  NamespaceDescriptor ns;
  ASSERT_OK(store_->DescribeNamespace("ns", &ns));
  EXPECT_EQ(ns.configuration, (std::map<std::string, std::string>{{"a", "b"}}));
  ASSERT_OK(store_->ModifyNamespace("ns", {{"c", "d"}}));
  ASSERT_OK(store_->DescribeNamespace("ns", &ns));
  EXPECT_EQ(ns.configuration, (std::map<std::string, std::string>{{"c", "d"}}));
  EXPECT_CODE(kNamespaceNotFound, store_->ModifyNamespace("nosuch", {}));
  EXPECT_EQ(store_->ListNamespaceDescriptors().size(), 3u);
}

TEST(StoreAdminPersistenceTest, DescriptorsSplitsAndNamespaceConfigurationSurviveReopen) {
  testutil::TempDir dir;
  ManualClock clock{kTestNowMs};
  {
    std::unique_ptr<Store> store;
    ASSERT_OK(testutil::OpenDiskStore(dir.Sub("db"), &clock, &store));
    ASSERT_OK(store->CreateNamespace("ns", {{"k", "v"}}));
    TableDescriptor spec;
    FamilyDescriptor f = Family("f", 4);
    f.data_block_encoding = "DIFF";
    f.configuration = {{"c", "1"}};
    spec.families = {f};
    spec.split_keys = {"k"};
    spec.values = {{"OWNER", "x"}};
    ASSERT_OK(store->CreateTable("ns:t", spec));
  }
  std::unique_ptr<Store> store;
  ASSERT_OK(testutil::OpenDiskStore(dir.Sub("db"), &clock, &store));
  NamespaceDescriptor ns;
  ASSERT_OK(store->DescribeNamespace("ns", &ns));
  EXPECT_EQ(ns.configuration.at("k"), "v");
  std::shared_ptr<const TableDescriptor> table;
  ASSERT_OK(store->DescribeTable("ns:t", &table));
  EXPECT_EQ(table->split_keys, (std::vector<std::string>{"k"}));
  EXPECT_EQ(table->values.at("OWNER"), "x");
  EXPECT_EQ(table->families[0].data_block_encoding, "DIFF");
  EXPECT_EQ(table->families[0].configuration.at("c"), "1");
}

}  // namespace
}  // namespace hbemu::storage
