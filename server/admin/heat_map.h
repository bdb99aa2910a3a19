#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace hbemu::server::admin {

// Recent time is kept as kWindows windows of kWindowSeconds each (two minutes), in a ring: a
// window's slot is reused, and cleared, once the clock has moved kWindows windows past it.
inline constexpr int kWindowSeconds = 10;
inline constexpr int kWindows = 12;
// Regions past this many share the last column (a heat map wider than this is unreadable).
inline constexpr int kMaxRegions = 64;
inline constexpr int kBuckets = 256;

// The window number of a time in seconds.
// A time before 1970 (the test controls' clock can be set there) counts in the first window:
// windows are ring slots, and a negative one would index before the ring.
inline int64_t WindowOf(int64_t now_s) { return now_s < 0 ? 0 : now_s / kWindowSeconds; }

// The key-prefix bucket of a row: its first byte. A monotonic key ("row000123", a timestamp in
// front) puts every write in one bucket; a salted or hashed key ("0:..".."f:..") spreads them
// over as many buckets as it has salts. An empty row counts in bucket 0.
inline int BucketOf(std::string_view row) {
  return row.empty() ? 0 : static_cast<unsigned char>(row[0]);
}

// How a bucket is shown: the byte itself when printable ASCII, else \xNN.
std::string BucketLabel(int bucket);

// Longer buckets (the first 2..4 bytes, for salts such as "0:") are grouped at read time from
// the first kPrefixBytes bytes of each row, recorded once. Memory stays bounded: a table keeps
// exact counts for its first kMaxPrefixes distinct recorded prefixes only; rows with any other
// prefix are still counted per first byte, and the bucketing shows them as that byte's rest.
inline constexpr int kPrefixBytes = 4;
inline constexpr int kMaxPrefixes = 512;

// The recorded prefix of a row as one number: its first kPrefixBytes bytes left-aligned, then
// their count plus one (never 0, which marks a free slot). Numbers sort as the byte strings do.
uint64_t PrefixKeyOf(std::string_view row);
std::string PrefixOfKey(uint64_t key);

// The region holding `row`, given the sorted split keys: region i holds
// [split_keys[i-1], split_keys[i]). Capped at kMaxRegions - 1.
int RegionOf(const std::vector<std::string>& split_keys, std::string_view row);

// One count per recent window, lock-free. A count that races with its slot being recycled may
// be lost or land in the new window: this is for "about how many per second", not accounting.
class WindowedCounter {
 public:
  void Add(int64_t now_s, uint64_t n = 1);
  // Counts of the last kWindows windows up to the one holding now_s, oldest first.
  std::array<uint64_t, kWindows> Read(int64_t now_s) const;
  // Mean per second over the last complete windows (the current one is still filling).
  double RatePerSecond(int64_t now_s) const;

 private:
  struct Slot {
    std::atomic<int64_t> window{-1};
    std::atomic<uint64_t> count{0};
  };
  std::array<Slot, kWindows> slots_;
};

// Reads and writes of one table over its key space (per prefix bucket and per region) and
// over recent time. Totals since start are exact; the windows follow WindowedCounter's rule.
// Thread-safe; Record takes no lock unless the table has more than one region or the row brings
// a prefix not yet tracked while fewer than kMaxPrefixes are (at most kMaxPrefixes times).
class HeatMap {
 public:
  // Counts `count` reads or writes of rows like `row`: rows that SameCells says land where it
  // does (a run of rows of one scan reply), counted with one add per counter.
  void Record(std::string_view row, bool write, int64_t now_s, uint32_t count = 1);
  // True when rows `a` and `b` count in the same bucket, region and prefix, so Record(a, .., 2)
  // counts as Record(a) and Record(b) would.
  bool SameCells(std::string_view a, std::string_view b) const;

  // The table's region boundaries (sorted split keys; none: one region). Counts per region
  // start again when the boundaries change.
  void SetRegions(const std::vector<std::string>& split_keys);
  std::vector<std::string> split_keys() const;

  // Counts of one recorded prefix (the first kPrefixBytes bytes of its rows, or the whole
  // row when shorter), laid out as the Snapshot's windows.
  struct PrefixCounts {
    std::string prefix;
    uint64_t total_reads = 0, total_writes = 0;
    std::array<uint64_t, kWindows> reads{}, writes{};
  };

  struct Snapshot {
    int64_t first_window = 0;  // window number of column 0; columns are consecutive windows
    int regions = 1;           // region columns in use
    // [window][bucket] and [window][region], oldest window first.
    std::vector<std::array<uint64_t, kBuckets>> reads, writes;
    std::vector<std::array<uint64_t, kMaxRegions>> region_reads, region_writes;
    std::array<uint64_t, kBuckets> total_reads{}, total_writes{};
    std::array<uint64_t, kMaxRegions> region_total_reads{}, region_total_writes{};
    // The tracked prefixes in key order; true when the cap was reached and rows with a new
    // prefix went uncounted here (they are in the first-byte counts above).
    std::vector<PrefixCounts> prefixes;
    bool prefixes_full = false;
  };
  Snapshot Read(int64_t now_s) const;

 private:
  struct Slot {
    std::atomic<int64_t> window{-1};
    std::atomic<uint32_t> reads[kBuckets] = {};
    std::atomic<uint32_t> writes[kBuckets] = {};
    std::atomic<uint32_t> region_reads[kMaxRegions] = {};
    std::atomic<uint32_t> region_writes[kMaxRegions] = {};
  };
  // One tracked prefix; created once, never moved or freed before the HeatMap.
  struct PrefixEntry {
    explicit PrefixEntry(uint64_t k) : key(k) {}
    const uint64_t key;
    std::atomic<uint64_t> total_reads{0}, total_writes{0};
    std::atomic<uint32_t> reads[kWindows] = {};  // by window % kWindows, like slots_
    std::atomic<uint32_t> writes[kWindows] = {};
  };
  // Open addressing at most half full, so a miss ends at a free slot after a probe or two.
  static constexpr int kPrefixSlots = 2 * kMaxPrefixes;

  int Region(std::string_view row) const;
  // The entry of `key`, without a lock; null when not tracked.
  PrefixEntry* FindPrefix(uint64_t key) const;
  // Starts tracking `key` unless the cap is reached (then null). Takes prefix_mu_.
  PrefixEntry* AddPrefix(uint64_t key);
  void ClearPrefixWindow(int slot);

  std::array<Slot, kWindows> slots_;
  std::atomic<uint64_t> total_reads_[kBuckets] = {};
  std::atomic<uint64_t> total_writes_[kBuckets] = {};
  std::atomic<uint64_t> region_total_reads_[kMaxRegions] = {};
  std::atomic<uint64_t> region_total_writes_[kMaxRegions] = {};
  std::atomic<bool> has_regions_{false};
  mutable std::mutex mu_;
  std::vector<std::string> split_keys_;  // guarded by mu_
  // Published with release once the entry is built; readers probe without a lock.
  std::atomic<PrefixEntry*> prefix_slots_[kPrefixSlots] = {};
  std::atomic<bool> prefixes_full_{false};
  mutable std::mutex prefix_mu_;
  std::vector<std::unique_ptr<PrefixEntry>> prefix_entries_;  // guarded by prefix_mu_
};

}  // namespace hbemu::server::admin
