#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>

#include "storage/row_clock.h"
#include "storage/status.h"

namespace leveldb {
class DB;
}

namespace hbemu::storage {

// Why this exists: RowClock (row_clock.h) holds its marks in memory. A restart inside a burst
// of increments that ran a column ahead of the clock forgets them, and the next put of that
// column, dated "now", would land below the counter and stay invisible.
//
// So the newest mark is kept in the store (SystemKey "row_clock_horizon"), rounded up by
// kSlackMs so a burst costs one small extra write per second of lead rather than one per call.
// A start whose clock is not past the kept mark opens a window: until the clock passes it,
// every server-dated write reads its row's stored cells dated at or after "now" and goes past
// them as past marks. Outside the window (nearly always: a restart takes longer than a burst
// runs ahead) a write pays one comparison. Within it, a cell a client dated in the future counts
// as a mark too: a put of that column lands above it where HBase would put it below; the window
// is what the lead was, so this stays as narrow as the marks that were lost.
//
// Thread-safe.
class ClockHorizon {
 public:
  static constexpr int64_t kSlackMs = 1000;

  // Reads the kept mark; `now_ms` is the clock at the start. Marks are kept with WriteOptions
  // sync = `sync` (the store's data writes' setting).
  static Status Open(leveldb::DB* db, int64_t now_ms, bool sync,
                     std::unique_ptr<ClockHorizon>* out);

  // Keeps the newest of `dated` (marks the caller is about to write, row_clock.h) in the store
  // unless a kept mark covers it already. Call before writing the cells, so a log replayed
  // after a crash never holds the cells without the mark.
  Status Cover(const ClockMarks& dated);

  // True while `now_ms` is not past the mark the previous run kept: writes must then read
  // their row's marks (AddStoredMarks).
  bool InRestartWindow(int64_t now_ms) const { return now_ms <= window_end_; }

  // Adds to *out a mark for every column (a whole-family mark for a family delete marker) of
  // the row holding a cell dated at or after `now_ms`. REQUIRES: the row lock is held.
  Status AddStoredMarks(uint64_t table_id, std::string_view row, int64_t now_ms,
                        ClockMarks* out) const;

  // The mark kept in the store (tests).
  int64_t kept() const { return kept_.load(std::memory_order_acquire); }

 private:
  ClockHorizon(leveldb::DB* db, bool sync, int64_t kept, int64_t window_end)
      : db_(db), sync_(sync), window_end_(window_end), kept_(kept) {}

  leveldb::DB* const db_;
  const bool sync_;
  const int64_t window_end_;  // ClockMarks::kNone when the start was past every kept mark
  std::mutex mu_;             // serialises raises, so the stored value only grows
  std::atomic<int64_t> kept_;
};

}  // namespace hbemu::storage
