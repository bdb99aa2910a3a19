// Namespaces and tables through the Store facade
// (docs/hbase-semantics.md#namespaces-and-table-names, golden cases G85-G89): DDL rules and errors,
// persistence across reopen, table ids that are never reused, the background sweep of dropped
// tables and the format-version check on open.

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include "storage/catalog.h"
#include "storage/coding.h"
#include "storage/key_format.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

using namespace std::string_literals;

std::vector<std::string> TableNames(const Store& store) {
  std::vector<std::string> names;
  for (const auto& t : store.ListTables()) names.push_back(t->name.ToString());
  return names;
}

class CatalogTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_)); }

  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

TEST_F(CatalogTest, FreshStoreHasDefaultAndHbaseNamespacesAndNoTables) {
  EXPECT_EQ(store_->ListNamespaces(), (std::vector<std::string>{"default", "hbase"}));
  EXPECT_TRUE(store_->ListTables().empty());
}

TEST_F(CatalogTest, TablesAreListedByNamespaceThenNameWithoutDefaultPrefix) {
  // G89: default-namespace tables are listed without a prefix, others as ns:t.
  ASSERT_OK(store_->CreateNamespace("ns1"));
  ASSERT_OK(store_->CreateNamespace("zz"));
  ASSERT_OK(store_->CreateTable("t2", {Family("f")}));
  ASSERT_OK(store_->CreateTable("default:t3", {Family("f")}));
  ASSERT_OK(store_->CreateTable("zz:a", {Family("f")}));
  ASSERT_OK(store_->CreateTable("ns1:t1", {Family("f")}));
  ASSERT_OK(store_->CreateTable("t1", {Family("f")}));
  EXPECT_EQ(TableNames(*store_),
            (std::vector<std::string>{"t1", "t2", "t3", "ns1:t1", "zz:a"}));
}

TEST_F(CatalogTest, DescribeReturnsFamiliesSortedByNameWithTheirSettings) {
  FamilyDescriptor b = Family("b", 3);
  b.ttl_seconds = 60;
  b.min_versions = 1;
  b.keep_deleted_cells = KeepDeletedCells::kTrue;
  ASSERT_OK(store_->CreateTable("t", {b, Family("a")}));
  std::shared_ptr<const TableDescriptor> t;
  ASSERT_OK(store_->DescribeTable("t", &t));
  EXPECT_EQ(t->name.ns, "default");
  EXPECT_EQ(t->name.qualifier, "t");
  EXPECT_TRUE(t->enabled);
  EXPECT_GT(t->id, 0u);
  EXPECT_EQ(t->created_ms, kTestNowMs);
  ASSERT_EQ(t->families.size(), 2u);
  EXPECT_EQ(t->families[0].name, "a");
  EXPECT_EQ(t->families[0].max_versions, 1);
  EXPECT_EQ(t->families[1].name, "b");
  EXPECT_EQ(t->families[1].max_versions, 3);
  EXPECT_EQ(t->families[1].ttl_seconds, 60);
  EXPECT_EQ(t->families[1].min_versions, 1);
  EXPECT_EQ(t->families[1].keep_deleted_cells, KeepDeletedCells::kTrue);
  EXPECT_NE(t->FindFamily("b"), nullptr);
  EXPECT_EQ(t->FindFamily("c"), nullptr);
}

TEST_F(CatalogTest, DefaultNamespacePrefixNamesTheSameTable) {
  ASSERT_OK(store_->CreateTable("default:t", {Family("f")}));
  std::shared_ptr<const TableDescriptor> a, b;
  ASSERT_OK(store_->DescribeTable("t", &a));
  ASSERT_OK(store_->DescribeTable("default:t", &b));
  EXPECT_EQ(a->id, b->id);
  EXPECT_EQ(a->name.ToString(), "t");
  EXPECT_CODE(kTableExists, store_->CreateTable("t", {Family("f")}));

  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "v")})));
  RowResult result;
  ASSERT_OK(store_->Get("default:t", "r", ReadSpec(), &result));
  ASSERT_EQ(result.cells.size(), 1u);
  EXPECT_EQ(result.cells[0].value, "v");
}

TEST_F(CatalogTest, CreateTableInMissingNamespaceFails) {
  // G85
  EXPECT_CODE(kNamespaceNotFound, store_->CreateTable("nsx:t1", {Family("f")}));
  EXPECT_TRUE(store_->ListTables().empty());
}

TEST_F(CatalogTest, CreateExistingTableFails) {
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  EXPECT_CODE(kTableExists, store_->CreateTable("t", {Family("g")}));
  std::shared_ptr<const TableDescriptor> t;
  ASSERT_OK(store_->DescribeTable("t", &t));
  EXPECT_EQ(t->families[0].name, "f");  // the original is untouched
}

TEST_F(CatalogTest, CreateTableWithoutFamiliesIsDoNotRetry) {
  EXPECT_CODE(kDoNotRetry, store_->CreateTable("t", std::vector<FamilyDescriptor>{}));
  EXPECT_CODE(kTableNotFound, store_->DisableTable("t"));
}

TEST_F(CatalogTest, SameTableNameInTwoNamespacesIsTwoTables) {
  ASSERT_OK(store_->CreateNamespace("ns1"));
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  ASSERT_OK(store_->CreateTable("ns1:t", {Family("f")}));
  std::shared_ptr<const TableDescriptor> a, b;
  ASSERT_OK(store_->DescribeTable("t", &a));
  ASSERT_OK(store_->DescribeTable("ns1:t", &b));
  EXPECT_NE(a->id, b->id);
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "default")})));
  RowResult result;
  ASSERT_OK(store_->Get("ns1:t", "r", ReadSpec(), &result));
  EXPECT_TRUE(result.cells.empty());
}

TEST_F(CatalogTest, TableNamesFollowHBaseRules) {
  // G88
  ASSERT_OK(store_->CreateNamespace("ns_1"));
  EXPECT_OK(store_->CreateTable("a-b.c_1", {Family("f")}));
  EXPECT_OK(store_->CreateTable("ns_1:A9", {Family("f")}));
  for (const std::string& bad : {"-a"s, ".a"s, "a b"s, "a$b"s, "ns-1:t"s, ""s, "ns_1:"s, ":t"s,
                                 "ns_1:a:b"s, ".META."s, "-ROOT-"s, "a/b"s, "t\x00"s}) {
    EXPECT_CODE(kInvalidArgument, store_->CreateTable(bad, {Family("f")})) << testutil::Escape(bad);
  }
  EXPECT_EQ(TableNames(*store_), (std::vector<std::string>{"a-b.c_1", "ns_1:A9"}));
}

TEST_F(CatalogTest, NamesLongerThan255BytesAreNotCreatedButAreLookedUp) {
  ASSERT_OK(store_->CreateNamespace(std::string(255, 'n')));
  EXPECT_CODE(kInvalidArgument, store_->CreateNamespace(std::string(256, 'n')));
  EXPECT_CODE(kInvalidArgument, store_->CreateNamespace(std::string(1 << 20, 'n')));
  ASSERT_OK(store_->CreateTable(std::string(255, 'n') + ":" + std::string(255, 't'),
                                {Family("f")}));
  EXPECT_CODE(kInvalidArgument, store_->CreateTable(std::string(256, 't'), {Family("f")}));
  EXPECT_CODE(kInvalidArgument, store_->CreateTable(std::string(10240, 't'), {Family("f")}));
  // Elsewhere a long name is legal and merely absent, as in HBase.
  EXPECT_CODE(kTableNotFound, store_->DisableTable(std::string(256, 't')));
}

TEST_F(CatalogTest, IllegalTableNameMessageMatchesHBase) {
  const Status s = store_->CreateTable("a b", {Family("f")});
  EXPECT_EQ(s.message(),
            "Illegal character code:32, < > at 1. User-space table qualifiers may only contain "
            "'alphanumeric characters' and digits: a b");
}

// HBase 2.6.1's texts, as the Java client raises them before any call (TableName.valueOf,
// NamespaceDescriptor.create): the shell prints them as the real shell does.
TEST_F(CatalogTest, IllegalNamespaceAndFirstCharacterMessagesMatchHBase) {
  EXPECT_EQ(ValidateNamespaceName("bad-ns!").message(),
            "Illegal character <-> at 3. Namespaces may only contain 'alphanumeric characters' "
            "from any language and digits: bad-ns!");
  TableName name;
  EXPECT_EQ(ParseTableName(".t", &name).message(),
            "Illegal first character <46> at 0. User-space table qualifiers can only start with "
            "'alphanumeric characters' from any language: .t");
}

TEST_F(CatalogTest, InvalidFamilyNamesAreRejected) {
  for (const std::string& bad : {""s, ".f"s, "a:b"s, "a/b"s, "a\\b"s, "a\x01"s, "a\x7f"s,
                                 "a\nb"s, "recovered.edits"s, std::string(128, 'x')}) {
    EXPECT_CODE(kInvalidArgument, store_->CreateTable("t", {Family("ok"), Family(bad)}))
        << testutil::Escape(bad);
  }
  EXPECT_TRUE(store_->ListTables().empty());
  // Legal, if unusual.
  EXPECT_OK(store_->CreateTable("t", {Family(std::string(127, 'x')), Family("-f"), Family("f.g"),
                                      Family("\xc3\xa9")}));
}

TEST_F(CatalogTest, InvalidFamilySettingsAreRejected) {
  EXPECT_CODE(kInvalidArgument, store_->CreateTable("t", {Family("f"), Family("f")}));
  EXPECT_CODE(kInvalidArgument, store_->CreateTable("t", {Family("f", 0)}));
  FamilyDescriptor f = Family("f", 2);
  f.min_versions = 3;
  EXPECT_CODE(kInvalidArgument, store_->CreateTable("t", {f}));
  f.min_versions = -1;
  EXPECT_CODE(kInvalidArgument, store_->CreateTable("t", {f}));
  EXPECT_TRUE(store_->ListTables().empty());
}

TEST_F(CatalogTest, EnableAndDisableCheckTheCurrentState) {
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  EXPECT_CODE(kTableNotDisabled, store_->EnableTable("t"));
  ASSERT_OK(store_->DisableTable("t"));
  std::shared_ptr<const TableDescriptor> t;
  ASSERT_OK(store_->DescribeTable("t", &t));  // describe works on disabled tables
  EXPECT_FALSE(t->enabled);
  EXPECT_CODE(kTableNotEnabled, store_->DisableTable("t"));
  ASSERT_OK(store_->EnableTable("t"));
  ASSERT_OK(store_->DescribeTable("t", &t));
  EXPECT_TRUE(t->enabled);
}

TEST_F(CatalogTest, UnknownTableIsTableNotFoundForEveryDdlCall) {
  std::shared_ptr<const TableDescriptor> t;
  EXPECT_CODE(kTableNotFound, store_->DescribeTable("nope", &t));
  EXPECT_CODE(kTableNotFound, store_->EnableTable("nope"));
  EXPECT_CODE(kTableNotFound, store_->DisableTable("nope"));
  EXPECT_CODE(kTableNotFound, store_->DeleteTable("nope"));
  EXPECT_CODE(kTableNotFound, store_->CompactTable("nope"));
  EXPECT_CODE(kTableNotFound, store_->DescribeTable("ns_missing:t", &t));
}

TEST_F(CatalogTest, DeleteRequiresDisabledTable) {
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  EXPECT_CODE(kTableNotDisabled, store_->DeleteTable("t"));
  ASSERT_OK(store_->DisableTable("t"));
  ASSERT_OK(store_->DeleteTable("t"));
  std::shared_ptr<const TableDescriptor> t;
  EXPECT_CODE(kTableNotFound, store_->DescribeTable("t", &t));
  EXPECT_CODE(kTableNotFound, store_->DeleteTable("t"));
  EXPECT_TRUE(store_->ListTables().empty());
}

TEST_F(CatalogTest, NamespaceCreateRules) {
  ASSERT_OK(store_->CreateNamespace("ns1"));
  EXPECT_CODE(kNamespaceExists, store_->CreateNamespace("ns1"));
  EXPECT_CODE(kNamespaceExists, store_->CreateNamespace("default"));
  EXPECT_CODE(kInvalidArgument, store_->CreateNamespace(""));
  EXPECT_CODE(kInvalidArgument, store_->CreateNamespace("ns-1"));
  EXPECT_CODE(kInvalidArgument, store_->CreateNamespace("a:b"));
  EXPECT_EQ(store_->ListNamespaces(), (std::vector<std::string>{"default", "hbase", "ns1"}));
}

TEST_F(CatalogTest, NonEmptyNamespaceCannotBeDeleted) {
  // G86
  ASSERT_OK(store_->CreateNamespace("ns1"));
  ASSERT_OK(store_->CreateTable("ns1:t1", {Family("f")}));
  const Status s = store_->DeleteNamespace("ns1");
  EXPECT_CODE(kConstraint, s);
  EXPECT_EQ(s.message(), "Only empty namespaces can be removed. Namespace ns1 has 1 tables");

  ASSERT_OK(store_->DisableTable("ns1:t1"));
  ASSERT_OK(store_->DeleteTable("ns1:t1"));
  ASSERT_OK(store_->DeleteNamespace("ns1"));
  EXPECT_EQ(store_->ListNamespaces(), (std::vector<std::string>{"default", "hbase"}));
  EXPECT_CODE(kNamespaceNotFound, store_->CreateTable("ns1:t1", {Family("f")}));
}

TEST_F(CatalogTest, ReservedNamespacesCannotBeDeleted) {
  // G87, even when empty.
  Status s = store_->DeleteNamespace("default");
  EXPECT_CODE(kConstraint, s);
  EXPECT_EQ(s.message(), "Reserved namespace default cannot be removed.");
  s = store_->DeleteNamespace("hbase");
  EXPECT_CODE(kConstraint, s);
  EXPECT_EQ(s.message(), "Reserved namespace hbase cannot be removed.");
}

TEST_F(CatalogTest, DeletingMissingNamespaceIsNamespaceNotFound) {
  EXPECT_CODE(kNamespaceNotFound, store_->DeleteNamespace("nope"));
}

TEST_F(CatalogTest, RecreatedTableSeesNoOldCells) {
  ASSERT_OK(store_->CreateTable("t", {Family("f", 3)}));
  std::shared_ptr<const TableDescriptor> old_table;
  ASSERT_OK(store_->DescribeTable("t", &old_table));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "old")})));
  ASSERT_OK(store_->DisableTable("t"));
  ASSERT_OK(store_->DeleteTable("t"));
  ASSERT_OK(store_->CreateTable("t", {Family("f", 3)}));
  std::shared_ptr<const TableDescriptor> new_table;
  ASSERT_OK(store_->DescribeTable("t", &new_table));
  EXPECT_GT(new_table->id, old_table->id);

  RowResult result;
  ASSERT_OK(store_->Get("t", "r", ReadSpec(), &result));
  EXPECT_TRUE(result.cells.empty());
  std::unique_ptr<Scanner> scanner;
  ASSERT_OK(store_->OpenScanner("t", ScanSpec(), &scanner));
  std::vector<RowResult> rows;
  ASSERT_OK(scanner->Next(10, &rows));
  EXPECT_TRUE(rows.empty());
}

// Data calls find their table through a per-thread cache (Catalog::FindByName); every table
// change made on another thread must be seen by the very next call.
TEST_F(CatalogTest, DataCallsSeeTableChangesFromOtherThreadsAtOnce) {
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "old")})));
  RowResult result;
  ASSERT_OK(store_->Get("t", "r", ReadSpec(), &result));
  ASSERT_OK(store_->Get("default:t", "r", ReadSpec(), &result));
  ASSERT_EQ(result.cells.size(), 1u);
  auto on_other_thread = [](auto fn) { std::thread(fn).join(); };

  on_other_thread([&] { ASSERT_OK(store_->DisableTable("t")); });
  EXPECT_CODE(kTableNotEnabled, store_->Get("t", "r", ReadSpec(), &result));
  EXPECT_CODE(kTableNotEnabled, store_->Get("default:t", "r", ReadSpec(), &result));
  on_other_thread([&] { ASSERT_OK(store_->DeleteTable("t")); });
  EXPECT_CODE(kTableNotFound, store_->Get("t", "r", ReadSpec(), &result));
  on_other_thread([&] { ASSERT_OK(store_->CreateTable("t", {Family("g")})); });
  // The new table, not the cached old one: its own family, none of the old cells.
  EXPECT_CODE(kNoSuchColumnFamily, store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "x")})));
  ASSERT_OK(store_->Get("default:t", "r", ReadSpec(), &result));
  EXPECT_TRUE(result.cells.empty());
}

TEST_F(CatalogTest, StoresInOneProcessNeverShareCachedTables) {
  // The same name in two stores, looked up alternately from one thread.
  ManualClock clock{kTestNowMs};
  std::unique_ptr<Store> other;
  ASSERT_OK(testutil::OpenInMemoryStore(&clock, &other));
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  ASSERT_OK(other->CreateTable("t", {Family("g")}));
  for (int i = 0; i < 2; ++i) {
    EXPECT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", 1, "v")})));
    EXPECT_CODE(kNoSuchColumnFamily, other->Mutate("t", Row("r", {PutOp("f", "q", 1, "v")})));
    EXPECT_OK(other->Mutate("t", Row("r", {PutOp("g", "q", 1, "v")})));
  }
  // A store opened after another closed may reuse its memory; it must not reuse its lookups.
  other.reset();
  ASSERT_OK(testutil::OpenInMemoryStore(&clock, &other));
  ASSERT_OK(other->CreateTable("t", {Family("h")}));
  EXPECT_CODE(kNoSuchColumnFamily, other->Mutate("t", Row("r", {PutOp("g", "q", 1, "v")})));
}

TEST_F(CatalogTest, SweepingADroppedTableLeavesNeighbouringTablesIntact) {
  // Table ids are adjacent, so the sweep range of one ends exactly where the next begins.
  for (const char* name : {"t1", "t2", "t3"}) {
    ASSERT_OK(store_->CreateTable(name, {Family("f")}));
    for (const std::string& row : {"\x00"s, "r"s, "\xff\xff"s}) {
      ASSERT_OK(store_->Mutate(name, Row(row, {PutOp("f", "q", 1, name)})));
    }
  }
  ASSERT_OK(store_->DisableTable("t2"));
  ASSERT_OK(store_->DeleteTable("t2"));
  store_->WaitForSweeps();
  for (const char* name : {"t1", "t3"}) {
    std::unique_ptr<Scanner> scanner;
    ASSERT_OK(store_->OpenScanner(name, ScanSpec(), &scanner));
    std::vector<RowResult> rows;
    ASSERT_OK(scanner->Next(10, &rows));
    ASSERT_EQ(rows.size(), 3u) << name;
    for (const auto& r : rows) EXPECT_EQ(r.cells[0].value, name);
  }
}

TEST_F(CatalogTest, ConcurrentCreatesGetDistinctIds) {
  constexpr int kThreads = 8, kPerThread = 10;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([this, i] {
      for (int j = 0; j < kPerThread; ++j) {
        EXPECT_OK(store_->CreateTable("t" + std::to_string(i) + "_" + std::to_string(j),
                                      {Family("f")}));
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<uint64_t> ids;
  for (const auto& t : store_->ListTables()) ids.insert(t->id);
  EXPECT_EQ(ids.size(), static_cast<size_t>(kThreads * kPerThread));
}

// ---- On-disk stores: persistence, sweeping and the format check.

class CatalogDiskTest : public ::testing::Test {
 protected:
  Status Open() { return testutil::OpenDiskStore(dir_.Sub("db"), &clock_, &store_); }
  void Close() { store_.reset(); }

  // Opens the closed store's LevelDB directly, bypassing Store.
  std::unique_ptr<leveldb::DB> OpenRaw() {
    leveldb::Options options;
    options.create_if_missing = true;
    leveldb::DB* db = nullptr;
    const leveldb::Status s = leveldb::DB::Open(options, dir_.Sub("db"), &db);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return std::unique_ptr<leveldb::DB>(db);
  }

  static size_t CountKeys(leveldb::DB* db, const std::string& start, const std::string& limit) {
    std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
    size_t n = 0;
    for (it->Seek(start); it->Valid() && it->key().ToString() < limit; it->Next()) ++n;
    return n;
  }

  testutil::TempDir dir_;
  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

TEST_F(CatalogDiskTest, CatalogSurvivesReopen) {
  ASSERT_OK(Open());
  ASSERT_OK(store_->CreateNamespace("ns1"));
  FamilyDescriptor a = Family("a", 5);
  a.min_versions = 2;
  a.ttl_seconds = 3600;
  a.keep_deleted_cells = KeepDeletedCells::kTtl;
  a.in_memory = true;
  a.block_cache_enabled = false;
  a.compression = "GZ";
  a.bloom_filter = "ROWCOL";
  ASSERT_OK(store_->CreateTable("t1", {a, Family("b")}));
  ASSERT_OK(store_->CreateTable("ns1:t2", {Family("x"), Family("y", 2)}));
  ASSERT_OK(store_->DisableTable("ns1:t2"));
  ASSERT_OK(store_->Mutate("t1", Row("r", {PutOp("a", "q", 7, "v")})));
  std::shared_ptr<const TableDescriptor> before_t1, before_t2;
  ASSERT_OK(store_->DescribeTable("t1", &before_t1));
  ASSERT_OK(store_->DescribeTable("ns1:t2", &before_t2));
  Close();

  clock_.Advance(60'000);
  ASSERT_OK(Open());
  EXPECT_EQ(store_->ListNamespaces(), (std::vector<std::string>{"default", "hbase", "ns1"}));
  EXPECT_EQ(TableNames(*store_), (std::vector<std::string>{"t1", "ns1:t2"}));

  std::shared_ptr<const TableDescriptor> t1, t2;
  ASSERT_OK(store_->DescribeTable("t1", &t1));
  ASSERT_OK(store_->DescribeTable("ns1:t2", &t2));
  EXPECT_EQ(t1->id, before_t1->id);
  EXPECT_EQ(t1->created_ms, kTestNowMs);
  EXPECT_TRUE(t1->enabled);
  ASSERT_EQ(t1->families.size(), 2u);
  const FamilyDescriptor& ra = t1->families[0];
  EXPECT_EQ(ra.name, "a");
  EXPECT_EQ(ra.max_versions, 5);
  EXPECT_EQ(ra.min_versions, 2);
  EXPECT_EQ(ra.ttl_seconds, 3600);
  EXPECT_EQ(ra.keep_deleted_cells, KeepDeletedCells::kTtl);
  EXPECT_TRUE(ra.in_memory);
  EXPECT_FALSE(ra.block_cache_enabled);
  EXPECT_EQ(ra.compression, "GZ");
  EXPECT_EQ(ra.bloom_filter, "ROWCOL");
  EXPECT_EQ(t1->families[1].name, "b");

  EXPECT_EQ(t2->id, before_t2->id);
  EXPECT_FALSE(t2->enabled);
  ASSERT_EQ(t2->families.size(), 2u);
  EXPECT_EQ(t2->families[1].name, "y");
  EXPECT_EQ(t2->families[1].max_versions, 2);

  RowResult result;
  ASSERT_OK(store_->Get("t1", "r", ReadSpec(), &result));
  EXPECT_EQ(testutil::CellStrings(result.cells), (std::vector<std::string>{"a:q@7=v"}));
  EXPECT_CODE(kTableNotEnabled, store_->Get("ns1:t2", "r", ReadSpec(), &result));
  EXPECT_CODE(kTableExists, store_->CreateTable("t1", {Family("a")}));
  EXPECT_CODE(kNamespaceExists, store_->CreateNamespace("ns1"));
}

TEST_F(CatalogDiskTest, DeletedNamespaceStaysDeletedAfterReopen) {
  ASSERT_OK(Open());
  ASSERT_OK(store_->CreateNamespace("gone"));
  ASSERT_OK(store_->CreateNamespace("kept"));
  ASSERT_OK(store_->DeleteNamespace("gone"));
  Close();
  ASSERT_OK(Open());
  EXPECT_EQ(store_->ListNamespaces(), (std::vector<std::string>{"default", "hbase", "kept"}));
}

TEST_F(CatalogDiskTest, DroppedTableIdIsNeverReusedAndItsCellsAreSwept) {
  ASSERT_OK(Open());
  ASSERT_OK(store_->CreateTable("t", {Family("f", 3)}));
  std::shared_ptr<const TableDescriptor> old_table;
  ASSERT_OK(store_->DescribeTable("t", &old_table));
  const uint64_t old_id = old_table->id;
  for (int i = 0; i < 2500; ++i) {  // more than one sweeper batch
    ASSERT_OK(store_->Mutate("t", Row("row" + std::to_string(i), {PutOp("f", "q", 1, "old")})));
  }
  ASSERT_OK(store_->DisableTable("t"));
  ASSERT_OK(store_->DeleteTable("t"));
  ASSERT_OK(store_->CreateTable("t", {Family("f", 3)}));
  std::shared_ptr<const TableDescriptor> new_table;
  ASSERT_OK(store_->DescribeTable("t", &new_table));
  EXPECT_GT(new_table->id, old_id);
  RowResult result;
  ASSERT_OK(store_->Get("t", "row1", ReadSpec(), &result));
  EXPECT_TRUE(result.cells.empty());

  store_->WaitForSweeps();
  Close();
  {
    auto raw = OpenRaw();
    ASSERT_NE(raw, nullptr);
    const KeyRange range = TableCellRange(old_id);
    EXPECT_EQ(CountKeys(raw.get(), range.start, range.limit), 0u);
    std::string marker;
    EXPECT_TRUE(raw->Get(leveldb::ReadOptions(), DroppedTableKey(old_id), &marker).IsNotFound());
  }

  // The id counter is persisted: after a reopen the next table still gets a fresh id.
  ASSERT_OK(Open());
  ASSERT_OK(store_->DisableTable("t"));
  ASSERT_OK(store_->DeleteTable("t"));
  Close();
  ASSERT_OK(Open());
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  std::shared_ptr<const TableDescriptor> third;
  ASSERT_OK(store_->DescribeTable("t", &third));
  EXPECT_GT(third->id, new_table->id);
}

TEST_F(CatalogDiskTest, InterruptedDropIsSweptAfterReopen) {
  ASSERT_OK(Open());
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  std::shared_ptr<const TableDescriptor> t;
  ASSERT_OK(store_->DescribeTable("t", &t));
  const uint64_t id = t->id;
  for (int i = 0; i < 100; ++i) {
    ASSERT_OK(store_->Mutate("t", Row("r" + std::to_string(i), {PutOp("f", "q", 1, "v")})));
  }
  Close();
  {
    // What DropTable leaves behind if the process dies before the sweeper runs.
    auto raw = OpenRaw();
    ASSERT_NE(raw, nullptr);
    leveldb::WriteBatch batch;
    batch.Delete(TableNameKey("default", "t"));
    batch.Delete(TableInfoKey(id));
    batch.Put(DroppedTableKey(id), "");
    ASSERT_TRUE(raw->Write(leveldb::WriteOptions(), &batch).ok());
  }
  ASSERT_OK(Open());
  EXPECT_TRUE(store_->ListTables().empty());
  store_->WaitForSweeps();
  Close();
  auto raw = OpenRaw();
  ASSERT_NE(raw, nullptr);
  const KeyRange range = TableCellRange(id);
  EXPECT_EQ(CountKeys(raw.get(), range.start, range.limit), 0u);
  EXPECT_EQ(CountKeys(raw.get(), DroppedTablePrefix(), PrefixSuccessor(DroppedTablePrefix())), 0u);
}

TEST_F(CatalogDiskTest, FreshStoreRecordsFormatVersion) {
  ASSERT_OK(Open());
  Close();
  auto raw = OpenRaw();
  ASSERT_NE(raw, nullptr);
  std::string v;
  ASSERT_TRUE(raw->Get(leveldb::ReadOptions(), SystemKey("format_version"), &v).ok());
  EXPECT_EQ(v, "\x00\x00\x00\x01"s);
}

TEST_F(CatalogDiskTest, FormatVersionMismatchIsRefused) {
  {
    auto raw = OpenRaw();
    ASSERT_NE(raw, nullptr);
    std::string v;
    PutFixed32BE(&v, kFormatVersion + 1);
    ASSERT_TRUE(raw->Put(leveldb::WriteOptions(), SystemKey("format_version"), v).ok());
  }
  EXPECT_CODE(kCorruption, Open());
  EXPECT_EQ(store_, nullptr);
}

TEST_F(CatalogDiskTest, MalformedFormatVersionIsRefused) {
  {
    auto raw = OpenRaw();
    ASSERT_NE(raw, nullptr);
    ASSERT_TRUE(raw->Put(leveldb::WriteOptions(), SystemKey("format_version"), "\x01"s).ok());
  }
  EXPECT_CODE(kCorruption, Open());
}

TEST_F(CatalogDiskTest, DataWithoutFormatVersionIsRefused) {
  {
    auto raw = OpenRaw();
    ASSERT_NE(raw, nullptr);
    ASSERT_TRUE(raw->Put(leveldb::WriteOptions(), "some other database", "x").ok());
  }
  EXPECT_CODE(kCorruption, Open());
}

}  // namespace
}  // namespace hbemu::storage
