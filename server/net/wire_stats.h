#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "server/net/wire_format.h"

namespace hbemu::server {

// Traffic figures of one Thrift port, kept by its sessions and read by the admin console.
// Relaxed atomics: each figure is exact on its own, the set is not one consistent snapshot.
struct WireStats {
  // Connections by detected format: buffered/framed x binary/compact, then HTTP (whose
  // per-request protocol is not a connection property).
  static constexpr int kModes = 5;
  static int ModeIndex(const WireFormat& format) {
    if (format.transport == WireTransport::kHttp) return 4;
    return (format.transport == WireTransport::kFramed ? 2 : 0) +
           (format.protocol == WireProtocol::kCompact ? 1 : 0);
  }
  // "buffered_binary", "buffered_compact", "framed_binary", "framed_compact", "http".
  static const char* ModeName(int index);

  std::atomic<uint64_t> bytes_in{0};
  std::atomic<uint64_t> bytes_out{0};
  std::atomic<int64_t> open[kModes] = {};      // connections open now, once their format is known
  std::atomic<uint64_t> accepted[kModes] = {};  // connections ever seen, by format
  std::atomic<int64_t> on_call_threads{0};      // connections a call thread serves now
  std::atomic<uint64_t> refused{0};             // connections closed at accept (Limits::connections)
};

inline const char* WireStats::ModeName(int index) {
  static const char* const kNames[kModes] = {"buffered_binary", "buffered_compact",
                                             "framed_binary", "framed_compact", "http"};
  return index >= 0 && index < kModes ? kNames[index] : "unknown";
}

}  // namespace hbemu::server
