#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace hbemu::server::control {

// The table each open scanner reads. A scanner fetch or close names only the scanner's id, so
// without this the call log could not say which table a scan's round trips were for, and a
// fault rule with a table could not hit them. Bounded: past kMaxScanners the oldest entries
// go (scanners a client never closed). Thread-safe.
class ScannerTables {
 public:
  static constexpr size_t kMaxScanners = 4096;

  // Whether `method` opens a scanner (its reply is the id), closes one, or reads one.
  static bool Opens(const std::string& method);
  static bool Closes(const std::string& method);

  void Opened(const std::string& service, int64_t id, const std::string& table);
  void Closed(const std::string& service, int64_t id);
  // "" for a scanner not seen opening.
  std::string TableOf(const std::string& service, int64_t id) const;

 private:
  using Key = std::pair<std::string, int64_t>;
  mutable std::mutex mu_;
  std::map<Key, std::string> tables_;
  std::deque<Key> opened_;  // oldest first; may hold keys closed since
};

}  // namespace hbemu::server::control
