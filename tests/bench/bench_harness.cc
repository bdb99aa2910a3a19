#include "tests/bench/bench_harness.h"

#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace hbemu::bench {

std::string Rate(double v) {
  char buf[32];
  if (v >= 1e6) {
    snprintf(buf, sizeof(buf), "%.2fM/s", v / 1e6);
  } else if (v >= 1e3) {
    snprintf(buf, sizeof(buf), "%.1fk/s", v / 1e3);
  } else if (v >= 10) {
    snprintf(buf, sizeof(buf), "%.0f/s", v);
  } else {
    snprintf(buf, sizeof(buf), "%.2f/s", v);  // the slow rows (filters over a deep tree)
  }
  return buf;
}

std::string Latency(double us) {
  char buf[32];
  if (us >= 1e4) {
    snprintf(buf, sizeof(buf), "%.0f ms", us / 1e3);
  } else if (us >= 1e3) {
    snprintf(buf, sizeof(buf), "%.1f ms", us / 1e3);
  } else {
    snprintf(buf, sizeof(buf), "%.0f us", us);
  }
  return buf;
}

void PrintTable(const std::vector<Row>& rows) {
  printf("\n%-46s %11s %11s %-26s %6s %6s %4s %11s\n", "workload", "server", "reference",
         "reference is", "ratio", "target", "ok?", "server CPU");
  printf("%s\n", std::string(132, '-').c_str());
  for (const Row& r : rows) {
    const double ratio = r.latency ? (r.server > 0 ? r.reference / r.server : 0)
                                   : (r.reference > 0 ? r.server / r.reference : 0);
    char target[16] = "report";
    if (r.target > 0) snprintf(target, sizeof(target), ">=%.1f", r.target);
    const char* ok = r.target <= 0 ? "-" : ratio >= r.target ? "yes" : "NO";
    char cpu[24] = "";
    if (r.server_cpu_us > 0) {
      if (r.server_cpu_us < 1) {
        snprintf(cpu, sizeof(cpu), "%.0f ns/op", r.server_cpu_us * 1000);
      } else {
        snprintf(cpu, sizeof(cpu), "%.1f us/op", r.server_cpu_us);
      }
    }
    const auto value = [&](double v) { return r.latency ? Latency(v) : Rate(v); };
    printf("%-46s %11s %11s %-26s %6.2f %6s %4s %11s\n", r.workload.c_str(),
           value(r.server).c_str(), value(r.reference).c_str(), r.reference_name.c_str(), ratio,
           target, ok, cpu);
  }
  fflush(stdout);
}

void Progress(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "  .. ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
}

double CpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name, which is in parentheses and may contain spaces.
  std::istringstream rest(stat.substr(stat.rfind(')') + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; rest >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) {
      stime = std::stoull(field);
      break;
    }
  }
  return static_cast<double>(utime + stime) / sysconf(_SC_CLK_TCK);
}

pid_t g_server_pid = -1;

Best BestOf(int rounds, const std::function<double()>& server,
            const std::function<double()>& reference) {
  Best best;
  for (int i = 0; i < rounds; ++i) {
    best.reference = std::max(best.reference, reference());
    const double cpu0 = g_server_pid > 0 ? CpuSeconds(g_server_pid) : 0;
    const Clock::time_point t0 = Clock::now();
    const double rate = server();
    const double wall = Seconds(Clock::now() - t0);
    const double cpu = g_server_pid > 0 ? CpuSeconds(g_server_pid) - cpu0 : 0;
    if (rate > best.server) {
      best.server = rate;
      best.server_cpu_us = rate > 0 && wall > 0 ? cpu / (rate * wall) * 1e6 : 0;
    }
  }
  return best;
}

}  // namespace hbemu::bench
