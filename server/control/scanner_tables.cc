#include "server/control/scanner_tables.h"

namespace hbemu::server::control {

bool ScannerTables::Opens(const std::string& method) {
  // Thrift1's scannerOpen* family, Thrift2's openScanner.
  return method.rfind("scannerOpen", 0) == 0 || method == "openScanner";
}

bool ScannerTables::Closes(const std::string& method) {
  return method == "scannerClose" || method == "closeScanner";
}

void ScannerTables::Opened(const std::string& service, int64_t id, const std::string& table) {
  std::lock_guard<std::mutex> lock(mu_);
  Key key{service, id};
  tables_[key] = table;
  opened_.push_back(std::move(key));
  while (opened_.size() > kMaxScanners) {
    tables_.erase(opened_.front());
    opened_.pop_front();
  }
}

void ScannerTables::Closed(const std::string& service, int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  tables_.erase(Key{service, id});
}

std::string ScannerTables::TableOf(const std::string& service, int64_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(Key{service, id});
  return it == tables_.end() ? "" : it->second;
}

}  // namespace hbemu::server::control
