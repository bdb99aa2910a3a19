#pragma once

// What every benchmark workload shares: timing, best-of rounds against a same-run reference,
// server CPU per operation, and the printed table.

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace hbemu::bench {

using Clock = std::chrono::steady_clock;

inline double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

struct Row {
  std::string workload;
  double server;
  double reference;
  std::string reference_name;
  double target;  // 0: report only
  double server_cpu_us = 0;  // server CPU per operation (0: not measured)
  // server and reference are latencies in microseconds; the ratio is reference / server, so
  // that higher is better as for rates.
  bool latency = false;
};

std::string Rate(double v);
std::string Latency(double us);
void PrintTable(const std::vector<Row>& rows);
void Progress(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// CPU time the process has used, in seconds (user + system, all threads).
double CpuSeconds(pid_t pid);

// The server process being measured; its CPU per operation is reported next to each rate, so a
// gap can be told apart from client or machine time.
extern pid_t g_server_pid;

struct Best {
  double server = 0;
  double reference = 0;
  double server_cpu_us = 0;  // server process CPU per operation in the best server round
};

// Alternates server and reference runs; keeps the best of each (least disturbed by neighbours).
Best BestOf(int rounds, const std::function<double()>& server,
            const std::function<double()>& reference);

// One thread per connection, each with its own Client(port); each calls op(client, thread, i)
// until `seconds` pass. Returns calls per second; with `latencies`, also every call's duration
// in ns.
template <typename Client>
double RunTimedWith(int port, int connections, double seconds,
                    const std::function<void(Client&, int, uint64_t)>& op,
                    std::vector<uint32_t>* latencies = nullptr) {
  std::vector<std::unique_ptr<Client>> clients;
  for (int t = 0; t < connections; ++t) clients.push_back(std::make_unique<Client>(port));
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<uint64_t> counts(connections);
  std::vector<std::vector<uint32_t>> lats(connections);
  Clock::time_point start, end;
  std::vector<std::thread> threads;
  for (int t = 0; t < connections; ++t) {
    threads.emplace_back([&, t] {
      Client& c = *clients[t];
      op(c, t, 0);  // warm-up call, not counted
      ready++;
      while (!go.load()) std::this_thread::yield();
      const Clock::time_point deadline = start + std::chrono::duration_cast<Clock::duration>(
                                                     std::chrono::duration<double>(seconds));
      uint64_t i = 1;
      for (;;) {
        Clock::time_point t0 = Clock::now();
        if (t0 >= deadline) break;
        op(c, t, i++);
        if (latencies) {
          lats[t].push_back(static_cast<uint32_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count()));
        }
      }
      counts[t] = i - 1;
    });
  }
  while (ready.load() < connections) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  start = Clock::now();
  go = true;
  for (auto& th : threads) th.join();
  end = Clock::now();
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  if (latencies) {
    for (auto& l : lats) latencies->insert(latencies->end(), l.begin(), l.end());
  }
  return total / Seconds(end - start);
}

}  // namespace hbemu::bench
