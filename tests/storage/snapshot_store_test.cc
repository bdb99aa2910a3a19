// Snapshots (storage/snapshots.h): take, restore, clone, list and delete, in memory and on disk.
// A restore must bring back the exact stored cells (every version, delete markers) and the
// table's schema and regions.

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <thread>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <leveldb/db.h>

#include "storage/key_format.h"
#include "storage/snapshots.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::DeleteOp;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

enum class Mode { kInMemory, kOnDisk };

class SnapshotFixture : public ::testing::Test {
 protected:
  explicit SnapshotFixture(Mode mode) : mode_(mode) {}
  void SetUp() override { Open(); }

  void Open() {
    store_.reset();
    StoreOptions options;
    options.clock = &clock_;
    options.limits = limits_;
    options.before_read_view = before_read_view_;
    options.before_data_write = before_data_write_;
    if (mode_ == Mode::kInMemory) {
      options.in_memory = true;
    } else {
      options.path = dir_.Sub("data");
    }
    ASSERT_OK(Store::Open(options, &store_));
  }

  Snapshots* snapshots() { return store_->snapshots(); }

  // Every stored cell of a table, markers included, one string each.
  std::vector<std::string> Raw(const std::string& table) {
    Store::RawPage page;
    EXPECT_OK(store_->ReadRawRows(table, "", "", 1000000, 1000000, &page));
    std::vector<std::string> out;
    for (const Store::RawCell& c : page.cells) {
      out.push_back(testutil::Escape(c.row) + "/" + c.family + ":" + c.qualifier + "@" +
                    std::to_string(c.timestamp) + "#" + std::to_string(int(c.type)) + "=" +
                    c.value + (c.expires_at_ms == kNoExpiry ? "" : "!ttl"));
    }
    return out;
  }

  std::shared_ptr<const TableDescriptor> Describe(const std::string& table) {
    std::shared_ptr<const TableDescriptor> out;
    EXPECT_OK(store_->DescribeTable(table, &out));
    return out;
  }

  // A table with two regions, two families (VERSIONS 3 with a TTL; VERSIONS 1), several
  // versions and every kind of delete marker.
  void Seed(const std::string& table) {
    TableDescriptor spec;
    FamilyDescriptor f = Family("f", 3);
    f.ttl_seconds = 86400 * 365 * 10;
    spec.families = {f, Family("g")};
    spec.split_keys = {"m"};
    ASSERT_OK(store_->CreateTable(table, spec));
    for (int ts = 1; ts <= 4; ++ts) {
      ASSERT_OK(store_->Mutate(table, Row("a", {PutOp("f", "q", kTestNowMs - 100 + ts,
                                                      "v" + std::to_string(ts))})));
    }
    ASSERT_OK(store_->Mutate(table, Row(std::string("b\0\xff", 3),
                                        {PutOp("f", "q", kTestNowMs - 50, "x"),
                                         PutOp("g", "", kTestNowMs - 50, "y")})));
    ASSERT_OK(store_->Mutate(table, Row("n", {PutOp("f", "q", kTestNowMs - 40, "z"),
                                              PutOp("f", "r", kTestNowMs - 40, "w")})));
    ASSERT_OK(store_->Mutate(table, Row("a", {DeleteOp(MutationType::kDeleteVersion, "f", "q",
                                                       kTestNowMs - 98)})));
    ASSERT_OK(store_->Mutate(table, Row("n", {DeleteOp(MutationType::kDeleteColumn, "f", "r",
                                                       kTestNowMs - 30)})));
    ASSERT_OK(store_->Mutate(table, Row("z", {DeleteOp(MutationType::kDeleteFamily, "g", "",
                                                       kTestNowMs - 20)})));
  }

  // Changes everything a restore has to undo.
  void Scramble(const std::string& table) {
    ASSERT_OK(store_->Mutate(table, Row("a", {PutOp("f", "q", kTestNowMs, "new")})));
    ASSERT_OK(store_->Mutate(table, Row("n", {DeleteOp(MutationType::kDeleteRow, "", "",
                                                       kTestNowMs)})));
    ASSERT_OK(store_->Mutate(table, Row("new", {PutOp("g", "q", kTestNowMs, "n")})));
    ASSERT_OK(store_->ModifyFamily(table, Family("f", 1)));
    ASSERT_OK(store_->AddFamily(table, Family("h")));
  }

  const Mode mode_;
  testutil::TempDir dir_;
  ManualClock clock_{kTestNowMs};
  StoreLimits limits_;  // for the next Open()
  std::function<void(std::string_view)> before_read_view_;  // for the next Open()
  std::function<void()> before_data_write_;                  // for the next Open()
  std::unique_ptr<Store> store_;
};

class SnapshotStoreTest : public SnapshotFixture, public ::testing::WithParamInterface<Mode> {
 protected:
  SnapshotStoreTest() : SnapshotFixture(GetParam()) {}
};

// What only a data directory shows: restarts, and the keys left in it.
class SnapshotDiskTest : public SnapshotFixture {
 protected:
  SnapshotDiskTest() : SnapshotFixture(Mode::kOnDisk) {}
};

INSTANTIATE_TEST_SUITE_P(Modes, SnapshotStoreTest,
                         ::testing::Values(Mode::kInMemory, Mode::kOnDisk),
                         [](const auto& info) {
                           return info.param == Mode::kInMemory ? "InMemory" : "OnDisk";
                         });

TEST_P(SnapshotStoreTest, RestoreBringsBackEveryVersionMarkerAndTheSchema) {
  Seed("t");
  const std::vector<std::string> before = Raw("t");
  const auto described = Describe("t");
  ASSERT_OK(snapshots()->Take("s1", {"t"}));
  Scramble("t");
  ASSERT_NE(Raw("t"), before);

  ASSERT_OK(snapshots()->Restore("s1", {}));
  EXPECT_EQ(Raw("t"), before);
  const auto restored = Describe("t");
  ASSERT_EQ(restored->families.size(), 2u);
  EXPECT_EQ(restored->families[0].max_versions, 3);
  EXPECT_EQ(restored->families[0].ttl_seconds, described->families[0].ttl_seconds);
  EXPECT_EQ(restored->families[1].name, "g");
  EXPECT_EQ(restored->split_keys, std::vector<std::string>{"m"});
  EXPECT_TRUE(restored->enabled);
  EXPECT_NE(restored->id, described->id);
  // Writes after a restore land in the restored table, and a second restore undoes them.
  ASSERT_OK(store_->Mutate("t", Row("a", {PutOp("f", "q", kTestNowMs, "again")})));
  ASSERT_OK(snapshots()->Restore("s1", {}));
  EXPECT_EQ(Raw("t"), before);
}

// Rows r0..r<kRows-1> of table t, each f:q = value, in one batch. Kept under 64 rows:
// ThreadSanitizer's deadlock detector aborts a thread holding more than 64 mutexes, and a batch
// holds one row-lock stripe per row.
constexpr int kRows = 40;
Status WriteBatch(Store* store, const std::string& value) {
  std::vector<RowMutation> rows;
  for (int i = 0; i < kRows; ++i) {
    rows.push_back(Row("r" + std::to_string(i), {PutOp("f", "q", kTestNowMs, value)}));
  }
  return store->MutateRows("t", rows);
}

TEST_P(SnapshotStoreTest, ReadersSeeTheOldTableOrTheRestoredOneNeverAMix) {
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  // One batch of kRows rows, which the readers must see whole or not at all.
  const auto write_all = [&](const std::string& value) { return WriteBatch(store_.get(), value); };
  ASSERT_OK(write_all("seed"));
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  std::atomic<bool> done{false};
  std::atomic<int> mixed{0}, scans{0};
  std::thread reader([&] {
    while (!done.load()) {
      std::unique_ptr<Scanner> scanner;
      if (!store_->OpenScanner("t", ScanSpec(), &scanner).ok()) continue;
      std::vector<RowResult> rows;
      if (!scanner->Next(1000, &rows).ok()) continue;
      for (const RowResult& row : rows) {
        if (row.cells.size() != 1 || row.cells[0].value != rows[0].cells[0].value) ++mixed;
      }
      if (rows.size() != kRows) ++mixed;
      ++scans;
    }
  });
  for (int i = 0; i < 30; ++i) {
    ASSERT_OK(write_all("test " + std::to_string(i)));
    ASSERT_OK(snapshots()->Restore("s", {}));
  }
  ASSERT_TRUE(testutil::WaitUntil([&] { return scans.load() > 0; }));
  done = true;
  reader.join();
  EXPECT_EQ(mixed.load(), 0);
}

// A Get (and so each Get of a multi-get) whose lookup found the table's old id must not read
// that id once a restore has replaced and swept it: it reads the restored table instead. The
// restore runs exactly between the Get's lookup and its read.
TEST_P(SnapshotStoreTest, AGetRacingARestoreReadsTheRestoredTableNotTheSweptOne) {
  bool restore_now = false;
  before_read_view_ = [&](std::string_view) {
    if (!restore_now) return;
    restore_now = false;
    ASSERT_OK(snapshots()->Restore("s", {}));
    store_->WaitForSweeps();  // the id the Get looked up is empty now
  };
  Open();
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", kTestNowMs, "old")})));
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  ASSERT_OK(store_->Mutate("t", Row("r", {PutOp("f", "q", kTestNowMs, "later")})));
  ReadSpec spec;
  RowResult result;
  ASSERT_OK(store_->Get("t", "r", spec, &result));  // caches the lookup on this thread
  restore_now = true;
  ASSERT_OK(store_->Get("t", "r", spec, &result));
  EXPECT_FALSE(restore_now);
  EXPECT_EQ(testutil::CellStrings(result.cells), std::vector<std::string>{"f:q@" +
                                                     std::to_string(kTestNowMs) + "=old"});
}

// The same under threads, as the scanners above: Gets of every row while the table is
// restored again and again never find a row missing. The reader yields between its lookup and
// its read, where a restore and its sweep fit.
TEST_P(SnapshotStoreTest, GetsSeeTheOldTableOrTheRestoredOneNeverAnEmptyRow) {
  before_read_view_ = [](std::string_view) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  };
  Open();
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  const auto write_all = [&](const std::string& value) { return WriteBatch(store_.get(), value); };
  ASSERT_OK(write_all("seed"));
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  std::atomic<bool> done{false};
  std::atomic<int> missing{0}, gets{0};
  std::thread reader([&] {
    ReadSpec spec;
    while (!done.load()) {
      for (int i = 0; i < kRows && !done.load(); ++i) {
        RowResult result;
        if (!store_->Get("t", "r" + std::to_string(i), spec, &result).ok()) continue;
        if (result.cells.size() != 1) ++missing;
        ++gets;
      }
    }
  });
  for (int i = 0; i < 30; ++i) {
    ASSERT_OK(write_all("test " + std::to_string(i)));
    ASSERT_OK(snapshots()->Restore("s", {}));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(testutil::WaitUntil([&] { return gets.load() > 0; }));
  done = true;
  reader.join();
  EXPECT_EQ(missing.load(), 0);
}

TEST_P(SnapshotStoreTest, RestoreRecreatesADroppedTable) {
  Seed("t");
  const std::vector<std::string> before = Raw("t");
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  ASSERT_OK(store_->DisableTable("t"));
  ASSERT_OK(store_->DeleteTable("t"));
  ASSERT_OK(snapshots()->Restore("s", {}));
  EXPECT_EQ(Raw("t"), before);
}

// A write that found the table before a restore replaced it lands before the restore (whose
// sweep of the old id then deletes it), never under the old id after that sweep: acknowledged,
// in no table, and left in the data directory for good. The write waits between its lookup and
// its batch until the restore is swept or 500 ms have passed.
TEST_F(SnapshotDiskTest, AWriteInFlightDuringARestoreIsNotLeftUnderTheOldTable) {
  std::atomic<bool> hold{false}, held{false}, restoring{false}, swept{false};
  before_data_write_ = [&] {
    if (!hold.exchange(false)) return;
    held = true;
    while (!restoring.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (!swept.load() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  Open();
  ASSERT_OK(store_->CreateTable("t", {Family("f")}));
  ASSERT_OK(store_->Mutate("t", Row("a", {PutOp("f", "q", kTestNowMs, "old")})));
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  const uint64_t old_id = Describe("t")->id;
  hold = true;
  Status written;
  std::thread writer([&] {
    written = store_->Mutate("t", Row("z", {PutOp("f", "q", kTestNowMs, "in flight")}));
  });
  while (!held.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::thread restorer([&] {
    restoring = true;
    EXPECT_OK(snapshots()->Restore("s", {}));
    store_->WaitForSweeps();
    swept = true;
  });
  writer.join();
  restorer.join();
  EXPECT_OK(written);
  store_->WaitForSweeps();
  EXPECT_EQ(Raw("t").size(), 1u);  // the snapshot's cell only
  store_.reset();
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.Sub("data"), &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  const KeyRange old_cells = TableCellRange(old_id);
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
  it->Seek(old_cells.start);
  EXPECT_FALSE(it->Valid() && it->key().compare(old_cells.limit) < 0)
      << "a cell was left under the restored table's old id";
}

TEST_F(SnapshotDiskTest, SnapshotsSurviveARestart) {
  Seed("t");
  const std::vector<std::string> before = Raw("t");
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  Scramble("t");
  Open();
  const std::vector<SnapshotInfo> listed = snapshots()->List();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].name, "s");
  EXPECT_EQ(listed[0].tables, std::vector<std::string>{"t"});
  EXPECT_EQ(listed[0].created_ms, kTestNowMs);
  ASSERT_OK(snapshots()->Restore("s", {}));
  Open();
  EXPECT_EQ(Raw("t"), before);
  EXPECT_EQ(Describe("t")->families[0].max_versions, 3);
}

TEST_P(SnapshotStoreTest, WholeStoreRestoreDropsLaterTablesAndBringsBackNamespaces) {
  ASSERT_OK(store_->CreateNamespace("ns", {{"k", "v"}}));
  Seed("ns:t");
  Seed("u");
  ASSERT_OK(store_->DisableTable("u"));
  const std::vector<std::string> t_before = Raw("ns:t");
  ASSERT_OK(snapshots()->Take("all", {}));
  ASSERT_OK(store_->DisableTable("ns:t"));
  ASSERT_OK(store_->DeleteTable("ns:t"));
  ASSERT_OK(store_->DeleteNamespace("ns"));
  ASSERT_OK(store_->CreateNamespace("later"));
  ASSERT_OK(store_->CreateTable("later:x", {Family("f")}));
  ASSERT_OK(store_->EnableTable("u"));

  ASSERT_OK(snapshots()->Restore("all", {}));
  EXPECT_EQ(Raw("ns:t"), t_before);
  NamespaceDescriptor ns;
  ASSERT_OK(store_->DescribeNamespace("ns", &ns));
  EXPECT_EQ(ns.configuration.at("k"), "v");
  EXPECT_CODE(kNamespaceNotFound, store_->DescribeNamespace("later", &ns));
  std::vector<std::string> names;
  for (const auto& t : store_->ListTables()) names.push_back(t->name.ToString());
  EXPECT_EQ(names, (std::vector<std::string>{"u", "ns:t"}));
  EXPECT_FALSE(Describe("u")->enabled);  // as it was when the snapshot was taken
}

TEST_P(SnapshotStoreTest, HBaseRestoreNeedsADisabledTableAndLeavesItDisabled) {
  Seed("t");
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  RestoreOptions hbase;
  hbase.require_disabled = true;
  EXPECT_CODE(kTableNotDisabled, snapshots()->Restore("s", hbase));
  ASSERT_OK(store_->DisableTable("t"));
  ASSERT_OK(snapshots()->Restore("s", hbase));
  EXPECT_FALSE(Describe("t")->enabled);
  ASSERT_OK(store_->DeleteTable("t"));
  ASSERT_OK(snapshots()->Restore("s", hbase));  // a missing table is cloned back, enabled
  EXPECT_TRUE(Describe("t")->enabled);
}

TEST_P(SnapshotStoreTest, CloneMakesAnIndependentEnabledTable) {
  Seed("t");
  ASSERT_OK(store_->DisableTable("t"));  // a snapshot of a disabled table, as HBase allows
  const std::vector<std::string> before = Raw("t");
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  ASSERT_OK(snapshots()->Clone("s", "c"));
  EXPECT_EQ(Raw("c"), before);
  EXPECT_TRUE(Describe("c")->enabled);
  EXPECT_EQ(Describe("c")->split_keys, std::vector<std::string>{"m"});
  ASSERT_OK(store_->Mutate("c", Row("a", {PutOp("f", "q", kTestNowMs, "c only")})));
  EXPECT_EQ(Raw("t"), before);
  EXPECT_CODE(kTableExists, snapshots()->Clone("s", "c"));
  EXPECT_CODE(kNamespaceNotFound, snapshots()->Clone("s", "nons:c"));
  EXPECT_CODE(kSnapshotNotFound, snapshots()->Clone("missing", "d"));
}

TEST_P(SnapshotStoreTest, NamesAndErrorsFollowHBase) {
  Seed("t");
  ASSERT_OK(snapshots()->Take("ok.name-1_x", {"t"}));
  const Status dup = snapshots()->Take("ok.name-1_x", {"t"});
  EXPECT_CODE(kSnapshotExists, dup);
  EXPECT_EQ(dup.message(), "Snapshot 'ok.name-1_x' already stored on the filesystem.");
  const Status dash = snapshots()->Take("-bad", {"t"});
  EXPECT_CODE(kInvalidArgument, dash);
  EXPECT_EQ(dash.message(),
            "Illegal first character <45> at 0. Snapshot qualifiers can only start with "
            "'alphanumeric characters' from any language: -bad");
  const Status colon = snapshots()->Take("a:b", {"t"});
  EXPECT_EQ(colon.message(),
            "Illegal character code:58, <:> at 1. Snapshot qualifiers may only contain "
            "'alphanumeric characters' and digits: a:b");
  const Status missing = snapshots()->Take("s2", {"nosuch"});
  EXPECT_CODE(kSnapshotCreation, missing);
  EXPECT_EQ(missing.message(), "Table 'nosuch' doesn't exist, can't take snapshot.");
  EXPECT_CODE(kSnapshotNotFound, snapshots()->Restore("nosuch", {}));
  EXPECT_CODE(kSnapshotNotFound, snapshots()->Delete("nosuch"));
  ASSERT_OK(snapshots()->Delete("ok.name-1_x"));
  EXPECT_TRUE(snapshots()->List().empty());
  ASSERT_OK(snapshots()->Take("ok.name-1_x", {"t"}));  // the name is free again
}

TEST_P(SnapshotStoreTest, NamesLongerThan255BytesAreRefusedAtCreationAsTableNamesAre) {
  Seed("t");
  ASSERT_OK(snapshots()->Take(std::string(255, 's'), {"t"}));
  const Status long_name = snapshots()->Take(std::string(256, 's'), {"t"});
  EXPECT_CODE(kInvalidArgument, long_name);
  EXPECT_EQ(long_name.message(), "Snapshot name is 256 bytes, longer than the 255 bytes HBase can "
                                 "store as a directory name: " + std::string(64, 's') + "...");
  EXPECT_EQ(snapshots()->List().size(), 1u);
  // Elsewhere a longer name is merely not found.
  EXPECT_CODE(kSnapshotNotFound, snapshots()->Delete(std::string(256, 's')));
}

TEST_P(SnapshotStoreTest, LimitsBoundTheCountAndTheBytesKept) {
  limits_.snapshots = 2;
  Open();
  Seed("t");
  ASSERT_OK(snapshots()->Take("a", {"t"}));
  ASSERT_OK(snapshots()->Take("b", {"t"}));
  EXPECT_CODE(kSnapshotCreation, snapshots()->Take("c", {"t"}));
  ASSERT_OK(snapshots()->Delete("b"));
  const uint64_t one = snapshots()->List()[0].bytes;
  ASSERT_GT(one, 0u);
  limits_.snapshot_bytes = static_cast<int64_t>(one * 3 / 2);
  Open();
  if (snapshots()->List().empty()) {  // in memory: nothing survived the reopen
    Seed("t");
    ASSERT_OK(snapshots()->Take("a", {"t"}));
  }
  ASSERT_EQ(snapshots()->List().size(), 1u);
  const Status over = snapshots()->Take("c", {"t"});
  EXPECT_CODE(kSnapshotCreation, over);
  EXPECT_EQ(snapshots()->List().size(), 1u);
  // The message names the limit as set, not the room the other snapshot left under it.
  const std::string limit = std::to_string(one * 3 / 2);
  EXPECT_NE(over.message().find("snapshot_bytes limit of " + limit + " bytes"), std::string::npos)
      << over.message();
  EXPECT_NE(over.message().find(std::to_string(one) + " kept by other snapshots"),
            std::string::npos)
      << over.message();
}

TEST_F(SnapshotDiskTest, DeletingASnapshotSweepsTheCellsItKept) {
  Seed("t");
  ASSERT_OK(snapshots()->Take("s", {"t"}));
  ASSERT_OK(snapshots()->Restore("s", {}));
  ASSERT_OK(snapshots()->Delete("s"));
  store_->WaitForSweeps();
  const std::vector<std::string> live = Raw("t");
  store_.reset();
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.Sub("data"), &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
  size_t cells = 0;
  for (it->Seek(std::string(1, kCellTag)); it->Valid() && it->key()[0] == kCellTag; it->Next()) {
    ++cells;
  }
  EXPECT_EQ(cells, live.size());  // only the live table's: the snapshot's and the replaced ones are gone
}

}  // namespace
}  // namespace hbemu::storage

namespace hbemu::storage {
namespace {

// While a snapshot's cells are copied (up to snapshot_bytes, hundreds of megabytes), table
// lookups and DDL go on: the copy runs outside the catalog's mutex. The hook runs in the middle
// of each copy; another thread creates a table and looks it up there, and the copy waits for it.
// Before, the copy ran under the catalog's mutex and that thread waited for the copy: the
// 30-second wait below ran out.
TEST_P(SnapshotStoreTest, TableLookupsAndCreatesGoOnDuringASnapshotCopy) {
  Seed("t");
  int copies = 0;
  snapshots()->SetCopyHookForTesting([&] {
    ++copies;
    std::promise<Status> done;
    std::future<Status> result = done.get_future();
    std::thread ddl([&, n = copies] {
      const std::string name = "during" + std::to_string(n);
      TableDescriptor spec;
      spec.families = {Family("f")};
      Status s = store_->CreateTable(name, spec);
      std::shared_ptr<const TableDescriptor> found;
      if (s.ok()) s = store_->DescribeTable(name, &found);
      done.set_value(s);
    });
    const bool finished = result.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    ddl.join();
    EXPECT_TRUE(finished) << "createTable waited for the snapshot copy";
    if (finished) EXPECT_OK(result.get());
  });
  ASSERT_OK(snapshots()->Take("s1", {"t"}));
  Scramble("t");
  ASSERT_OK(snapshots()->Restore("s1", RestoreOptions{}));
  ASSERT_OK(snapshots()->Clone("s1", "copy"));
  snapshots()->SetCopyHookForTesting(nullptr);
  EXPECT_EQ(copies, 3);
  EXPECT_EQ(Raw("copy"), Raw("t"));
  EXPECT_NE(Describe("during3"), nullptr);
}

}  // namespace
}  // namespace hbemu::storage
