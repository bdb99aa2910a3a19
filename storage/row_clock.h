#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hbemu::storage {

// A timestamp the server gave a column (or, for a family delete, a whole family) that is ahead
// of the wall clock because the server runs faster than one call per millisecond.
struct ClockMark {
  std::string family;
  std::string qualifier;      // unused when whole_family
  bool whole_family = false;  // a family or row delete marker: covers every column of it
  int64_t ts = 0;
};

// The marks of one row, as a write to it needs them.
class ClockMarks {
 public:
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::min();

  bool empty() const { return marks_.empty(); }
  void clear() { marks_.clear(); }
  // Keeps the newest mark per column (per family for whole-family marks).
  void Add(std::string_view family, std::string_view qualifier, bool whole_family, int64_t ts);
  // The newest mark a server-dated write must go past: of one column (its own mark or its
  // family's), of any column of a family (a family delete) or of the row (a row delete);
  // kNone when there is none.
  int64_t ForColumn(std::string_view family, std::string_view qualifier) const;
  int64_t ForFamily(std::string_view family) const;
  int64_t ForRow() const;
  const std::vector<ClockMark>& marks() const { return marks_; }

 private:
  std::vector<ClockMark> marks_;
};

// Why this exists: HBase dates an increment or append max(now, old cell + 1). Its calls take a
// millisecond or more, so "now" has moved on by the next call; here calls take microseconds, so
// a quick chain of increments runs ahead of the wall clock, and a put of the same column at
// "now" right after it (happybase's counter_set after counter_inc) would land below the counter
// and stay invisible. So while the server's own timestamps in a column run ahead of the clock,
// the next server-dated write of that column is dated one past them, as one call per
// millisecond would be.
//
// Only what the server dated ahead because of its own speed is kept: a chain that starts from a
// cell the client dated in the future is HBase's own behaviour (every later server-dated write
// goes below it there too) and leaves no mark (the callers decide, mutation_build.h). Marks are
// per column, forgotten once the wall clock passes them, and kept in stripes, each with the
// newest mark it holds: a write finds out that its row has none with one atomic load while
// nothing is ahead anywhere, and with a hash and another load while only rows of other stripes
// are. Callers hold the row's lock. Thread-safe.
class RowClock {
 public:
  // How long a mark is kept once the clock has passed it. Callers read the clock before they
  // ask for their row's marks, so a caller with a newer reading must not forget a mark another
  // caller, still working with an older reading, needs: marks are dropped only when they are
  // this far behind, which no caller's reading lags by in practice.
  static constexpr int64_t kForgetAfterMs = 10000;

  explicit RowClock(size_t stripes = 64);
  ~RowClock();
  RowClock(const RowClock&) = delete;
  RowClock& operator=(const RowClock&) = delete;

  // The row's marks not behind now_ms into *out (cleared first); false when it has none.
  bool Marks(uint64_t table_id, std::string_view row, int64_t now_ms, ClockMarks* out);
  // Records what the server dated in the row; marks not ahead of now_ms are dropped.
  void Record(uint64_t table_id, std::string_view row, const ClockMarks& marks, int64_t now_ms);

  // Rows with marks held (test hook: the map stays bounded).
  size_t RowsHeld();

 private:
  struct Stripe;
  static std::string Key(uint64_t table_id, std::string_view row);
  Stripe& StripeFor(uint64_t table_id, std::string_view row) const;

  const size_t count_;
  std::unique_ptr<Stripe[]> stripes_;
  // The newest mark ever recorded: while the wall clock is past it (nearly always), a write
  // learns that its row has no marks without hashing the row.
  std::atomic<int64_t> horizon_{std::numeric_limits<int64_t>::min()};
};

}  // namespace hbemu::storage
