#pragma once

#include <array>
#include <atomic>
#include <cstdint>
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
inline int64_t WindowOf(int64_t now_s) { return now_s / kWindowSeconds; }

// The key-prefix bucket of a row: its first byte. A monotonic key ("row000123", a timestamp in
// front) puts every write in one bucket; a salted or hashed key ("0:..".."f:..") spreads them
// over as many buckets as it has salts. An empty row counts in bucket 0.
inline int BucketOf(std::string_view row) {
  return row.empty() ? 0 : static_cast<unsigned char>(row[0]);
}

// How a bucket is shown: the byte itself when printable ASCII, else \xNN.
std::string BucketLabel(int bucket);

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
// Thread-safe; Record takes no lock unless the table has more than one region.
class HeatMap {
 public:
  void Record(std::string_view row, bool write, int64_t now_s);

  // The table's region boundaries (sorted split keys; none: one region). Counts per region
  // start again when the boundaries change.
  void SetRegions(const std::vector<std::string>& split_keys);
  std::vector<std::string> split_keys() const;

  struct Snapshot {
    int64_t first_window = 0;  // window number of column 0; columns are consecutive windows
    int regions = 1;           // region columns in use
    // [window][bucket] and [window][region], oldest window first.
    std::vector<std::array<uint64_t, kBuckets>> reads, writes;
    std::vector<std::array<uint64_t, kMaxRegions>> region_reads, region_writes;
    std::array<uint64_t, kBuckets> total_reads{}, total_writes{};
    std::array<uint64_t, kMaxRegions> region_total_reads{}, region_total_writes{};
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
  int Region(std::string_view row) const;

  std::array<Slot, kWindows> slots_;
  std::atomic<uint64_t> total_reads_[kBuckets] = {};
  std::atomic<uint64_t> total_writes_[kBuckets] = {};
  std::atomic<uint64_t> region_total_reads_[kMaxRegions] = {};
  std::atomic<uint64_t> region_total_writes_[kMaxRegions] = {};
  std::atomic<bool> has_regions_{false};
  mutable std::mutex mu_;
  std::vector<std::string> split_keys_;  // guarded by mu_
};

}  // namespace hbemu::server::admin
