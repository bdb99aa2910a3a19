#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace hbemu::storage {

// Keeps the timestamps the server assigns in a row from going backwards. An increment or append
// is dated max(now, previous cell + 1), so a quick chain of them runs ahead of the wall clock;
// a following write at "now" would land below the counter's newest version and stay invisible,
// where real HBase (a millisecond or more per call) shows it. The rule: a server-assigned
// timestamp is never below the newest one the server assigned in that row.
// Only rows whose newest assigned timestamp is ahead of the clock are remembered (for the others
// "now" is already high enough), so the map stays small. Callers hold the row's lock. Thread-safe.
class RowClock {
 public:
  // The "now" for a write to the row: max(now_ms, newest timestamp assigned there).
  int64_t Now(uint64_t table_id, std::string_view row, int64_t now_ms);
  // Records that the server assigned `ts` in the row (kept only while it is ahead of now_ms).
  void Assigned(uint64_t table_id, std::string_view row, int64_t ts, int64_t now_ms);

 private:
  static std::string Key(uint64_t table_id, std::string_view row);
  void PruneLocked(int64_t now_ms);

  std::mutex mu_;
  std::unordered_map<std::string, int64_t> ahead_;  // table id + row -> newest assigned ts
  // ahead_.size(), readable without mu_: nearly always 0, and then Now needs no lock (it was
  // a mutex per row of every batch). A row's own entry is stored under its row lock, which
  // the next writer of that row holds too, so that writer never reads a stale 0.
  std::atomic<size_t> ahead_count_{0};
  size_t prune_at_ = 1024;
};

}  // namespace hbemu::storage
