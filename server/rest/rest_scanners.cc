#include "server/rest/rest_scanners.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "server/gateway/scanner_budget.h"

namespace hbemu::server::rest {

RestScanners::Entry::~Entry() { ScannerBudget::Release(charged); }

storage::Status RestScanners::Charge(Entry* entry) {
  const int64_t bytes = static_cast<int64_t>(storage::ScanSpecBytes(entry->spec));
  storage::Status charged = ScannerBudget::ChargeNew(bytes);
  if (charged.ok()) entry->charged = bytes;
  return charged;
}

void RestScanners::Recount(Entry* entry) {
  size_t held = storage::ScanSpecBytes(entry->spec);
  if (entry->scanner != nullptr) held += entry->scanner->HeldBytes();
  for (const storage::RowResult& row : entry->pending) {
    held += row.row.size();
    for (const storage::Cell& cell : row.cells) {
      held += cell.family.size() + cell.qualifier.size() + cell.value.size() + sizeof(cell);
    }
  }
  ScannerBudget::Recharge(&entry->charged, static_cast<int64_t>(held));
}

RestScanners::RestScanners(storage::Clock* clock, int64_t idle_timeout_ms, size_t max_open)
    : clock_(clock), idle_timeout_ms_(idle_timeout_ms), max_open_(std::max<size_t>(1, max_open)) {}

void RestScanners::ForgetLocked(Lru::iterator slot,
                                std::vector<std::shared_ptr<Entry>>* closing) {
  closing->push_back(std::move(slot->entry));
  open_.erase(slot->id);
  lru_.erase(slot);
}

void RestScanners::ExpireLocked(int64_t now_ms, std::vector<std::shared_ptr<Entry>>* closing) {
  while (!lru_.empty() && now_ms - lru_.front().last_used_ms > idle_timeout_ms_) {
    ForgetLocked(lru_.begin(), closing);
  }
}

std::string RestScanners::Add(std::shared_ptr<Entry> entry) {
  const int64_t now = clock_->NowMillis();
  std::vector<std::shared_ptr<Entry>> closing;  // closed after the lock is let go
  std::lock_guard<std::mutex> lock(mu_);
  ExpireLocked(now, &closing);
  while (open_.size() >= max_open_) ForgetLocked(lru_.begin(), &closing);
  std::string id;
  do {
    char hex[16];
    std::snprintf(hex, sizeof(hex), "%x", static_cast<unsigned>(random_()));
    id = std::to_string(now) + hex;
  } while (open_.count(id) > 0);
  lru_.push_back(Slot{id, std::move(entry), now});
  open_[id] = std::prev(lru_.end());
  return id;
}

std::shared_ptr<RestScanners::Entry> RestScanners::Find(const std::string& id) {
  const int64_t now = clock_->NowMillis();
  std::vector<std::shared_ptr<Entry>> closing;  // declared first: destroyed after the unlock
  std::lock_guard<std::mutex> lock(mu_);
  ExpireLocked(now, &closing);
  auto it = open_.find(id);
  if (it == open_.end()) return nullptr;
  Lru::iterator slot = it->second;
  slot->last_used_ms = now;
  lru_.splice(lru_.end(), lru_, slot);
  return slot->entry;
}

bool RestScanners::Remove(const std::string& id) {
  std::shared_ptr<Entry> closing;  // declared first: destroyed after the unlock
  std::lock_guard<std::mutex> lock(mu_);
  auto it = open_.find(id);
  if (it == open_.end()) return false;
  closing = std::move(it->second->entry);
  lru_.erase(it->second);
  open_.erase(it);
  return true;
}

size_t RestScanners::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return open_.size();
}

}  // namespace hbemu::server::rest
