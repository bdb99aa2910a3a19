#include "server/gateway/scanner_registry.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>

#include <pthread.h>

#include <glog/logging.h>

#include "server/gateway/free_memory.h"
#include "server/gateway/scanner_budget.h"
#include "server/limits.h"

namespace hbemu::server {
namespace {

constexpr size_t kTrimAfterClosing = 1000;

}  // namespace

ScannerRegistry::Entry::~Entry() { ScannerBudget::Release(charged); }

int64_t ScannerRegistry::HeldBytes() { return ScannerBudget::Held(); }

void ScannerRegistry::Recount(Entry* entry) {
  const int64_t now = static_cast<int64_t>(
      storage::ScanSpecBytes(entry->spec) +
      (entry->scanner != nullptr ? entry->scanner->HeldBytes() : 0));
  ScannerBudget::Recharge(&entry->charged, now);
}

ScannerRegistry::ScannerRegistry(storage::Clock* clock, int64_t idle_timeout_ms, int64_t max_open)
    : clock_(clock),
      idle_timeout_ms_(idle_timeout_ms),
      max_open_(static_cast<size_t>(std::max<int64_t>(max_open, 1))) {
  timer_ = std::thread([this] { RunTimer(); });
}

ScannerRegistry::ScannerRegistry(storage::Clock* clock, int64_t idle_timeout_ms)
    : ScannerRegistry(clock, idle_timeout_ms, CurrentLimits().open_scanners) {}

ScannerRegistry::~ScannerRegistry() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  timer_cv_.notify_all();
  timer_.join();
}

int32_t ScannerRegistry::Add(std::unique_ptr<storage::Scanner> scanner, bool sorted_columns,
                             std::string table) {
  auto entry = std::make_shared<Entry>();
  entry->scanner = std::move(scanner);
  entry->sorted_columns = sorted_columns;
  entry->table = std::move(table);
  return AddEntry(std::move(entry));
}

storage::Status ScannerRegistry::AddUnopened(std::string table, storage::ScanSpec spec,
                                             bool sorted_columns, int32_t* id) {
  const int64_t bytes = static_cast<int64_t>(storage::ScanSpecBytes(spec));
  storage::Status charged = ScannerBudget::ChargeNew(bytes);
  if (!charged.ok()) return charged;
  auto entry = std::make_shared<Entry>();
  entry->charged = bytes;
  entry->spec = std::move(spec);
  entry->sorted_columns = sorted_columns;
  entry->table = std::move(table);
  *id = AddEntry(std::move(entry));
  return storage::Status::OK();
}

int32_t ScannerRegistry::AddEntry(std::shared_ptr<Entry> entry) {
  std::vector<std::shared_ptr<Entry>> closing;  // closed after the lock is let go
  int32_t id = 0;
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const int64_t now = clock_->NowMillis();
    while (by_id_.size() >= max_open_) {
      // The longest idle goes, even if a call is using it right now: that call finishes with
      // its own reference, and the registry never holds more than the limit.
      Slot& oldest = lru_.front();
      LOG_EVERY_N(WARNING, 1000)
          << "[scanners] " << max_open_ << " scanners open (limit open_scanners): closing the "
          << "longest idle, id " << oldest.id << " (" << google::COUNTER << " so far)";
      closing.push_back(std::move(oldest.entry));
      by_id_.erase(oldest.id);
      lru_.pop_front();
      evicted_.fetch_add(1, std::memory_order_relaxed);
      expired_.fetch_add(1, std::memory_order_relaxed);
    }
    id = NextFreeIdLocked();
    first = lru_.empty();
    lru_.push_back(Slot{id, std::move(entry), now});
    by_id_.emplace(id, std::prev(lru_.end()));
  }
  if (first) timer_cv_.notify_all();  // the timer sleeps while nothing is open
  return id;
}

int32_t ScannerRegistry::NextFreeIdLocked() {
  // At most max_open_ ids are taken, so this ends; it loops only after a wrap.
  for (;;) {
    const int32_t id = next_id_;
    next_id_ = next_id_ == std::numeric_limits<int32_t>::max() ? 0 : next_id_ + 1;
    if (by_id_.find(id) == by_id_.end()) return id;
  }
}

void ScannerRegistry::Touch(Lru::iterator slot, int64_t now_ms) {
  slot->last_used_ms = now_ms;
  lru_.splice(lru_.end(), lru_, slot);
}

std::shared_ptr<ScannerRegistry::Entry> ScannerRegistry::Find(int32_t id) {
  std::shared_ptr<Entry> closing;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return nullptr;
  const Lru::iterator slot = it->second;
  const int64_t now = clock_->NowMillis();
  if (now - slot->last_used_ms > idle_timeout_ms_ && slot->entry.use_count() == 1) {
    // Expired, even if the timer has not reached it yet.
    closing = std::move(slot->entry);
    lru_.erase(slot);
    by_id_.erase(it);
    expired_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  Touch(slot, now);
  return slot->entry;
}

bool ScannerRegistry::Remove(int32_t id) {
  std::shared_ptr<Entry> entry;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return false;
  entry = std::move(it->second->entry);
  lru_.erase(it->second);
  by_id_.erase(it);
  return true;  // the scanner closes when the last in-flight call lets go of it
}

size_t ScannerRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return by_id_.size();
}

void ScannerRegistry::ClockChanged() {
  std::lock_guard<std::mutex> lock(mu_);
  timer_cv_.notify_all();
}

void ScannerRegistry::SetNextIdForTesting(int32_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  next_id_ = id;
}

int64_t ScannerRegistry::ExpireLocked(int64_t now_ms,
                                      std::vector<std::shared_ptr<Entry>>* closing) {
  while (!lru_.empty()) {
    Slot& oldest = lru_.front();
    if (now_ms - oldest.last_used_ms <= idle_timeout_ms_) {
      return oldest.last_used_ms + idle_timeout_ms_ + 1;
    }
    if (oldest.entry.use_count() > 1) {
      Touch(lru_.begin(), now_ms);  // a call is using it: not idle
      continue;
    }
    VLOG(1) << "[scanners] expiring idle scanner " << oldest.id;
    closing->push_back(std::move(oldest.entry));
    by_id_.erase(oldest.id);
    lru_.pop_front();
    expired_.fetch_add(1, std::memory_order_relaxed);
  }
  return std::numeric_limits<int64_t>::max();
}

void ScannerRegistry::RunTimer() {
  pthread_setname_np(pthread_self(), "hbemu-scanners");
  size_t closed_since_trim = 0;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    std::vector<std::shared_ptr<Entry>> closing;
    const int64_t now = clock_->NowMillis();
    const int64_t next = ExpireLocked(now, &closing);
    if (!closing.empty()) {
      lock.unlock();
      closed_since_trim += closing.size();
      closing.clear();  // closes the scanners (iterators, snapshots) without the lock
      // Thousands of expired scanners leave their memory free but mapped, spread over every
      // call thread's malloc arena: hand it back, or a burst of leaked scanners would keep the
      // process at its peak after they expire.
      if (closed_since_trim >= kTrimAfterClosing) {
        ReturnFreeMemory();
        closed_since_trim = 0;
      }
      lock.lock();
      continue;
    }
    if (next == std::numeric_limits<int64_t>::max()) {
      timer_cv_.wait(lock);  // nothing open: sleep until an Add or the destructor
      continue;
    }
    // Sleeps until the longest idle scanner would expire; its next use may have moved that
    // later, which the next round sees. Capped by the timeout itself, so a clock that is not
    // the wall clock (tests) is still read at least that often.
    const int64_t wait_ms =
        std::clamp<int64_t>(next - now, 1, std::max<int64_t>(idle_timeout_ms_, 1));
    timer_cv_.wait_for(lock, std::chrono::milliseconds(wait_ms));
  }
}

}  // namespace hbemu::server
