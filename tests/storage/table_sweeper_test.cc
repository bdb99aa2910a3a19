// The background sweep of dropped tables: it deletes the table's cells and forgets the drop, and
// when a sweep fails (here: reads of table files fail for a while) it is tried again on its own,
// without waiting for another drop. Catalog::DroppedTables reports a read error instead of an
// empty work list.

#include "storage/table_sweeper.h"

#include <gtest/gtest.h>
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "storage/catalog.h"
#include "storage/key_format.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

// An in-memory Env whose table-file reads fail while `fail_reads` is set.
class FlakyEnv : public leveldb::EnvWrapper {
 public:
  FlakyEnv() : EnvWrapper(leveldb::Env::Default()), mem_(leveldb::NewMemEnv(target())) {}

  leveldb::Status NewRandomAccessFile(const std::string& name,
                                      leveldb::RandomAccessFile** out) override {
    leveldb::RandomAccessFile* file = nullptr;
    leveldb::Status s = mem_->NewRandomAccessFile(name, &file);
    if (s.ok()) *out = new FlakyFile(file, &fail_reads, &reads);
    return s;
  }
  // Everything else goes to the in-memory Env.
  leveldb::Status NewSequentialFile(const std::string& f, leveldb::SequentialFile** r) override {
    return mem_->NewSequentialFile(f, r);
  }
  leveldb::Status NewWritableFile(const std::string& f, leveldb::WritableFile** r) override {
    return mem_->NewWritableFile(f, r);
  }
  leveldb::Status NewAppendableFile(const std::string& f, leveldb::WritableFile** r) override {
    return mem_->NewAppendableFile(f, r);
  }
  bool FileExists(const std::string& f) override { return mem_->FileExists(f); }
  leveldb::Status GetChildren(const std::string& d, std::vector<std::string>* r) override {
    return mem_->GetChildren(d, r);
  }
  leveldb::Status RemoveFile(const std::string& f) override { return mem_->RemoveFile(f); }
  leveldb::Status CreateDir(const std::string& d) override { return mem_->CreateDir(d); }
  leveldb::Status RemoveDir(const std::string& d) override { return mem_->RemoveDir(d); }
  leveldb::Status GetFileSize(const std::string& f, uint64_t* s) override {
    return mem_->GetFileSize(f, s);
  }
  leveldb::Status RenameFile(const std::string& s, const std::string& t) override {
    return mem_->RenameFile(s, t);
  }
  leveldb::Status LockFile(const std::string& f, leveldb::FileLock** l) override {
    return mem_->LockFile(f, l);
  }
  leveldb::Status UnlockFile(leveldb::FileLock* l) override { return mem_->UnlockFile(l); }
  leveldb::Status NewLogger(const std::string& f, leveldb::Logger** r) override {
    return mem_->NewLogger(f, r);
  }

  std::atomic<bool> fail_reads{false};
  std::atomic<uint64_t> reads{0};  // block reads from table files (nothing is cached)

 private:
  class FlakyFile : public leveldb::RandomAccessFile {
   public:
    FlakyFile(leveldb::RandomAccessFile* file, std::atomic<bool>* fail,
              std::atomic<uint64_t>* reads)
        : file_(file), fail_(fail), reads_(reads) {}
    leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                         char* scratch) const override {
      if (fail_->load()) return leveldb::Status::IOError("injected read failure");
      reads_->fetch_add(1);
      return file_->Read(offset, n, result, scratch);
    }

   private:
    std::unique_ptr<leveldb::RandomAccessFile> file_;
    std::atomic<bool>* fail_;
    std::atomic<uint64_t>* reads_;
  };

  std::unique_ptr<leveldb::Env> mem_;
};

class TableSweeperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    leveldb::Options options;
    options.create_if_missing = true;
    options.env = &env_;
    options.block_cache = cache_.get();  // caches nothing: every read reaches the file
    leveldb::DB* db = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(options, "/sweeper-test", &db).ok());
    db_.reset(db);
    ASSERT_OK(Catalog::Open(db_.get(), &clock_, &catalog_));
  }

  // A table with `cells` keys in its cell range, then disabled and dropped; everything is then
  // in table files. Returns its id.
  uint64_t DropTableWithCells(const std::string& name, int cells) {
    TableDescriptor spec;
    spec.families = {testutil::Family("f")};
    std::shared_ptr<const TableDescriptor> created;
    EXPECT_OK(catalog_->CreateTable(TableName{"default", name}, spec, &created));
    const KeyRange range = TableCellRange(created->id);
    for (int i = 0; i < cells; ++i) {
      EXPECT_TRUE(db_->Put(leveldb::WriteOptions(), range.start + std::to_string(i), "v").ok());
    }
    EXPECT_OK(catalog_->SetEnabled(TableName{"default", name}, false));
    uint64_t dropped = 0;
    EXPECT_OK(catalog_->DropTable(TableName{"default", name}, &dropped));
    EXPECT_EQ(dropped, created->id);
    db_->CompactRange(nullptr, nullptr);
    return dropped;
  }

  int CellsOf(uint64_t table_id) {
    const KeyRange range = TableCellRange(table_id);
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    int n = 0;
    for (it->Seek(range.start); it->Valid() && it->key().compare(range.limit) < 0; it->Next()) {
      ++n;
    }
    EXPECT_TRUE(it->status().ok());
    return n;
  }

  bool NothingLeftToSweep() {
    std::vector<uint64_t> ids;
    return catalog_->DroppedTables(&ids).ok() && ids.empty();
  }

  FlakyEnv env_;
  std::unique_ptr<leveldb::Cache> cache_{leveldb::NewLRUCache(0)};
  ManualClock clock_{testutil::kTestNowMs};
  std::unique_ptr<leveldb::DB> db_;
  std::unique_ptr<Catalog> catalog_;
};

TEST_F(TableSweeperTest, SweepsDroppedTablesCellsAndForgetsTheDrop) {
  const uint64_t id = DropTableWithCells("t", 2500);
  ASSERT_EQ(CellsOf(id), 2500);
  TableSweeper sweeper(db_.get(), catalog_.get(), 10);
  sweeper.Start();
  sweeper.WaitIdle();
  EXPECT_EQ(CellsOf(id), 0);
  EXPECT_TRUE(NothingLeftToSweep());
  EXPECT_EQ(sweeper.failures(), 0u);
}

TEST_F(TableSweeperTest, SweepingALargeTableReadsEachBlockAboutOnce) {
  // 30 batches of 1,000 keys. Each batch used to seek from the range's start again, walking
  // the deletion markers of every batch before it and reading the table's blocks again: the
  // reads grew with the square of the table.
  const uint64_t id = DropTableWithCells("t", 30000);
  const uint64_t before_scan = env_.reads.load();
  ASSERT_EQ(CellsOf(id), 30000);
  const uint64_t one_scan = env_.reads.load() - before_scan;
  ASSERT_GT(one_scan, 0u);
  const uint64_t before_sweep = env_.reads.load();
  TableSweeper sweeper(db_.get(), catalog_.get());
  sweeper.Start();
  sweeper.WaitIdle();
  EXPECT_EQ(CellsOf(id), 0);
  // The sweep's final compaction reads the files it rewrites too.
  const uint64_t swept = env_.reads.load() - before_sweep;
  EXPECT_LT(swept, 4 * one_scan) << "one scan reads " << one_scan << " blocks";
}

TEST_F(TableSweeperTest, DroppedTablesReportsAReadErrorInsteadOfAnEmptyList) {
  const uint64_t id = DropTableWithCells("t", 10);
  std::vector<uint64_t> ids;
  ASSERT_OK(catalog_->DroppedTables(&ids));
  EXPECT_EQ(ids, std::vector<uint64_t>{id});
  env_.fail_reads = true;
  EXPECT_CODE(kIOError, catalog_->DroppedTables(&ids));
  EXPECT_TRUE(ids.empty());
  env_.fail_reads = false;
  ASSERT_OK(catalog_->DroppedTables(&ids));
  EXPECT_EQ(ids, std::vector<uint64_t>{id});
}

TEST_F(TableSweeperTest, AFailedSweepIsRetriedWithoutAnotherDrop) {
  const uint64_t id = DropTableWithCells("t", 100);
  env_.fail_reads = true;
  TableSweeper sweeper(db_.get(), catalog_.get(), 10);
  sweeper.Start();
  ASSERT_TRUE(testutil::WaitUntil([&] { return sweeper.failures() >= 2; }));
  env_.fail_reads = false;
  // No Wake(): only the retry can finish the work.
  ASSERT_TRUE(testutil::WaitUntil([&] { return NothingLeftToSweep(); }));
  sweeper.WaitIdle();
  EXPECT_EQ(CellsOf(id), 0);
}

TEST_F(TableSweeperTest, WaitIdleWaitsForAFailedSweepToSucceed) {
  const uint64_t id = DropTableWithCells("t", 10);
  env_.fail_reads = true;
  TableSweeper sweeper(db_.get(), catalog_.get(), 10);
  sweeper.Start();
  ASSERT_TRUE(testutil::WaitUntil([&] { return sweeper.failures() >= 1; }));
  std::atomic<bool> idle{false};
  std::thread waiter([&] {
    sweeper.WaitIdle();
    idle = true;
  });
  EXPECT_FALSE(idle.load());
  env_.fail_reads = false;
  waiter.join();
  EXPECT_TRUE(idle.load());
  EXPECT_EQ(CellsOf(id), 0);
}

}  // namespace
}  // namespace hbemu::storage
