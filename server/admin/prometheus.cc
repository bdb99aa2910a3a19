// /metrics: the Prometheus text exposition format (version 0.0.4).

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "server/admin/console.h"
#include "server/admin/format.h"
#include "server/admin/process_stats.h"
#include "server/gateway/rest_counters.h"
#include "server/gateway/scanner_registry.h"
#include "server/limits.h"
#include "server/net/wire_stats.h"
#include "storage/store.h"

namespace hbemu::server::admin {
namespace {

constexpr int kLevels = 7;  // LevelDB's config::kNumLevels

std::string LabelValue(const std::string& raw) {
  // The format is UTF-8 text; other bytes are shown as HBase shows them.
  const std::string value = IsValidUtf8(raw) ? raw : ToStringBinary(raw);
  std::string out;
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

class Writer {
 public:
  void Family(const std::string& name, const char* type, const std::string& help) {
    out_ << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
  }
  void Sample(const std::string& name, const std::string& labels, double value) {
    out_ << name;
    if (!labels.empty()) out_ << "{" << labels << "}";
    out_ << " " << ShortestNumber(value) << "\n";
  }
  void Sample(const std::string& name, const std::string& labels, uint64_t value) {
    out_ << name;
    if (!labels.empty()) out_ << "{" << labels << "}";
    out_ << " " << value << "\n";
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

std::string Label(const std::string& key, const std::string& value) {
  return key + "=\"" + LabelValue(value) + "\"";
}

// LevelDB's "leveldb.stats" table: per level, files, size (MB), compaction time (s), compaction
// read and write (MB).
struct LevelStats {
  bool present = false;
  double files = 0, size_mb = 0, seconds = 0, read_mb = 0, write_mb = 0;
};

std::vector<LevelStats> ParseLevelDbStats(const std::string& text) {
  std::vector<LevelStats> levels(kLevels);
  std::istringstream in(text);
  std::string line;
  bool table = false;
  while (std::getline(in, line)) {
    if (line.rfind("-----", 0) == 0) {
      table = true;
      continue;
    }
    if (!table) continue;
    std::istringstream row(line);
    int level = -1;
    LevelStats s;
    if (row >> level >> s.files >> s.size_mb >> s.seconds >> s.read_mb >> s.write_mb &&
        level >= 0 && level < kLevels) {
      s.present = true;
      levels[level] = s;
    }
  }
  return levels;
}

}  // namespace

std::string Console::PrometheusText() const {
  RefreshTables();
  Writer w;
  const std::string p = "hbase_emulator_";

  w.Family(p + "info", "gauge", "Build of the running server.");
  w.Sample(p + "info", Label("version", sources_.version), uint64_t{1});

  const auto methods = sources_.metrics->Methods();
  w.Family(p + "calls_total", "counter", "Calls by service (thrift1, thrift2, rest), method and outcome.");
  for (const MethodStats* m : methods) {
    for (int o = 0; o < kOutcomes; ++o) {
      w.Sample(p + "calls_total",
               Label("service", m->service) + "," + Label("method", m->method) + "," +
                   Label("outcome", OutcomeName(static_cast<Outcome>(o))),
               m->calls[o].load(std::memory_order_relaxed));
    }
  }
  w.Family(p + "call_duration_seconds", "histogram",
           "Time from a call's dispatch to its reply being built.");
  for (const MethodStats* m : methods) {
    const std::string labels = Label("service", m->service) + "," + Label("method", m->method);
    uint64_t cumulative = 0;
    for (int b = 0; b < kLatencyBuckets; ++b) {
      cumulative += m->latency[b].load(std::memory_order_relaxed);
      const std::string le = b < static_cast<int>(kLatencyBoundsUs.size())
                                 ? ShortestNumber(kLatencyBoundsUs[b] / 1e6)
                                 : std::string("+Inf");
      w.Sample(p + "call_duration_seconds_bucket", labels + "," + Label("le", le), cumulative);
    }
    w.Sample(p + "call_duration_seconds_sum", labels,
             m->latency_sum_us.load(std::memory_order_relaxed) / 1e6);
    w.Sample(p + "call_duration_seconds_count", labels, cumulative);
  }

  w.Family(p + "received_bytes_total", "counter", "Bytes received on a Thrift port.");
  for (const ServicePort& s : sources_.services) {
    if (s.wire) w.Sample(p + "received_bytes_total", Label("service", s.name), s.wire->bytes_in.load());
  }
  w.Family(p + "sent_bytes_total", "counter", "Bytes sent on a Thrift port.");
  for (const ServicePort& s : sources_.services) {
    if (s.wire) w.Sample(p + "sent_bytes_total", Label("service", s.name), s.wire->bytes_out.load());
  }
  w.Family(p + "connections", "gauge", "Open connections by wire mode (once detected).");
  for (const ServicePort& s : sources_.services) {
    if (!s.wire) continue;
    for (int m = 0; m < WireStats::kModes; ++m) {
      w.Sample(p + "connections",
               Label("service", s.name) + "," + Label("mode", WireStats::ModeName(m)),
               static_cast<double>(s.wire->open[m].load()));
    }
  }
  w.Family(p + "connections_on_call_threads", "gauge",
           "Connections calling back to back, each served by a call thread of its own now.");
  for (const ServicePort& s : sources_.services) {
    if (s.wire) {
      w.Sample(p + "connections_on_call_threads", Label("service", s.name),
               static_cast<double>(s.wire->on_call_threads.load()));
    }
  }
  w.Family(p + "connections_accepted_total", "counter", "Connections ever seen, by wire mode.");
  for (const ServicePort& s : sources_.services) {
    if (!s.wire) continue;
    for (int m = 0; m < WireStats::kModes; ++m) {
      w.Sample(p + "connections_accepted_total",
               Label("service", s.name) + "," + Label("mode", WireStats::ModeName(m)),
               s.wire->accepted[m].load());
    }
  }
  w.Family(p + "connections_refused_total", "counter",
           "Connections closed at accept because the limit connections were open.");
  for (const ServicePort& s : sources_.services) {
    if (s.wire) w.Sample(p + "connections_refused_total", Label("service", s.name), s.wire->refused.load());
  }
  if (sources_.admin_refused_connections) {
    w.Sample(p + "connections_refused_total", Label("service", "admin"),
             sources_.admin_refused_connections());
  }
  if (sources_.rest_counters) {
    w.Family(p + "rest_requests_total", "counter",
             "REST gateway requests, by endpoint and status class.");
    for (const auto& sample : sources_.rest_counters->Snapshot()) {
      w.Sample(p + "rest_requests_total",
               Label("endpoint", sample.endpoint) + "," + Label("status", sample.status_class),
               sample.calls);
    }
  }
  w.Family(p + "scanners_open", "gauge", "Scanners open now.");
  for (const ServicePort& s : sources_.services) {
    if (s.scanners) {
      w.Sample(p + "scanners_open", Label("service", s.name),
               static_cast<uint64_t>(s.scanners->size()));
    }
  }
  w.Family(p + "scanners_expired_total", "counter", "Scanners closed for sitting idle too long.");
  for (const ServicePort& s : sources_.services) {
    if (s.scanners) {
      w.Sample(p + "scanners_expired_total", Label("service", s.name), s.scanners->expired());
    }
  }

  const auto tables = sources_.metrics->Tables();
  w.Family(p + "table_rows_read_total", "counter", "Rows read by calls, per table.");
  for (const auto& t : tables) {
    w.Sample(p + "table_rows_read_total", Label("table", t->table), t->rows_read.load());
  }
  w.Family(p + "table_rows_written_total", "counter", "Rows written by calls, per table.");
  for (const auto& t : tables) {
    w.Sample(p + "table_rows_written_total", Label("table", t->table), t->rows_written.load());
  }
  w.Family(p + "table_approximate_bytes", "gauge",
           "LevelDB's estimate of a table's bytes in table files.");
  // As many tables as have their own series (metric_tables), so /metrics stays bounded too.
  const auto listed = sources_.store->ListTables();
  const size_t shown = std::min(listed.size(), static_cast<size_t>(std::max<int64_t>(
                                                   CurrentLimits().metric_tables, 0)));
  for (size_t i = 0; i < shown; ++i) {
    const auto& table = listed[i];
    uint64_t bytes = 0;
    const std::string name = table->name.ToString();
    if (sources_.store->ApproximateTableBytes(name, &bytes).ok()) {
      w.Sample(p + "table_approximate_bytes", Label("table", name), bytes);
    }
  }

  std::string value;
  w.Family(p + "leveldb_files", "gauge", "LevelDB table files per level.");
  for (int level = 0; level < kLevels; ++level) {
    if (sources_.store->DbProperty("leveldb.num-files-at-level" + std::to_string(level), &value)) {
      w.Sample(p + "leveldb_files", Label("level", std::to_string(level)), std::stod(value));
    }
  }
  std::string stats_text;
  if (sources_.store->DbProperty("leveldb.stats", &stats_text)) {
    const std::vector<LevelStats> levels = ParseLevelDbStats(stats_text);
    struct Column {
      const char* name;
      const char* type;
      const char* help;
      double LevelStats::*field;
      double scale;
    };
    const Column columns[] = {
        {"leveldb_level_bytes", "gauge", "Bytes of LevelDB table files per level.",
         &LevelStats::size_mb, 1048576.0},
        {"leveldb_compaction_seconds_total", "counter", "Time LevelDB spent compacting into a level.",
         &LevelStats::seconds, 1.0},
        {"leveldb_compaction_read_bytes_total", "counter", "Bytes LevelDB compactions read, per level.",
         &LevelStats::read_mb, 1048576.0},
        {"leveldb_compaction_written_bytes_total", "counter",
         "Bytes LevelDB compactions wrote, per level.", &LevelStats::write_mb, 1048576.0},
    };
    for (const Column& c : columns) {
      w.Family(p + c.name, c.type, c.help);
      for (int level = 0; level < kLevels; ++level) {
        w.Sample(p + c.name, Label("level", std::to_string(level)),
                 levels[level].*(c.field) * c.scale);
      }
    }
  }
  if (sources_.store->DbProperty("leveldb.approximate-memory-usage", &value)) {
    w.Family(p + "leveldb_memory_bytes", "gauge", "LevelDB's memtables and caches.");
    w.Sample(p + "leveldb_memory_bytes", "", std::stod(value));
  }

  const ProcessStats process = ReadProcessStats();
  w.Family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
  w.Sample("process_resident_memory_bytes", "", process.resident_bytes);
  w.Family("process_cpu_seconds_total", "counter", "User and system CPU time spent in seconds.");
  w.Sample("process_cpu_seconds_total", "", process.cpu_seconds);
  w.Family("process_open_fds", "gauge", "Open file descriptors.");
  w.Sample("process_open_fds", "", process.open_fds);
  w.Family("process_start_time_seconds", "gauge", "Start time of the process since the epoch.");
  w.Sample("process_start_time_seconds", "", sources_.started_unix_ms / 1000.0);
  if (sources_.control_metrics) return w.str() + sources_.control_metrics();
  return w.str();
}

}  // namespace hbemu::server::admin
