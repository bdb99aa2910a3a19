#include "server/admin/heat_map.h"

#include <algorithm>
#include <cstdio>

namespace hbemu::server::admin {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

// Makes `slot` hold `window`, clearing it if it held an older one. False when the slot already
// moved on to a newer window (this thread's clock reading is stale): the count is dropped.
template <class Slot, class Clear>
bool Claim(Slot& slot, int64_t window, Clear clear) {
  int64_t seen = slot.window.load(std::memory_order_acquire);
  while (seen != window) {
    if (seen > window) return false;
    if (slot.window.compare_exchange_weak(seen, window, std::memory_order_acq_rel)) {
      clear();
      return true;
    }
  }
  return true;
}

}  // namespace

std::string BucketLabel(int bucket) {
  // The backslash is escaped too, so a label of several bytes reads back unambiguously.
  if (bucket >= 0x21 && bucket < 0x7f && bucket != '\\') {
    return std::string(1, static_cast<char>(bucket));
  }
  char buf[8];
  std::snprintf(buf, sizeof(buf), "\\x%02X", bucket & 0xff);
  return buf;
}

uint64_t PrefixKeyOf(std::string_view row) {
  const size_t n = std::min<size_t>(row.size(), kPrefixBytes);
  uint64_t bytes = 0;
  for (size_t i = 0; i < kPrefixBytes; ++i) {
    bytes = (bytes << 8) | (i < n ? static_cast<unsigned char>(row[i]) : 0u);
  }
  return (bytes << 8) | (n + 1);
}

std::string PrefixOfKey(uint64_t key) {
  const size_t n = (key & 0xff) - 1;
  std::string out(n, '\0');
  for (size_t i = 0; i < n; ++i) {
    out[i] = static_cast<char>((key >> (8 * (kPrefixBytes - i))) & 0xff);
  }
  return out;
}

int RegionOf(const std::vector<std::string>& split_keys, std::string_view row) {
  // Region i starts at split_keys[i-1]: count the split keys <= row.
  auto it = std::upper_bound(split_keys.begin(), split_keys.end(), row,
                             [](std::string_view r, const std::string& key) { return r < key; });
  return std::min<int>(static_cast<int>(it - split_keys.begin()), kMaxRegions - 1);
}

void WindowedCounter::Add(int64_t now_s, uint64_t n) {
  const int64_t window = WindowOf(now_s);
  Slot& slot = slots_[window % kWindows];
  if (!Claim(slot, window, [&] { slot.count.store(0, kRelaxed); })) return;
  slot.count.fetch_add(n, kRelaxed);
}

std::array<uint64_t, kWindows> WindowedCounter::Read(int64_t now_s) const {
  std::array<uint64_t, kWindows> out{};
  const int64_t last = WindowOf(now_s);
  for (int i = 0; i < kWindows; ++i) {
    const int64_t window = last - (kWindows - 1) + i;
    if (window < 0) continue;
    const Slot& slot = slots_[window % kWindows];
    if (slot.window.load(std::memory_order_acquire) == window) out[i] = slot.count.load(kRelaxed);
  }
  return out;
}

double WindowedCounter::RatePerSecond(int64_t now_s) const {
  const std::array<uint64_t, kWindows> counts = Read(now_s);
  // The last two complete windows: recent enough to follow a workload, long enough to be smooth.
  const uint64_t sum = counts[kWindows - 2] + counts[kWindows - 3];
  return static_cast<double>(sum) / (2.0 * kWindowSeconds);
}

bool HeatMap::SameCells(std::string_view a, std::string_view b) const {
  // Equal prefix keys mean equal first bytes (buckets), or two empty rows.
  if (PrefixKeyOf(a) != PrefixKeyOf(b)) return false;
  return !has_regions_.load(kRelaxed) || Region(a) == Region(b);
}

void HeatMap::Record(std::string_view row, bool write, int64_t now_s, uint32_t count) {
  const int bucket = BucketOf(row);
  const int region = has_regions_.load(kRelaxed) ? Region(row) : 0;
  const uint64_t key = PrefixKeyOf(row);
  PrefixEntry* prefix = FindPrefix(key);
  if (prefix == nullptr && !prefixes_full_.load(kRelaxed)) prefix = AddPrefix(key);
  (write ? total_writes_ : total_reads_)[bucket].fetch_add(count, kRelaxed);
  (write ? region_total_writes_ : region_total_reads_)[region].fetch_add(count, kRelaxed);
  if (prefix != nullptr) {
    (write ? prefix->total_writes : prefix->total_reads).fetch_add(count, kRelaxed);
  }
  const int64_t window = WindowOf(now_s);
  const int index = static_cast<int>(window % kWindows);
  Slot& slot = slots_[index];
  const bool claimed = Claim(slot, window, [&] {
    for (auto& c : slot.reads) c.store(0, kRelaxed);
    for (auto& c : slot.writes) c.store(0, kRelaxed);
    for (auto& c : slot.region_reads) c.store(0, kRelaxed);
    for (auto& c : slot.region_writes) c.store(0, kRelaxed);
    ClearPrefixWindow(index);
  });
  if (!claimed) return;
  (write ? slot.writes : slot.reads)[bucket].fetch_add(count, kRelaxed);
  (write ? slot.region_writes : slot.region_reads)[region].fetch_add(count, kRelaxed);
  if (prefix != nullptr) (write ? prefix->writes : prefix->reads)[index].fetch_add(count, kRelaxed);
}

namespace {
// Fibonacci hashing: the prefix bytes sit in the high bits, which the multiply spreads well.
int SlotOf(uint64_t key, int slots) {
  return static_cast<int>((key * 0x9E3779B97F4A7C15ull) >> 40) & (slots - 1);
}
}  // namespace

HeatMap::PrefixEntry* HeatMap::FindPrefix(uint64_t key) const {
  static_assert((kPrefixSlots & (kPrefixSlots - 1)) == 0, "a power of two");
  for (int i = SlotOf(key, kPrefixSlots), probes = 0; probes < kPrefixSlots;
       i = (i + 1) & (kPrefixSlots - 1), ++probes) {
    PrefixEntry* entry = prefix_slots_[i].load(std::memory_order_acquire);
    if (entry == nullptr) return nullptr;
    if (entry->key == key) return entry;
  }
  return nullptr;
}

HeatMap::PrefixEntry* HeatMap::AddPrefix(uint64_t key) {
  std::lock_guard<std::mutex> lock(prefix_mu_);
  // Another thread may have added it (or filled the table) since this one looked.
  if (PrefixEntry* entry = FindPrefix(key)) return entry;
  if (prefix_entries_.size() >= static_cast<size_t>(kMaxPrefixes)) {
    prefixes_full_.store(true, kRelaxed);
    return nullptr;
  }
  int i = SlotOf(key, kPrefixSlots);
  while (prefix_slots_[i].load(kRelaxed) != nullptr) i = (i + 1) & (kPrefixSlots - 1);
  prefix_entries_.push_back(std::make_unique<PrefixEntry>(key));
  PrefixEntry* entry = prefix_entries_.back().get();
  prefix_slots_[i].store(entry, std::memory_order_release);
  return entry;
}

void HeatMap::ClearPrefixWindow(int slot) {
  std::lock_guard<std::mutex> lock(prefix_mu_);
  for (const auto& entry : prefix_entries_) {
    entry->reads[slot].store(0, kRelaxed);
    entry->writes[slot].store(0, kRelaxed);
  }
}

int HeatMap::Region(std::string_view row) const {
  std::lock_guard<std::mutex> lock(mu_);
  return RegionOf(split_keys_, row);
}

void HeatMap::SetRegions(const std::vector<std::string>& split_keys) {
  std::lock_guard<std::mutex> lock(mu_);
  if (split_keys == split_keys_) return;
  split_keys_ = split_keys;
  has_regions_.store(!split_keys_.empty(), kRelaxed);
  for (auto& c : region_total_reads_) c.store(0, kRelaxed);
  for (auto& c : region_total_writes_) c.store(0, kRelaxed);
  for (Slot& slot : slots_) {
    for (auto& c : slot.region_reads) c.store(0, kRelaxed);
    for (auto& c : slot.region_writes) c.store(0, kRelaxed);
  }
}

std::vector<std::string> HeatMap::split_keys() const {
  std::lock_guard<std::mutex> lock(mu_);
  return split_keys_;
}

HeatMap::Snapshot HeatMap::Read(int64_t now_s) const {
  Snapshot out;
  const int64_t last = WindowOf(now_s);
  out.first_window = last - (kWindows - 1);
  {
    std::lock_guard<std::mutex> lock(mu_);
    out.regions = std::min<int>(static_cast<int>(split_keys_.size()) + 1, kMaxRegions);
  }
  out.reads.assign(kWindows, {});
  out.writes.assign(kWindows, {});
  out.region_reads.assign(kWindows, {});
  out.region_writes.assign(kWindows, {});
  for (int i = 0; i < kWindows; ++i) {
    const int64_t window = out.first_window + i;
    if (window < 0) continue;
    const Slot& slot = slots_[window % kWindows];
    if (slot.window.load(std::memory_order_acquire) != window) continue;
    for (int b = 0; b < kBuckets; ++b) {
      out.reads[i][b] = slot.reads[b].load(kRelaxed);
      out.writes[i][b] = slot.writes[b].load(kRelaxed);
    }
    for (int r = 0; r < kMaxRegions; ++r) {
      out.region_reads[i][r] = slot.region_reads[r].load(kRelaxed);
      out.region_writes[i][r] = slot.region_writes[r].load(kRelaxed);
    }
  }
  for (int b = 0; b < kBuckets; ++b) {
    out.total_reads[b] = total_reads_[b].load(kRelaxed);
    out.total_writes[b] = total_writes_[b].load(kRelaxed);
  }
  for (int r = 0; r < kMaxRegions; ++r) {
    out.region_total_reads[r] = region_total_reads_[r].load(kRelaxed);
    out.region_total_writes[r] = region_total_writes_[r].load(kRelaxed);
  }
  std::vector<const PrefixEntry*> entries;
  {
    std::lock_guard<std::mutex> lock(prefix_mu_);
    for (const auto& entry : prefix_entries_) entries.push_back(entry.get());
  }
  out.prefixes_full = prefixes_full_.load(kRelaxed);
  std::sort(entries.begin(), entries.end(),
            [](const PrefixEntry* a, const PrefixEntry* b) { return a->key < b->key; });
  for (const PrefixEntry* entry : entries) {
    PrefixCounts counts;
    counts.prefix = PrefixOfKey(entry->key);
    counts.total_reads = entry->total_reads.load(kRelaxed);
    counts.total_writes = entry->total_writes.load(kRelaxed);
    for (int i = 0; i < kWindows; ++i) {
      const int64_t window = out.first_window + i;
      if (window < 0) continue;
      const int index = static_cast<int>(window % kWindows);
      if (slots_[index].window.load(std::memory_order_acquire) != window) continue;
      counts.reads[i] = entry->reads[index].load(kRelaxed);
      counts.writes[i] = entry->writes[index].load(kRelaxed);
    }
    out.prefixes.push_back(std::move(counts));
  }
  return out;
}

}  // namespace hbemu::server::admin
