// Removing a column family and adding it again (store_admin.cc): the removal's sweep deletes
// only the old family's cells, never a cell written after the family came back, whether the
// sweep failed, ran at the same time as the addition, or was left to the next start.

#include <leveldb/db.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "storage/key_format.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::CellStrings;
using testutil::Family;
using testutil::kTestNowMs;
using testutil::PutOp;
using testutil::Row;

std::vector<std::string> Read(Store* store, const std::string& row) {
  ReadSpec spec;
  spec.max_versions = 10;
  RowResult result;
  EXPECT_OK(store->Get("t", row, spec, &result));
  return CellStrings(result.cells);
}

class FamilyDropTest : public ::testing::Test {
 protected:
  Status Open(StoreOptions options = {}) {
    store_.reset();
    options.path = dir_.path();
    options.clock = &clock_;
    return Store::Open(options, &store_);
  }

  // A table with families f and g, rows r0..r9 in both.
  void Fill() {
    ASSERT_OK(store_->CreateTable("t", {Family("f"), Family("g")}));
    for (int i = 0; i < 10; ++i) {
      const std::string row = "r" + std::to_string(i);
      ASSERT_OK(store_->Mutate("t", Row(row, {PutOp("f", "q", 1, "old"), PutOp("g", "q", 1, "old")})));
    }
  }

  testutil::TempDir dir_;
  ManualClock clock_{kTestNowMs};
  std::unique_ptr<Store> store_;
};

TEST_F(FamilyDropTest, FailedSweepThenAddAgainKeepsNewWritesAcrossRestart) {
  std::atomic<bool> fail{true};
  StoreOptions options;
  options.before_family_sweep_batch = [&](uint64_t, std::string_view) {
    return fail.load() ? Status::IOError("injected sweep failure") : Status::OK();
  };
  ASSERT_OK(Open(options));
  Fill();
  EXPECT_CODE(kIOError, store_->DeleteFamily("t", "g"));
  // The call failed after the family left the descriptor: it is gone, its old cells are not.
  EXPECT_CODE(kNoSuchColumnFamily, store_->Mutate("t", Row("r1", {PutOp("g", "q", 2, "x")})));

  // While the sweep keeps failing the family cannot come back; nothing is acknowledged.
  EXPECT_CODE(kIOError, store_->AddFamily("t", Family("g")));
  fail = false;
  // The addition finishes the removal first, so the family comes back empty.
  ASSERT_OK(store_->AddFamily("t", Family("g")));
  EXPECT_EQ(Read(store_.get(), "r1"), std::vector<std::string>{"f:q@1=old"});
  ASSERT_OK(store_->Mutate("t", Row("r1", {PutOp("g", "q", 1, "new")})));
  ASSERT_OK(store_->Mutate("t", Row("r9", {PutOp("g", "q", 5, "new")})));

  ASSERT_OK(Open());
  EXPECT_EQ(Read(store_.get(), "r1"), (std::vector<std::string>{"f:q@1=old", "g:q@1=new"}));
  EXPECT_EQ(Read(store_.get(), "r9"), (std::vector<std::string>{"f:q@1=old", "g:q@5=new"}));
  ASSERT_OK(Open());  // a second start finds nothing left to finish either
  EXPECT_EQ(Read(store_.get(), "r9"), (std::vector<std::string>{"f:q@1=old", "g:q@5=new"}));
}

TEST_F(FamilyDropTest, SweepStoppedHalfwayFinishesAtTheNextStartBeforeTheFamilyComesBack) {
  StoreOptions options;
  int batches = 0;
  options.before_family_sweep_batch = [&](uint64_t, std::string_view) {
    return ++batches > 1 ? Status::IOError("stopped") : Status::OK();
  };
  ASSERT_OK(Open(options));
  Fill();
  // More rows than one sweep batch, written in small batches: ThreadSanitizer's deadlock
  // detector stops the process when one thread holds more than 64 mutexes, and a batch holds
  // one row-lock stripe per distinct row.
  for (int first = 0; first < 1500; first += 30) {
    std::vector<RowMutation> rows;
    for (int i = first; i < first + 30; ++i) {
      rows.push_back(Row("s" + std::to_string(10000 + i), {PutOp("g", "q", 1, "old")}));
    }
    ASSERT_OK(store_->MutateRows("t", rows));
  }
  EXPECT_CODE(kIOError, store_->DeleteFamily("t", "g"));
  ASSERT_EQ(batches, 2);  // the first batch was deleted, the rest was not

  ASSERT_OK(Open());  // the start finishes the removal
  ASSERT_OK(store_->AddFamily("t", Family("g")));
  EXPECT_EQ(Read(store_.get(), "r3"), std::vector<std::string>{"f:q@1=old"});
  EXPECT_TRUE(Read(store_.get(), "s11499").empty());
  ASSERT_OK(store_->Mutate("t", Row("s11499", {PutOp("g", "q", 1, "new")})));
  ASSERT_OK(Open());
  EXPECT_EQ(Read(store_.get(), "s11499"), std::vector<std::string>{"g:q@1=new"});
}

TEST_F(FamilyDropTest, ModifyTableBringingTheFamilyBackFinishesItsRemovalFirst) {
  std::atomic<bool> fail{true};
  StoreOptions options;
  options.before_family_sweep_batch = [&](uint64_t, std::string_view) {
    return fail.load() ? Status::IOError("injected sweep failure") : Status::OK();
  };
  ASSERT_OK(Open(options));
  Fill();
  TableDescriptor only_f;
  only_f.families = {Family("f")};
  EXPECT_CODE(kIOError, store_->ModifyTable("t", only_f));
  TableDescriptor both;
  both.families = {Family("f"), Family("g")};
  EXPECT_CODE(kIOError, store_->ModifyTable("t", both));
  fail = false;
  ASSERT_OK(store_->ModifyTable("t", both));
  ASSERT_OK(store_->Mutate("t", Row("r2", {PutOp("g", "q", 1, "new")})));
  ASSERT_OK(Open());
  EXPECT_EQ(Read(store_.get(), "r2"), (std::vector<std::string>{"f:q@1=old", "g:q@1=new"}));
}

// A write that looked the table up while the family was there and lands after the removal
// began: as HBase, it lands before the removal (and is deleted with the family) or is refused,
// never after the sweep passed its row, where it would come back with the family. The write
// waits between its lookup and its batch until the removal has returned or 500 ms have
// passed; without the gate the removal publishes and sweeps meanwhile and the write lands
// behind it.
TEST_F(FamilyDropTest, AWriteInFlightDuringARemovalDoesNotComeBackWithTheFamily) {
  std::atomic<bool> hold{false}, held{false}, removing{false}, removed{false};
  StoreOptions options;
  options.before_data_write = [&] {
    if (!hold.exchange(false)) return;
    held = true;
    while (!removing.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (!removed.load() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  ASSERT_OK(Open(options));
  Fill();
  hold = true;
  Status written;
  std::thread writer([&] { written = store_->Mutate("t", Row("r9", {PutOp("g", "q", 7, "new")})); });
  while (!held.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::thread remover([&] {
    removing = true;
    EXPECT_OK(store_->DeleteFamily("t", "g"));
    removed = true;
  });
  writer.join();
  remover.join();
  EXPECT_OK(written);  // it found the family, and landed before the removal
  EXPECT_CODE(kNoSuchColumnFamily, store_->Mutate("t", Row("r9", {PutOp("g", "q", 8, "late")})));
  ASSERT_OK(store_->AddFamily("t", Family("g")));
  EXPECT_EQ(Read(store_.get(), "r9"), std::vector<std::string>{"f:q@1=old"});
  ASSERT_OK(Open());
  EXPECT_EQ(Read(store_.get(), "r9"), std::vector<std::string>{"f:q@1=old"});
}

// The same for a table's disable: a write that found the table enabled lands before the table
// is disabled, so a truncate right after sweeps it with the old cells. Without the gate it
// lands under the old table id after the truncate's sweep: acknowledged, in no table, and left
// in the data directory for good.
TEST_F(FamilyDropTest, AWriteInFlightDuringADisableLandsBeforeIt) {
  std::atomic<bool> hold{false}, held{false}, disabling{false}, swept{false};
  StoreOptions options;
  options.before_data_write = [&] {
    if (!hold.exchange(false)) return;
    held = true;
    while (!disabling.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (!swept.load() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  ASSERT_OK(Open(options));
  Fill();
  std::shared_ptr<const TableDescriptor> before;
  ASSERT_OK(store_->DescribeTable("t", &before));
  hold = true;
  Status written;
  std::thread writer([&] { written = store_->Mutate("t", Row("r9", {PutOp("g", "q", 7, "new")})); });
  while (!held.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::thread truncater([&] {
    disabling = true;
    EXPECT_OK(store_->DisableTable("t"));
    EXPECT_OK(store_->TruncateTable("t", false));
    store_->WaitForSweeps();
    swept = true;
  });
  writer.join();
  truncater.join();
  EXPECT_OK(written);
  store_->WaitForSweeps();
  EXPECT_TRUE(Read(store_.get(), "r9").empty());
  store_.reset();
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.path(), &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  const KeyRange old_cells = TableCellRange(before->id);
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
  it->Seek(old_cells.start);
  EXPECT_FALSE(it->Valid() && it->key().compare(old_cells.limit) < 0)
      << "a cell was left under the truncated table's id";
}

// The addition waits for a running sweep (as HBase's add waits for the table's procedure):
// a cell it lets in cannot be in the sweep's way. The sweep pauses before its first batch
// until the writer is done or 300 ms have passed; without the wait the writer's cell, in the
// last row, is deleted by the rest of the sweep.
TEST_F(FamilyDropTest, AddDuringARunningSweepLosesNoWrite) {
  std::atomic<bool> sweeping{false};
  std::atomic<bool> written{false};
  StoreOptions options;
  options.before_family_sweep_batch = [&](uint64_t, std::string_view) {
    if (!sweeping.exchange(true)) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
      while (!written.load() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    return Status::OK();
  };
  ASSERT_OK(Open(options));
  Fill();
  std::thread remover([&] { EXPECT_OK(store_->DeleteFamily("t", "g")); });
  while (!sweeping.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::thread adder([&] {
    EXPECT_OK(store_->AddFamily("t", Family("g")));
    EXPECT_OK(store_->Mutate("t", Row("r9", {PutOp("g", "q", 7, "new")})));
    written = true;
  });
  remover.join();
  adder.join();
  EXPECT_EQ(Read(store_.get(), "r9"), (std::vector<std::string>{"f:q@1=old", "g:q@7=new"}));
  EXPECT_EQ(Read(store_.get(), "r0"), std::vector<std::string>{"f:q@1=old"});
  ASSERT_OK(Open());
  EXPECT_EQ(Read(store_.get(), "r9"), (std::vector<std::string>{"f:q@1=old", "g:q@7=new"}));
}

// An older release let a family be added again while its removal was pending, and its next
// start swept the new cells. Such a data directory (marker and family both there) now opens
// with every cell kept and the marker gone.
TEST_F(FamilyDropTest, MarkerLeftWithTheFamilyPresentByAnOlderReleaseKeepsTheCells) {
  ASSERT_OK(Open());
  Fill();
  std::shared_ptr<const TableDescriptor> table;
  ASSERT_OK(store_->DescribeTable("t", &table));
  const uint64_t id = table->id;
  store_.reset();
  {
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.path(), &raw).ok());
    std::unique_ptr<leveldb::DB> db(raw);
    ASSERT_TRUE(db->Put(leveldb::WriteOptions(), DroppedFamilyKey(id, "g"), "").ok());
  }
  ASSERT_OK(Open());
  EXPECT_EQ(Read(store_.get(), "r4"), (std::vector<std::string>{"f:q@1=old", "g:q@1=old"}));
  // The marker is gone: the family can be removed and added again as usual.
  ASSERT_OK(store_->DeleteFamily("t", "g"));
  ASSERT_OK(store_->AddFamily("t", Family("g")));
  ASSERT_OK(Open());
  EXPECT_EQ(Read(store_.get(), "r4"), std::vector<std::string>{"f:q@1=old"});
}

}  // namespace
}  // namespace hbemu::storage
