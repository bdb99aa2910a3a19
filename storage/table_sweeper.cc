#include "storage/table_sweeper.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <glog/logging.h>
#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include "storage/catalog.h"
#include "storage/key_format.h"

namespace hbemu::storage {
namespace {
constexpr int kKeysPerBatch = 1000;
constexpr int64_t kMaxRetryMs = 60000;
}  // namespace

TableSweeper::TableSweeper(leveldb::DB* db, Catalog* catalog, int64_t retry_ms)
    : db_(db), catalog_(catalog), retry_ms_(retry_ms) {}

TableSweeper::~TableSweeper() { Stop(); }

void TableSweeper::Start() {
  work_ = true;  // sweeps left over from before a restart
  thread_ = std::thread([this] { Run(); });
}

void TableSweeper::Wake() {
  std::lock_guard<std::mutex> lock(mu_);
  work_ = true;
  cv_.notify_all();
}

void TableSweeper::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

void TableSweeper::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return stop_ || (!work_ && !busy_ && !retry_pending_); });
}

uint64_t TableSweeper::failures() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failures_;
}

void TableSweeper::Run() {
  int64_t retry_ms = retry_ms_;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (retry_pending_) {
        // A failed sweep goes again after the delay, or sooner if another table is dropped.
        cv_.wait_for(lock, std::chrono::milliseconds(retry_ms), [this] { return stop_ || work_; });
      } else {
        cv_.wait(lock, [this] { return stop_ || work_; });
      }
      if (stop_) return;
      work_ = false;
      busy_ = true;
    }
    const bool swept = SweepAll();
    std::lock_guard<std::mutex> lock(mu_);
    busy_ = false;
    if (swept || stop_) {
      retry_pending_ = false;
      retry_ms = retry_ms_;
    } else {
      if (retry_pending_) retry_ms = std::min(retry_ms * 2, std::max(kMaxRetryMs, retry_ms_));
      retry_pending_ = true;
      ++failures_;
      LOG(WARNING) << "[table_sweeper] sweep failed; trying again in " << retry_ms << " ms";
    }
    cv_.notify_all();
  }
}

bool TableSweeper::SweepAll() {
  std::vector<uint64_t> ids;
  const Status s = catalog_->DroppedTables(&ids);
  if (!s.ok()) {
    LOG(ERROR) << "[table_sweeper] " << s.ToString();
    return false;
  }
  if (ids.empty()) return true;
  for (uint64_t id : ids) {
    if (!SweepOne(id)) return false;
  }
  // One compaction for every table swept in this pass: compacting a range rewrites every file
  // it overlaps on each level, which costs far more than deleting a small table, and snapshot
  // restores before each test drop one table per test.
  const auto [low, high] = std::minmax_element(ids.begin(), ids.end());
  const std::string start_key = TableCellRange(*low).start;
  const std::string limit_key = TableCellRange(*high).limit;
  const leveldb::Slice start(start_key), limit(limit_key);
  db_->CompactRange(&start, &limit);
  for (uint64_t id : ids) {
    const Status finished = catalog_->FinishDrop(id);
    if (!finished.ok()) {
      LOG(ERROR) << "[table_sweeper] finishing drop of table " << id << ": "
                 << finished.ToString();
      return false;
    }
  }
  return true;
}

bool TableSweeper::SweepOne(uint64_t table_id) {
  const KeyRange range = TableCellRange(table_id);
  size_t deleted = 0;
  // Each batch starts after the last key the one before deleted: seeking from the range's start
  // again would walk every deletion marker written so far, which made a large table's sweep
  // quadratic. A dropped table's range gets no new keys, so nothing is left behind.
  std::string from = range.start;
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_) return false;
    }
    leveldb::WriteBatch batch;
    int n = 0;
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    for (it->Seek(from); it->Valid() && it->key().compare(range.limit) < 0 && n < kKeysPerBatch;
         it->Next(), ++n) {
      batch.Delete(it->key());
      from.assign(it->key().data(), it->key().size());
    }
    if (!it->status().ok()) {
      LOG(ERROR) << "[table_sweeper] reading table " << table_id << ": " << it->status().ToString();
      return false;
    }
    it.reset();
    if (n == 0) break;
    from.push_back('\0');  // the least key after the last one deleted
    const leveldb::Status s = db_->Write(leveldb::WriteOptions(), &batch);
    if (!s.ok()) {
      LOG(ERROR) << "[table_sweeper] deleting cells of table " << table_id << ": " << s.ToString();
      return false;
    }
    deleted += n;
  }
  LOG(INFO) << "[table_sweeper] swept dropped table id " << table_id << " (" << deleted
            << " cells)";
  return true;
}

}  // namespace hbemu::storage
