#include "server/admin/process_stats.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace hbemu::server::admin {

ProcessStats ReadProcessStats() {
  ProcessStats out;
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    // Summed in whole microseconds, then divided once: adding two fractions of a second
    // would print as 0.35781199999999996 where the kernel said 0.357812.
    const int64_t micros =
        (static_cast<int64_t>(usage.ru_utime.tv_sec) + usage.ru_stime.tv_sec) * 1000000 +
        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    out.cpu_seconds = static_cast<double>(micros) / 1e6;
  }
  // /proc/self/statm: size resident shared ... in pages.
  std::ifstream statm("/proc/self/statm");
  uint64_t size_pages = 0, resident_pages = 0;
  if (statm >> size_pages >> resident_pages) {
    out.resident_bytes = resident_pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  }
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) out.threads = std::stoull(line.substr(8));
  }
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++out.open_fds;
  }
  return out;
}

}  // namespace hbemu::server::admin
