#include "server/admin/bucketing.h"

#include <algorithm>
#include <map>

namespace hbemu::server::admin {
namespace {

// Where a bucket sorts: by its bytes, and a byte's rest after every tracked prefix starting
// with that byte (no tracked prefix is longer than kPrefixBytes, so kPrefixBytes + 1 0xFF bytes
// sort after all of them).
std::string SortKey(const PrefixBucket& b) {
  return b.rest ? b.prefix + std::string(kPrefixBytes + 1, '\xff') : b.prefix;
}

void AddTo(PrefixBucket* bucket, const HeatMap::PrefixCounts& counts) {
  bucket->reads += counts.total_reads;
  bucket->writes += counts.total_writes;
  for (int w = 0; w < kWindows; ++w) {
    bucket->window_reads[w] += counts.reads[w];
    bucket->window_writes[w] += counts.writes[w];
  }
}

// Counts may race with a call being recorded (first byte counted, prefix not yet): never below 0.
uint64_t Minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

}  // namespace

bool ParseBucketSpec(const std::string& bytes, const std::string& delimiter, BucketSpec* spec,
                     std::string* error) {
  *spec = BucketSpec();
  if (!bytes.empty()) {
    if (bytes.size() != 1 || bytes[0] < '1' || bytes[0] > '0' + kPrefixBytes) {
      *error = "prefix_bytes must be a number from 1 to " + std::to_string(kPrefixBytes);
      return false;
    }
    spec->bytes = bytes[0] - '0';
  }
  if (!delimiter.empty()) {
    if (delimiter.size() != 1) {
      *error = "delimiter must be a single byte";
      return false;
    }
    spec->delimiter = static_cast<unsigned char>(delimiter[0]);
  }
  return true;
}

std::string_view BucketPrefix(std::string_view recorded, const BucketSpec& spec) {
  if (spec.delimiter >= 0) {
    const size_t at = recorded.find(static_cast<char>(spec.delimiter));
    return at == std::string_view::npos ? recorded : recorded.substr(0, at + 1);
  }
  return recorded.substr(0, static_cast<size_t>(spec.bytes));
}

std::vector<PrefixBucket> GroupBuckets(const HeatMap::Snapshot& heat, const BucketSpec& spec) {
  const size_t windows = std::min<size_t>(heat.reads.size(), kWindows);
  std::vector<PrefixBucket> out;
  if (spec.bytes == 1 && spec.delimiter < 0) {
    for (int b = 0; b < kBuckets; ++b) {
      if (heat.total_reads[b] == 0 && heat.total_writes[b] == 0) continue;
      PrefixBucket bucket;
      bucket.prefix = std::string(1, static_cast<char>(b));
      bucket.reads = heat.total_reads[b];
      bucket.writes = heat.total_writes[b];
      for (size_t w = 0; w < windows; ++w) {
        bucket.window_reads[w] = heat.reads[w][b];
        bucket.window_writes[w] = heat.writes[w][b];
      }
      out.push_back(std::move(bucket));
    }
    return out;
  }
  // Tracked prefixes grouped by their bucket; what each first byte has beyond them is its rest.
  std::map<std::string, PrefixBucket> grouped;
  std::array<PrefixBucket, kBuckets> tracked;  // per first byte, the part the prefixes explain
  for (const HeatMap::PrefixCounts& counts : heat.prefixes) {
    const std::string key(BucketPrefix(counts.prefix, spec));
    PrefixBucket& bucket = grouped[key];
    bucket.prefix = key;
    AddTo(&bucket, counts);
    AddTo(&tracked[BucketOf(counts.prefix)], counts);
  }
  for (auto& [key, bucket] : grouped) out.push_back(std::move(bucket));
  for (int b = 0; b < kBuckets; ++b) {
    PrefixBucket rest;
    rest.prefix = std::string(1, static_cast<char>(b));
    rest.rest = true;
    rest.reads = Minus(heat.total_reads[b], tracked[b].reads);
    rest.writes = Minus(heat.total_writes[b], tracked[b].writes);
    for (size_t w = 0; w < windows; ++w) {
      rest.window_reads[w] = Minus(heat.reads[w][b], tracked[b].window_reads[w]);
      rest.window_writes[w] = Minus(heat.writes[w][b], tracked[b].window_writes[w]);
    }
    if (rest.reads != 0 || rest.writes != 0) out.push_back(std::move(rest));
  }
  std::sort(out.begin(), out.end(), [](const PrefixBucket& a, const PrefixBucket& b) {
    return SortKey(a) < SortKey(b);
  });
  return out;
}

std::string PrefixLabel(std::string_view prefix, bool rest) {
  if (prefix.empty()) return "(empty)";
  std::string out;
  for (unsigned char c : prefix) out += BucketLabel(c);
  if (rest) out += "\u2026";  // "…": and every other row starting with these bytes
  return out;
}

}  // namespace hbemu::server::admin
