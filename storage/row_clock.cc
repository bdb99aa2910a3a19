#include "storage/row_clock.h"

#include <algorithm>
#include <functional>

#include "storage/coding.h"

namespace hbemu::storage {

void ClockMarks::Add(std::string_view family, std::string_view qualifier, bool whole_family,
                     int64_t ts) {
  if (whole_family) qualifier = {};
  for (ClockMark& m : marks_) {
    if (m.whole_family == whole_family && m.family == family && m.qualifier == qualifier) {
      m.ts = std::max(m.ts, ts);
      return;
    }
  }
  marks_.push_back(ClockMark{std::string(family), std::string(qualifier), whole_family, ts});
}

int64_t ClockMarks::ForColumn(std::string_view family, std::string_view qualifier) const {
  int64_t newest = kNone;
  for (const ClockMark& m : marks_) {
    if (m.family == family && (m.whole_family || m.qualifier == qualifier)) {
      newest = std::max(newest, m.ts);
    }
  }
  return newest;
}

int64_t ClockMarks::ForFamily(std::string_view family) const {
  int64_t newest = kNone;
  for (const ClockMark& m : marks_) {
    if (m.family == family) newest = std::max(newest, m.ts);
  }
  return newest;
}

int64_t ClockMarks::ForRow() const {
  int64_t newest = kNone;
  for (const ClockMark& m : marks_) newest = std::max(newest, m.ts);
  return newest;
}

struct RowClock::Stripe {
  std::mutex mu;
  // The newest mark held: a write at a later now_ms finds nothing here and takes no lock. A
  // row's own marks are stored under its row lock, which its next writer holds too, so that
  // writer never reads a horizon older than them.
  std::atomic<int64_t> horizon{ClockMarks::kNone};
  std::unordered_map<std::string, ClockMarks> rows;  // table id + row -> marks
  size_t prune_at = 64;

  // Drops marks before `forget_before`. The threshold doubles when most rows are still kept,
  // so pruning stays amortised O(1) per call.
  void Prune(int64_t forget_before) {
    int64_t newest = ClockMarks::kNone;
    for (auto it = rows.begin(); it != rows.end();) {
      ClockMarks kept;
      for (const ClockMark& m : it->second.marks()) {
        if (m.ts >= forget_before) kept.Add(m.family, m.qualifier, m.whole_family, m.ts);
      }
      if (kept.empty()) {
        it = rows.erase(it);
        continue;
      }
      newest = std::max(newest, kept.ForRow());
      it->second = std::move(kept);
      ++it;
    }
    horizon.store(newest, std::memory_order_release);
    prune_at = std::max<size_t>(64, 2 * rows.size());
  }
};

RowClock::RowClock(size_t stripes)
    : count_(std::max<size_t>(1, stripes)), stripes_(new Stripe[count_]) {}

RowClock::~RowClock() = default;

std::string RowClock::Key(uint64_t table_id, std::string_view row) {
  std::string key;
  PutFixed64BE(&key, table_id);
  key.append(row.data(), row.size());
  return key;
}

RowClock::Stripe& RowClock::StripeFor(uint64_t table_id, std::string_view row) const {
  const size_t h = std::hash<std::string_view>()(row) ^ (table_id * 0x9e3779b97f4a7c15ULL);
  return stripes_[h % count_];
}

bool RowClock::Marks(uint64_t table_id, std::string_view row, int64_t now_ms, ClockMarks* out) {
  out->clear();
  if (horizon_.load(std::memory_order_acquire) < now_ms) return false;
  Stripe& stripe = StripeFor(table_id, row);
  if (stripe.horizon.load(std::memory_order_acquire) < now_ms) return false;
  std::lock_guard<std::mutex> lock(stripe.mu);
  const auto it = stripe.rows.find(Key(table_id, row));
  if (it == stripe.rows.end()) return false;
  for (const ClockMark& m : it->second.marks()) {
    if (m.ts >= now_ms) out->Add(m.family, m.qualifier, m.whole_family, m.ts);
  }
  if (out->empty() && it->second.ForRow() < now_ms - kForgetAfterMs) stripe.rows.erase(it);
  return !out->empty();
}

void RowClock::Record(uint64_t table_id, std::string_view row, const ClockMarks& marks,
                      int64_t now_ms) {
  // A mark at now_ms or before says nothing a later "now" does not.
  const bool ahead = std::any_of(marks.marks().begin(), marks.marks().end(),
                                 [&](const ClockMark& m) { return m.ts > now_ms; });
  if (!ahead) return;
  Stripe& stripe = StripeFor(table_id, row);
  std::lock_guard<std::mutex> lock(stripe.mu);
  const int64_t forget_before = now_ms - kForgetAfterMs;
  if (stripe.horizon.load(std::memory_order_relaxed) < forget_before) stripe.rows.clear();
  ClockMarks& held = stripe.rows[Key(table_id, row)];
  int64_t newest = stripe.horizon.load(std::memory_order_relaxed);
  for (const ClockMark& m : marks.marks()) {
    if (m.ts <= now_ms) continue;
    held.Add(m.family, m.qualifier, m.whole_family, m.ts);
    newest = std::max(newest, m.ts);
  }
  stripe.horizon.store(newest, std::memory_order_release);
  // Only ever raised, and by marks of other stripes concurrently: a compare-and-swap maximum.
  int64_t seen = horizon_.load(std::memory_order_relaxed);
  while (seen < newest && !horizon_.compare_exchange_weak(seen, newest, std::memory_order_release,
                                                          std::memory_order_relaxed)) {
  }
  if (stripe.rows.size() >= stripe.prune_at) stripe.Prune(forget_before);
}

size_t RowClock::RowsHeld() {
  size_t rows = 0;
  for (size_t i = 0; i < count_; ++i) {
    std::lock_guard<std::mutex> lock(stripes_[i].mu);
    rows += stripes_[i].rows.size();
  }
  return rows;
}

}  // namespace hbemu::storage
