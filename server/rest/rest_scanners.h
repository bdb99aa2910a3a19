#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "storage/cell.h"
#include "storage/clock.h"
#include "storage/read_spec.h"
#include "storage/scanner.h"
#include "storage/status.h"

namespace hbemu::server::rest {

// The gateway's open scanners (/T/scanner/ID). HBase 2.6.1's gateway keeps them in a cache that
// forgets a scanner unused for an hour (hbase.rest.scannercache.expire.time) or past its size
// (hbase.rest.scannercache.size); a forgotten id is answered 404 like one never handed out. The
// 60 s lease of the region scanner behind it does not end it: HBase's client reopens it at the
// next fetch. Past `max_open` open scanners the longest idle one is forgotten to make room, so a
// client that never deletes its scanners cannot hold snapshots without bound.
// Thread-safe; one fetch at a time per scanner.
class RestScanners {
 public:
  struct Entry {
    ~Entry();  // gives its bytes back to the scanner_bytes budget
    std::mutex mu;  // one fetch at a time
    std::string table;
    // HBase opens a scanner's region scanner at its first fetch, so the rows it sees are those
    // of that moment (and its table must exist then): `spec` waits until then.
    storage::ScanSpec spec;
    std::unique_ptr<storage::Scanner> scanner;
    // Cells of a row read but not yet sent: a fetch may end inside a row.
    std::deque<storage::RowResult> pending;
    int32_t batch = 0;  // cells per fetch when the fetch does not say
    bool exhausted = false;
    // Bytes counted against the scanner_bytes budget the Thrift scanners share (its request,
    // its store scanner's read-ahead and `pending`), recounted after each fetch (Recount).
    int64_t charged = 0;
  };
  RestScanners(storage::Clock* clock, int64_t idle_timeout_ms, size_t max_open);

  // Registers an open scanner; returns its id (milliseconds and random hex, as HBase's ids).
  std::string Add(std::shared_ptr<Entry> entry);
  // Charges what a new scanner of `spec` holds to the scanner_bytes budget (into
  // entry->charged), or refuses it with HBase's RegionTooBusyException past the limit.
  static storage::Status Charge(Entry* entry);
  // After a fetch: counts what the entry holds now. REQUIRES: entry->mu held.
  static void Recount(Entry* entry);
  // The entry of `id`, touching it; null when it is not open (never was, deleted or forgotten).
  std::shared_ptr<Entry> Find(const std::string& id);
  // False when `id` is not open.
  bool Remove(const std::string& id);
  size_t size() const;

 private:
  struct Slot {
    std::string id;
    std::shared_ptr<Entry> entry;
    int64_t last_used_ms;
  };
  using Lru = std::list<Slot>;  // front: the longest idle

  // Scanners idle past the timeout are forgotten, their entries moved into *closing (closed
  // by the caller once unlocked). Walks only the idle end: no cost per open scanner.
  void ExpireLocked(int64_t now_ms, std::vector<std::shared_ptr<Entry>>* closing);
  void ForgetLocked(Lru::iterator slot, std::vector<std::shared_ptr<Entry>>* closing);

  storage::Clock* const clock_;
  const int64_t idle_timeout_ms_;
  const size_t max_open_;
  mutable std::mutex mu_;
  Lru lru_;
  std::unordered_map<std::string, Lru::iterator> open_;
  std::mt19937 random_{std::random_device{}()};
};

}  // namespace hbemu::server::rest
