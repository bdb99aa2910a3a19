#pragma once

#include <cstdint>

#include "storage/status.h"

namespace hbemu::server {

// The bytes every open scanner of the process holds, whichever door opened it (Thrift1,
// Thrift2, REST), against the scanner_bytes limit: a scan naming millions of columns, or the
// rows a scanner reads ahead, stay in memory until the scanner is closed. Thread-safe.
class ScannerBudget {
 public:
  // Charges `bytes` for a new scanner, or refuses it with HBase's retryable
  // RegionTooBusyException when that would take the total past scanner_bytes.
  static storage::Status ChargeNew(int64_t bytes);
  // A scanner now holds `now` bytes where it was charged *charged: the difference is charged
  // (or given back), without refusal, and *charged becomes `now`.
  static void Recharge(int64_t* charged, int64_t now);
  // A closed scanner gives back what it was charged.
  static void Release(int64_t charged);
  // Bytes all open scanners hold.
  static int64_t Held();
};

}  // namespace hbemu::server
