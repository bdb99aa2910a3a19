#pragma once

#include <cstdint>

namespace hbemu::server::admin {

// This process as the kernel sees it (Linux /proc/self); zeros where unavailable.
struct ProcessStats {
  uint64_t resident_bytes = 0;
  double cpu_seconds = 0;  // user + system
  uint64_t open_fds = 0;
  uint64_t threads = 0;
};
ProcessStats ReadProcessStats();

}  // namespace hbemu::server::admin
