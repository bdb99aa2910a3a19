#include "server/gateway/scanner_registry.h"

#include <glog/logging.h>

namespace hbemu::server {

ScannerRegistry::ScannerRegistry(storage::Clock* clock, int64_t idle_timeout_ms)
    : clock_(clock), idle_timeout_ms_(idle_timeout_ms) {}

int32_t ScannerRegistry::Add(std::unique_ptr<storage::Scanner> scanner, bool sorted_columns,
                             std::string table) {
  auto entry = std::make_shared<Entry>();
  entry->scanner = std::move(scanner);
  entry->sorted_columns = sorted_columns;
  entry->table = std::move(table);
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t now = clock_->NowMillis();
  ExpireIdleLocked(now);
  const int32_t id = next_id_;
  next_id_ = next_id_ == INT32_MAX ? 0 : next_id_ + 1;
  scanners_[id] = Slot{std::move(entry), now};
  return id;
}

std::shared_ptr<ScannerRegistry::Entry> ScannerRegistry::Find(int32_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t now = clock_->NowMillis();
  ExpireIdleLocked(now);
  auto it = scanners_.find(id);
  if (it == scanners_.end()) return nullptr;
  if (now - it->second.last_used_ms > idle_timeout_ms_ && it->second.entry.use_count() == 1) {
    scanners_.erase(it);  // expired, even if the periodic sweep has not reached it yet
    expired_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  it->second.last_used_ms = now;
  return it->second.entry;
}

bool ScannerRegistry::Remove(int32_t id) {
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = scanners_.find(id);
    if (it == scanners_.end()) return false;
    entry = std::move(it->second.entry);
    scanners_.erase(it);
  }
  return true;  // the scanner closes when the last in-flight call lets go of it
}

size_t ScannerRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return scanners_.size();
}

void ScannerRegistry::ExpireIdleLocked(int64_t now_ms) {
  // Sweeping is O(open scanners); doing it at most every quarter timeout keeps opens cheap
  // while bounding how long an expired scanner lingers.
  if (now_ms - last_sweep_ms_ < idle_timeout_ms_ / 4) return;
  last_sweep_ms_ = now_ms;
  for (auto it = scanners_.begin(); it != scanners_.end();) {
    // An entry in use by a call is referenced outside the map; leave it until it is idle.
    if (now_ms - it->second.last_used_ms > idle_timeout_ms_ && it->second.entry.use_count() == 1) {
      VLOG(1) << "[scanners] expiring idle scanner " << it->first;
      it = scanners_.erase(it);
      expired_.fetch_add(1, std::memory_order_relaxed);
    } else {
      ++it;
    }
  }
}

}  // namespace hbemu::server
