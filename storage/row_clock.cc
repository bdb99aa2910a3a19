#include "storage/row_clock.h"

#include <algorithm>

#include "storage/coding.h"

namespace hbemu::storage {

std::string RowClock::Key(uint64_t table_id, std::string_view row) {
  std::string key;
  PutFixed64BE(&key, table_id);
  key.append(row.data(), row.size());
  return key;
}

int64_t RowClock::Now(uint64_t table_id, std::string_view row, int64_t now_ms) {
  if (ahead_count_.load(std::memory_order_acquire) == 0) return now_ms;
  std::lock_guard<std::mutex> lock(mu_);
  if (ahead_.empty()) return now_ms;
  const auto it = ahead_.find(Key(table_id, row));
  return it == ahead_.end() ? now_ms : std::max(now_ms, it->second);
}

void RowClock::Assigned(uint64_t table_id, std::string_view row, int64_t ts, int64_t now_ms) {
  if (ts <= now_ms) return;  // not ahead of the clock: "now" covers it from here on
  std::lock_guard<std::mutex> lock(mu_);
  int64_t& newest = ahead_[Key(table_id, row)];
  newest = std::max(newest, ts);
  if (ahead_.size() >= prune_at_) PruneLocked(now_ms);
  ahead_count_.store(ahead_.size(), std::memory_order_release);
}

// Entries the clock has caught up with say nothing any more. The threshold doubles when most
// entries are still ahead, so pruning stays amortised O(1) per call.
void RowClock::PruneLocked(int64_t now_ms) {
  for (auto it = ahead_.begin(); it != ahead_.end();) {
    it = it->second <= now_ms ? ahead_.erase(it) : std::next(it);
  }
  prune_at_ = std::max<size_t>(1024, 2 * ahead_.size());
}

}  // namespace hbemu::storage
