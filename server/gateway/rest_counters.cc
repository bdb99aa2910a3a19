#include "server/gateway/rest_counters.h"

#include <utility>

namespace hbemu::server {

RestCounters::RestCounters(std::vector<std::string> endpoint_names)
    : names_(std::move(endpoint_names)), calls_(names_.size()) {
  for (auto& row : calls_) {
    for (auto& count : row) count.store(0, std::memory_order_relaxed);
  }
}

void RestCounters::Record(size_t index, int status) {
  const int status_class = status / 100 - 1;
  if (index >= calls_.size() || status_class < 0 || status_class >= kStatusClasses) return;
  calls_[index][status_class].fetch_add(1, std::memory_order_relaxed);
}

std::vector<RestCounters::Sample> RestCounters::Snapshot() const {
  std::vector<Sample> samples;
  for (size_t i = 0; i < names_.size(); ++i) {
    for (int c = 0; c < kStatusClasses; ++c) {
      const uint64_t calls = calls_[i][c].load(std::memory_order_relaxed);
      if (calls > 0) samples.push_back({names_[i], std::to_string(c + 1) + "xx", calls});
    }
  }
  return samples;
}

}  // namespace hbemu::server
