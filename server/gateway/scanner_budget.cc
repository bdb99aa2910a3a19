#include "server/gateway/scanner_budget.h"

#include <atomic>
#include <string>

#include <glog/logging.h>

#include "server/limits.h"

namespace hbemu::server {
namespace {

std::atomic<int64_t> g_held_bytes{0};

}  // namespace

storage::Status ScannerBudget::ChargeNew(int64_t bytes) {
  const int64_t limit = CurrentLimits().scanner_bytes;
  // Charged before the check, so two scanners opened at once cannot both pass on the same room.
  const int64_t held = g_held_bytes.fetch_add(bytes, std::memory_order_relaxed);
  if (held + bytes <= limit) return storage::Status::OK();
  g_held_bytes.fetch_sub(bytes, std::memory_order_relaxed);
  LOG_EVERY_N(WARNING, 100) << "[scanners] refused a scanner of " << bytes
                            << " bytes: open scanners hold " << held
                            << " (limit scanner_bytes " << limit << ")";
  return storage::Status::RegionTooBusy(
      "Above scanner memory limit: open scanners hold " + std::to_string(held) +
      " bytes and this scan needs " + std::to_string(bytes) + " more, past the scanner_bytes "
      "limit of " + std::to_string(limit) + " bytes (--limit scanner_bytes=N raises it); "
      "close scanners, or name fewer columns per scan");
}

void ScannerBudget::Recharge(int64_t* charged, int64_t now) {
  g_held_bytes.fetch_add(now - *charged, std::memory_order_relaxed);
  *charged = now;
}

void ScannerBudget::Release(int64_t charged) {
  g_held_bytes.fetch_sub(charged, std::memory_order_relaxed);
}

int64_t ScannerBudget::Held() { return g_held_bytes.load(std::memory_order_relaxed); }

}  // namespace hbemu::server
