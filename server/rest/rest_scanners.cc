#include "server/rest/rest_scanners.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace hbemu::server::rest {

RestScanners::RestScanners(storage::Clock* clock, int64_t idle_timeout_ms, size_t max_open)
    : clock_(clock), idle_timeout_ms_(idle_timeout_ms), max_open_(std::max<size_t>(1, max_open)) {}

void RestScanners::ExpireLocked(int64_t now_ms) {
  std::vector<std::string> expired;
  for (const auto& [id, slot] : open_) {
    if (now_ms - slot.last_used_ms > idle_timeout_ms_) expired.push_back(id);
  }
  for (const std::string& id : expired) open_.erase(id);
}

std::string RestScanners::Add(std::shared_ptr<Entry> entry) {
  const int64_t now = clock_->NowMillis();
  std::lock_guard<std::mutex> lock(mu_);
  ExpireLocked(now);
  while (open_.size() >= max_open_) {
    auto oldest = std::min_element(open_.begin(), open_.end(), [](const auto& a, const auto& b) {
      return a.second.last_used_ms < b.second.last_used_ms;
    });
    open_.erase(oldest);
  }
  std::string id;
  do {
    char hex[16];
    std::snprintf(hex, sizeof(hex), "%x", static_cast<unsigned>(random_()));
    id = std::to_string(now) + hex;
  } while (open_.count(id) > 0);
  open_[id] = Slot{std::move(entry), now};
  return id;
}

std::shared_ptr<RestScanners::Entry> RestScanners::Find(const std::string& id) {
  const int64_t now = clock_->NowMillis();
  std::lock_guard<std::mutex> lock(mu_);
  ExpireLocked(now);
  auto it = open_.find(id);
  if (it == open_.end()) return nullptr;
  it->second.last_used_ms = now;
  return it->second.entry;
}

bool RestScanners::Remove(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  return open_.erase(id) > 0;
}

size_t RestScanners::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return open_.size();
}

}  // namespace hbemu::server::rest
