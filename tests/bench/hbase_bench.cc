// hbase_bench: drives the built hbase-emulator over real sockets and prints each figure next to
// a reference measured in the same run (the machines are shared and noisy, so only ratios mean
// anything). See docs/benchmarks.md; scripts/bench.sh builds and runs it.
//
// References, all in this process:
//   - a do-nothing Hbase server (getRow answers one 100-byte cell) on libthrift's stock
//     TThreadedServer, buffered transport + binary protocol: the Thrift ceiling;
//   - raw LevelDB (WriteBatch of 1,000 cells, iterator) over the very keys and values the
//     emulator stores (storage/key_format.h), in memory or on disk like the server under test.
//
// Usage: hbase_bench [--quick] [--no-growth] [--no-disk] [--cells N] [--rounds N] [--seconds S]
//                    [--server PATH] [--filters-only] [--snapshots-only] [--against PATH]
// --against PATH: only getRow and mutateRow at 1 and 4 connections and the full scan, in memory,
// the --server binary against the one at PATH (for example the static build against the normal
// one), alternated.
// --cells, --rounds and --seconds override the mode's data size, server/reference alternations
// (best of each kept) and seconds per timed run.

#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/write_batch.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/server/TThreadedServer.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TServerSocket.h>
#include <thrift/transport/TSocket.h>

#include "Hbase.h"
#include "tests/bench/bench_harness.h"
#include "tests/bench/bystander_rows.h"
#include "tests/bench/filter_rows.h"
#include "tests/bench/snapshot_rows.h"
#include "tests/bench/thrift2_rows.h"
#include "tests/bench/transport_rows.h"
#include "storage/key_format.h"

namespace {

using namespace hbemu::bench;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TBinaryProtocolFactory;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TBufferedTransportFactory;
using apache::thrift::transport::TServerSocket;
using apache::thrift::transport::TSocket;
namespace fs = std::filesystem;
namespace th = hbemu::thrift;

constexpr size_t kValueBytes = 100;
const std::string kFamily = "f";
const std::string kQualifier = "q";
const std::string kColumn = "f:q";
const std::map<std::string, std::string> kNoAttributes;

std::string RowKey(uint64_t i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "r%09" PRIu64, i);
  return buf;
}

std::string SaltedRowKey(uint64_t i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%x:%09" PRIu64, static_cast<unsigned>(i % 16), i);
  return buf;
}

std::string Value(uint64_t i) {
  std::string v(kValueBytes, 'v');
  for (size_t k = 0; k < 8; ++k) v[k] = static_cast<char>('a' + (i >> (k * 4)) % 16);
  return v;
}

// ------------------------------------------------------------------ options

struct Options {
  bool quick = false;
  bool growth = true;
  bool disk = true;
  bool filters_only = false;  // only the filter rows (tests/bench/filter_rows.h)
  bool snapshots_only = false;  // only the snapshot rows (tests/bench/snapshot_rows.h)
  std::string against;        // --against: the binary the calls rows compare the server with
  std::string server;
  // Derived from quick.
  double seconds = 3.0;     // per timed run
  int rounds = 3;           // server and reference alternate this many times; best of each
  uint64_t cells = 1000000;  // the data set (also "RSS after 1M cells")
  uint64_t salted_rows = 256000;
  int idle_connections = 996;
};

// ------------------------------------------------------------------ client side

// TBufferedTransport whose per-message byte budget (THRIFT-5492) restarts with every message,
// so a long scan over one connection is not cut off at 100 MB.
class ClientTransport : public TBufferedTransport {
 public:
  using TBufferedTransport::TBufferedTransport;
  uint32_t readEnd() override {
    uint32_t n = TBufferedTransport::readEnd();
    resetConsumedMessageSize();
    return n;
  }
};

struct Client {
  explicit Client(int port) {
    auto socket = std::make_shared<TSocket>("127.0.0.1", port);
    // 64 KiB instead of libthrift's 512-byte default read buffer, which costs a recv() per
    // 512 bytes of a scan reply (a third of the scan workload's CPU went to the client's
    // syscalls). Small calls do not notice the difference.
    transport = std::make_shared<ClientTransport>(socket, 64 * 1024, 64 * 1024);
    hbase = std::make_unique<th::HbaseClient>(std::make_shared<TBinaryProtocol>(transport));
    transport->open();
  }
  ~Client() {
    try {
      transport->close();
    } catch (...) {
    }
  }
  std::shared_ptr<ClientTransport> transport;
  std::unique_ptr<th::HbaseClient> hbase;
};

using CallOp = std::function<void(Client&, int, uint64_t)>;

double RunTimed(int port, int connections, double seconds, const CallOp& op,
                std::vector<uint32_t>* latencies = nullptr) {
  return RunTimedWith<Client>(port, connections, seconds, op, latencies);
}

// The benchmark's read: getRow of a pseudo-random one of the `rows` rows of "bench", a
// different sequence per connection; a row that is not found ends the run.
CallOp GetRowOp(uint64_t rows) {
  return [rows](Client& c, int t, uint64_t i) {
    std::vector<th::TRowResult> out;
    c.hbase->getRow(out, "bench", RowKey((i * 2654435761u + t * 7919) % rows), kNoAttributes);
    if (out.size() != 1) {
      fprintf(stderr, "hbase_bench: getRow found nothing\n");
      exit(1);
    }
  };
}

// The benchmark's write: mutateRow of one cell to a new row of "writes" per call.
CallOp MutateRowOp() {
  return [](Client& c, int t, uint64_t i) {
    th::Mutation m;
    m.column = kColumn;
    m.value = Value(i);
    m.isDelete = false;
    c.hbase->mutateRow("writes", RowKey(i * 8 + t), {m}, kNoAttributes);
  };
}

void CreateTable(Client& c, const std::string& name) {
  th::ColumnDescriptor cd;
  cd.name = kFamily + ":";
  cd.maxVersions = 1;
  c.hbase->createTable(name, {cd});
}

// Loads rows [first, first+n) of `key` with one 100-byte cell each, 1,000 rows per mutateRows.
// Returns cells per second.
double LoadRows(Client& c, const std::string& table, uint64_t first, uint64_t n,
                const std::function<std::string(uint64_t)>& key) {
  std::vector<th::BatchMutation> batch;
  Clock::time_point start = Clock::now();
  for (uint64_t i = first; i < first + n;) {
    batch.clear();
    for (uint64_t k = 0; k < 1000 && i < first + n; ++k, ++i) {
      th::BatchMutation b;
      b.row = key(i);
      th::Mutation m;
      m.column = kColumn;
      m.value = Value(i);
      m.isDelete = false;
      b.mutations.push_back(std::move(m));
      batch.push_back(std::move(b));
    }
    c.hbase->mutateRows(table, batch, kNoAttributes);
  }
  return n / Seconds(Clock::now() - start);
}

// Scans everything from one scanner, 1,000 rows per scannerGetList. Returns the cell count.
uint64_t ScanAll(Client& c, int32_t id) {
  uint64_t cells = 0;
  std::vector<th::TRowResult> rows;
  for (;;) {
    rows.clear();
    c.hbase->scannerGetList(rows, id, 1000);
    if (rows.empty()) break;
    for (const auto& r : rows) cells += r.columns.size();
  }
  c.hbase->scannerClose(id);
  return cells;
}

// ------------------------------------------------------------------ the emulator process

struct Emulator {
  pid_t pid = -1;
  int port = 0;
  int thrift2_port = 0;  // 0 when the server serves Thrift1 only
  int admin_port = 0;
  int out_fd = -1;
  double ready_ms = 0;
  std::string data_dir;

  ~Emulator() { Stop(); }
  void Stop() {
    if (pid > 0) {
      kill(pid, SIGTERM);
      int status;
      waitpid(pid, &status, 0);
      pid = -1;
    }
    if (out_fd >= 0) close(out_fd);
    out_fd = -1;
    if (!data_dir.empty()) {
      std::error_code ec;
      fs::remove_all(data_dir, ec);
      data_dir.clear();
    }
  }
};

// Starts the server on a free port and waits for its readiness line.
std::unique_ptr<Emulator> StartEmulator(const std::string& binary, bool in_memory,
                                        const std::vector<std::string>& extra_args = {}) {
  auto e = std::make_unique<Emulator>();
  // The admin connection sits idle while other workloads run, often past HBase's 60 s idle
  // timeout, which the server copies; a benchmark has no reason to reconnect.
  std::vector<std::string> args = {binary, "--port", "0", "--idle-timeout-ms", "0"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  if (in_memory) {
    args.push_back("--in-memory");
  } else {
    char tmpl[] = "/tmp/hbase-bench-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
      perror("mkdtemp");
      exit(1);
    }
    e->data_dir = tmpl;
    args.push_back("--data-dir");
    args.push_back(e->data_dir);
  }
  int fds[2];
  if (pipe(fds) != 0) {
    perror("pipe");
    exit(1);
  }
  Clock::time_point start = Clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) dup2(null_fd, 2);  // INFO logs; a failure shows as a missing ready line
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  close(fds[1]);
  e->pid = pid;
  e->out_fd = fds[0];
  std::string line;
  char ch;
  const std::string marker = "hbase-emulator ready on ";
  while (read(fds[0], &ch, 1) == 1) {
    if (ch != '\n') {
      line.push_back(ch);
      continue;
    }
    if (line.rfind(marker, 0) == 0) {
      e->ready_ms = Seconds(Clock::now() - start) * 1000;
      // "HOST:PORT", then other ports as " name=HOST:PORT".
      const std::string first = line.substr(marker.size(), line.find(' ', marker.size()) -
                                                               marker.size());
      e->port = std::stoi(first.substr(first.rfind(':') + 1));
      const size_t thrift2 = line.find(" thrift2=");
      if (thrift2 != std::string::npos) {
        const std::string t2 = line.substr(thrift2 + 9, line.find(' ', thrift2 + 9) - thrift2 - 9);
        e->thrift2_port = std::stoi(t2.substr(t2.rfind(':') + 1));
      }
      const size_t admin = line.find(" admin=");
      if (admin != std::string::npos) {
        const std::string a = line.substr(admin + 7, line.find(' ', admin + 7) - admin - 7);
        e->admin_port = std::stoi(a.substr(a.rfind(':') + 1));
      }
      return e;
    }
    line.clear();
  }
  fprintf(stderr, "hbase_bench: %s exited without its readiness line\n", binary.c_str());
  exit(1);
}

double RssMiB(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

// ------------------------------------------------------------------ the do-nothing server

class NullHandler : public th::HbaseNull {
 public:
  void getRow(std::vector<th::TRowResult>& out, const th::Text&, const th::Text& row,
              const std::map<th::Text, th::Text>&) override {
    out.resize(1);
    out[0].row = row;
    th::TCell& cell = out[0].columns[kColumn];
    cell.value = value_;
    cell.timestamp = 1;
    // `columns` is optional in TRowResult: unset, the cell would not go out at all (until
    // 2026-11-25 the reference answered a row without its cell).
    out[0].__isset.columns = true;
  }

  // A scan answers batches of rows built once, shaped as the emulator's scan replies (one
  // 100-byte cell per row), until `scan_rows_` rows went out: what a scan costs the Thrift
  // client and server with no store behind them.
  void SetScanRows(uint64_t rows) {
    std::lock_guard<std::mutex> lock(mu_);
    scan_rows_ = rows;
  }
  th::ScannerID scannerOpen(const th::Text&, const th::Text&, const std::vector<th::Text>&,
                            const std::map<th::Text, th::Text>&) override {
    std::lock_guard<std::mutex> lock(mu_);
    scans_[++last_id_] = scan_rows_;
    return last_id_;
  }
  void scannerGetList(std::vector<th::TRowResult>& out, th::ScannerID id,
                      int32_t nb_rows) override {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t& left = scans_[id];
    const size_t n = static_cast<size_t>(std::min<uint64_t>(left, std::max(0, nb_rows)));
    if (batch_.size() < n) {
      for (size_t i = batch_.size(); i < n; ++i) {
        th::TRowResult r;
        r.row = RowKey(i);
        th::TCell& cell = r.columns[kColumn];
        cell.value = Value(i);
        cell.timestamp = 1;
        r.__isset.columns = true;  // an optional field: unset, it would not be sent
        batch_.push_back(std::move(r));
      }
    }
    out.assign(batch_.begin(), batch_.begin() + static_cast<std::ptrdiff_t>(n));
    left -= n;
  }
  void scannerClose(th::ScannerID id) override {
    std::lock_guard<std::mutex> lock(mu_);
    scans_.erase(id);
  }

 private:
  const std::string value_ = std::string(kValueBytes, 'v');
  std::mutex mu_;
  uint64_t scan_rows_ = 0;
  th::ScannerID last_id_ = 0;
  std::map<th::ScannerID, uint64_t> scans_;
  std::vector<th::TRowResult> batch_;
};

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    perror("bind");
    exit(1);
  }
  close(fd);
  return ntohs(addr.sin_port);
}

class NullServer {
 public:
  NullServer() {
    port_ = FreePort();
    auto processor = std::make_shared<th::HbaseProcessor>(handler_);
    server_ = std::make_unique<apache::thrift::server::TThreadedServer>(
        processor, std::make_shared<TServerSocket>("127.0.0.1", port_),
        std::make_shared<WideBufferedTransportFactory>(),
        std::make_shared<TBinaryProtocolFactory>());
    thread_ = std::thread([this] { server_->serve(); });
    // libthrift reports every refused connect on stderr; quiet while polling for readiness.
    apache::thrift::GlobalOutput.setOutputFunction([](const char*) {});
    struct Restore {
      ~Restore() {
        apache::thrift::GlobalOutput.setOutputFunction(apache::thrift::TOutput::errorTimeWrapper);
      }
    } restore;
    for (int i = 0; i < 500; ++i) {  // wait until it accepts
      try {
        Client c(port_);
        return;
      } catch (...) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    }
    fprintf(stderr, "hbase_bench: reference server did not start\n");
    exit(1);
  }
  ~NullServer() {
    server_->stop();
    thread_.join();
  }
  int port() const { return port_; }
  NullHandler& handler() { return *handler_; }

 private:
  // 64 KiB buffers, as the benchmark's clients: with libthrift's 512-byte default a scan reply
  // would go out in 512-byte sends, and the reference would measure that instead.
  class WideBufferedTransportFactory : public apache::thrift::transport::TTransportFactory {
   public:
    std::shared_ptr<apache::thrift::transport::TTransport> getTransport(
        std::shared_ptr<apache::thrift::transport::TTransport> trans) override {
      return std::make_shared<TBufferedTransport>(std::move(trans), 64 * 1024, 64 * 1024);
    }
  };

  int port_;
  std::shared_ptr<NullHandler> handler_ = std::make_shared<NullHandler>();
  std::unique_ptr<apache::thrift::server::TThreadedServer> server_;
  std::thread thread_;
};

// ------------------------------------------------------------------ raw LevelDB reference

class RawLevelDb {
 public:
  explicit RawLevelDb(bool in_memory) {
    leveldb::Options options;
    options.create_if_missing = true;
    options.write_buffer_size = 16 << 20;  // as storage/store.cc
    std::string path;
    if (in_memory) {
      env_.reset(leveldb::NewMemEnv(leveldb::Env::Default()));
      options.env = env_.get();
      path = "/raw";
    } else {
      char tmpl[] = "/tmp/hbase-bench-raw-XXXXXX";
      if (mkdtemp(tmpl) == nullptr) {
        perror("mkdtemp");
        exit(1);
      }
      dir_ = path = tmpl;
    }
    leveldb::DB* db;
    leveldb::Status s = leveldb::DB::Open(options, path, &db);
    if (!s.ok()) {
      fprintf(stderr, "hbase_bench: leveldb: %s\n", s.ToString().c_str());
      exit(1);
    }
    db_.reset(db);
  }
  ~RawLevelDb() {
    db_.reset();
    if (!dir_.empty()) {
      std::error_code ec;
      fs::remove_all(dir_, ec);
    }
  }

  static std::string Key(uint64_t i) {
    return hbemu::storage::CellKey(1, RowKey(i), kFamily, kQualifier, 1700000000000 + i,
                                   hbemu::storage::CellType::kPut);
  }

  // The same cells the server stores for rows [0, n): WriteBatch of 1,000. Cells per second.
  double Load(uint64_t n) {
    Clock::time_point start = Clock::now();
    leveldb::WriteBatch batch;
    std::string value;
    for (uint64_t i = 0; i < n;) {
      batch.Clear();
      for (uint64_t k = 0; k < 1000 && i < n; ++k, ++i) {
        value.clear();
        hbemu::storage::EncodeCellValue(&value, Value(i), hbemu::storage::kNoExpiry);
        batch.Put(Key(i), value);
      }
      db_->Write(leveldb::WriteOptions(), &batch);
    }
    return n / Seconds(Clock::now() - start);
  }

  // Cells per second of a full iterator pass (keys and values touched).
  double Scan(uint64_t* cells) {
    Clock::time_point start = Clock::now();
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    uint64_t n = 0, bytes = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      bytes += it->key().size() + it->value().size();
      ++n;
    }
    if (bytes == 0) n = 0;
    *cells = n;
    return n / Seconds(Clock::now() - start);
  }

  // Point reads (seek + read the row's cells) per second, one thread.
  double RandomReads(uint64_t n, double seconds) {
    std::mt19937_64 rng(7);
    Clock::time_point start = Clock::now();
    auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(seconds));
    uint64_t ops = 0, bytes = 0;
    while (Clock::now() < deadline) {
      for (int k = 0; k < 64; ++k) {
        const std::string prefix = hbemu::storage::RowKeyPrefix(1, RowKey(rng() % n));
        std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
        for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
          bytes += it->value().size();
        }
        ++ops;
      }
    }
    return bytes ? ops / Seconds(Clock::now() - start) : 0;
  }

 private:
  std::unique_ptr<leveldb::Env> env_;
  std::unique_ptr<leveldb::DB> db_;
  std::string dir_;
};

// ------------------------------------------------------------------ the suite

struct Extras {
  double ready_ms_memory = 0, ready_ms_disk = 0;
  double rss_idle = 0, rss_loaded = 0;
  uint64_t rss_loaded_cells = 0;
  std::vector<uint32_t> latencies, null_latencies;
};

double Percentile(std::vector<uint32_t>& v, double p) {
  if (v.empty()) return 0;
  size_t k = std::min(v.size() - 1, static_cast<size_t>(p * v.size()));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k] / 1000.0;
}

// POSTs a JSON body to the admin port (the test controls); exits unless it is answered 200.
void PostControl(int admin_port, const std::string& path, const std::string& body) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(admin_port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const std::string request = "POST " + path +
                              " HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
                              "Content-Length: " +
                              std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  std::string reply;
  if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    char buf[4096];
    for (ssize_t got; (got = read(fd, buf, sizeof(buf))) > 0;) reply.append(buf, got);
  }
  if (fd >= 0) close(fd);
  if (reply.rfind("HTTP/1.1 200", 0) != 0) {
    fprintf(stderr, "hbase_bench: POST %s failed: %s\n", path.c_str(), reply.c_str());
    exit(1);
  }
}

// What the test controls' call log costs a getRow and a mutateRow (one connection): a server
// started with --test-controls, its log on and then off, against the suite's server (no flag),
// same data, same run.
void AddCallLogRows(const Options& o, int port, uint64_t n, std::vector<Row>* rows) {
  auto controlled = StartEmulator(o.server, true, {"--test-controls"});
  Client admin(controlled->port);
  CreateTable(admin, "bench");
  CreateTable(admin, "writes");
  LoadRows(admin, "bench", 0, n, RowKey);
  const pid_t measured = g_server_pid;
  g_server_pid = controlled->pid;
  CallOp get_op = GetRowOp(n);
  CallOp put_op = MutateRowOp();
  for (const bool log_on : {true, false}) {
    PostControl(controlled->admin_port, "/control/calls/enable",
                log_on ? "{\"enabled\": true}" : "{\"enabled\": false}");
    const std::string how = log_on ? "call log on" : "controls, log off";
    for (const auto& [name, op] : {std::make_pair("getRow", &get_op), std::make_pair("mutateRow", &put_op)}) {
      Progress("[mem] %s, %s", name, how.c_str());
      auto [s, r, cpu] = BestOf(
          o.rounds, [&] { return RunTimed(controlled->port, 1, o.seconds, *op); },
          [&] { return RunTimed(port, 1, o.seconds, *op); });
      rows->push_back({std::string(name) + ", " + how + " [mem] (calls)", s, r,
                       "no --test-controls", 0, cpu});
    }
  }
  g_server_pid = measured;
}

void RunSuite(const Options& o, bool in_memory, NullServer& null_server, std::vector<Row>* rows,
              Extras* extras) {
  const std::string mode = in_memory ? "mem" : "disk";
  auto emu = StartEmulator(o.server, in_memory);
  g_server_pid = emu->pid;
  (in_memory ? extras->ready_ms_memory : extras->ready_ms_disk) = emu->ready_ms;
  if (in_memory) extras->rss_idle = RssMiB(emu->pid);
  const int port = emu->port, null_port = null_server.port();
  const uint64_t n = o.cells;
  Client admin(port);
  CreateTable(admin, "bench");
  CreateTable(admin, "salted");
  CreateTable(admin, "writes");
  CreateTable(admin, "counters");

  // mutateRows: load the data set; reference: raw LevelDB loading the same cells.
  Progress("[%s] loading %" PRIu64 " cells (mutateRows x1000 vs raw WriteBatch)", mode.c_str(), n);
  const double load_cpu0 = CpuSeconds(emu->pid);
  double load = LoadRows(admin, "bench", 0, n, RowKey);
  const double load_cpu_us = (CpuSeconds(emu->pid) - load_cpu0) / n * 1e6;
  RawLevelDb raw(in_memory);
  double raw_load = raw.Load(n);
  rows->push_back({"mutateRows 1000x1 cell [" + mode + "] (cells)", load, raw_load,
                   "raw LevelDB WriteBatch", 0.5, load_cpu_us});
  if (in_memory) {
    extras->rss_loaded = RssMiB(emu->pid);
    extras->rss_loaded_cells = n;
  }

  // Full scan.
  Progress("[%s] full scans", mode.c_str());
  auto [scan, raw_scan, scan_cpu] = BestOf(
      std::max(1, o.rounds - 1),
      [&] {
        Clock::time_point start = Clock::now();
        uint64_t cells = ScanAll(admin, admin.hbase->scannerOpen("bench", "", {kFamily},
                                                                   kNoAttributes));
        double rate = cells / Seconds(Clock::now() - start);
        if (cells != n) {
          fprintf(stderr, "hbase_bench: scan returned %" PRIu64 " cells, expected %" PRIu64 "\n",
                  cells, n);
          exit(1);
        }
        return rate;
      },
      [&] {
        uint64_t cells;
        return raw.Scan(&cells);
      });
  rows->push_back({"full scan, scannerGetList(1000) [" + mode + "] (cells)", scan, raw_scan,
                   "raw LevelDB iterator", 0.3, scan_cpu});
  // The same scan from the do-nothing server, which answers batches built once: what a scan
  // costs Thrift alone (the client's decoding included), the ceiling for any Thrift server.
  {
    null_server.handler().SetScanRows(n);
    Client null_client(null_port);
    double null_scan = 0;
    for (int r = 0; r < std::max(1, o.rounds - 1); ++r) {
      Clock::time_point start = Clock::now();
      const uint64_t cells = ScanAll(
          null_client, null_client.hbase->scannerOpen("bench", "", {kFamily}, kNoAttributes));
      null_scan = std::max(null_scan, cells / Seconds(Clock::now() - start));
    }
    rows->push_back({"full scan vs Thrift alone [" + mode + "] (cells)", scan, null_scan,
                     "do-nothing TThreadedServer", 0, scan_cpu});
  }

  // getRow.
  double get_rate[2] = {0, 0}, null_get_rate[2] = {0, 0};  // at 1 and 4 connections
  for (int conns : {1, 4, 16}) {
    Progress("[%s] getRow, %d connection(s)", mode.c_str(), conns);
    CallOp get_op = GetRowOp(n);
    std::vector<uint32_t>* lat = conns == 1 && in_memory ? &extras->latencies : nullptr;
    std::vector<uint32_t>* null_lat = conns == 1 && in_memory ? &extras->null_latencies : nullptr;
    auto [s, r, cpu] = BestOf(
        o.rounds, [&] { return RunTimed(port, conns, o.seconds, get_op, lat); },
        [&] { return RunTimed(null_port, conns, o.seconds, get_op, null_lat); });
    rows->push_back({"getRow 1 cell of 100 B, " + std::to_string(conns) + " conn [" + mode +
                         "] (calls)",
                     s, r, "do-nothing TThreadedServer", 0.8, cpu});
    if (conns <= 4) {
      get_rate[conns / 4] = s;
      null_get_rate[conns / 4] = r;
    }
  }
  {
    // What more connections buy on this machine; the do-nothing server shows what it allows.
    char reference[64];
    snprintf(reference, sizeof(reference), "1 conn (do-nothing: %.2fx)",
             null_get_rate[0] > 0 ? null_get_rate[1] / null_get_rate[0] : 0);
    rows->push_back({"getRow scaling, 4 conn vs 1 [" + mode + "] (calls)", get_rate[1],
                     get_rate[0], reference, 1.7});
  }

  // mutateRow.
  for (int conns : {1, 4, 16}) {
    Progress("[%s] mutateRow, %d connection(s)", mode.c_str(), conns);
    CallOp put_op = MutateRowOp();
    auto [s, r, cpu] = BestOf(
        o.rounds, [&] { return RunTimed(port, conns, o.seconds, put_op); },
        [&] { return RunTimed(null_port, conns, o.seconds, put_op); });
    rows->push_back({"mutateRow 1 cell, " + std::to_string(conns) + " conn [" + mode + "] (calls)",
                     s, r, "do-nothing TThreadedServer", 0.8, cpu});
  }

  if (in_memory) AddCallLogRows(o, port, n, rows);
  if (in_memory) AddLargeMessageRows(port, mode, o.rounds, rows);
  if (in_memory && emu->thrift2_port > 0) AddFilterRows(port, emu->thrift2_port, o.rounds, rows);
  if (in_memory) AddBystanderRows({port, mode, n, o.seconds, o.rounds, RowKey}, rows);

  // Thrift2 against Thrift1, same server, same run.
  if (emu->thrift2_port > 0) {
    Thrift2Workload w;
    w.thrift2_port = emu->thrift2_port;
    w.mode = mode;
    w.cells = n;
    w.seconds = o.seconds;
    w.rounds = o.rounds;
    w.row_key = RowKey;
    w.value = Value;
    CallOp get_op = GetRowOp(n);
    CallOp put_op = MutateRowOp();
    w.thrift1_get = [&] { return RunTimed(port, 1, o.seconds, get_op); };
    w.thrift1_put = [&] { return RunTimed(port, 1, o.seconds, put_op); };
    w.thrift1_scan = [&] {
      const Clock::time_point start = Clock::now();
      const uint64_t cells =
          ScanAll(admin, admin.hbase->scannerOpen("bench", "", {kFamily}, kNoAttributes));
      return cells / Seconds(Clock::now() - start);
    };
    AddThrift2Rows(w, rows);
  }

  // atomicIncrement on one hot row.
  {
    Progress("[%s] atomicIncrement, 4 connections, one row", mode.c_str());
    auto inc_op = [](Client& c, int, uint64_t) {
      c.hbase->atomicIncrement("counters", "hot", kFamily + ":n", 1);
    };
    auto [s, r, cpu] = BestOf(
        o.rounds, [&] { return RunTimed(port, 4, o.seconds, inc_op); },
        [&] { return RunTimed(null_port, 4, o.seconds, inc_op); });
    rows->push_back({"atomicIncrement hot row, 4 conn [" + mode + "] (calls)", s, r,
                     "do-nothing TThreadedServer", 0, cpu});
  }

  // Socorro's salted layout: 16 prefix scanners merged, against one plain scan of the rows.
  if (in_memory) {
    Progress("[%s] 16-salt prefix merge scan over %" PRIu64 " rows", mode.c_str(), o.salted_rows);
    LoadRows(admin, "salted", 0, o.salted_rows, SaltedRowKey);
    auto [s, r, cpu] = BestOf(
        std::max(1, o.rounds - 1),
        [&] {
          Clock::time_point start = Clock::now();
          std::vector<int32_t> ids;
          for (int salt = 0; salt < 16; ++salt) {
            char prefix[8];
            snprintf(prefix, sizeof(prefix), "%x:", salt);
            ids.push_back(admin.hbase->scannerOpenWithPrefix("salted", prefix, {kFamily},
                                                              kNoAttributes));
          }
          // Round-robin batches from every salt, as a k-way merge consumes them.
          uint64_t cells = 0;
          std::vector<th::TRowResult> batch;
          while (!ids.empty()) {
            for (size_t k = 0; k < ids.size();) {
              batch.clear();
              admin.hbase->scannerGetList(batch, ids[k], 1000);
              if (batch.empty()) {
                admin.hbase->scannerClose(ids[k]);
                ids.erase(ids.begin() + k);
                continue;
              }
              cells += batch.size();
              ++k;
            }
          }
          return cells / Seconds(Clock::now() - start);
        },
        [&] {
          Clock::time_point start = Clock::now();
          uint64_t cells = ScanAll(admin, admin.hbase->scannerOpen("salted", "", {kFamily},
                                                                     kNoAttributes));
          return cells / Seconds(Clock::now() - start);
        });
    rows->push_back({"16-salt prefix merge scan [" + mode + "] (rows)", s, r,
                     "same rows, one plain scan", 0, cpu});
  }

  // Many idle connections open while 4 work.
  if (in_memory && o.idle_connections > 0) {
    Progress("[%s] getRow, 4 active with %d idle connections open", mode.c_str(),
             o.idle_connections);
    CallOp get_op = GetRowOp(n);
    double with_idle = 0, without = 0;
    for (int i = 0; i < o.rounds; ++i) {
      without = std::max(without, RunTimed(port, 4, o.seconds, get_op));
      std::vector<std::unique_ptr<Client>> idle;
      for (int k = 0; k < o.idle_connections; ++k) idle.push_back(std::make_unique<Client>(port));
      with_idle = std::max(with_idle, RunTimed(port, 4, o.seconds, get_op));
    }
    rows->push_back({"getRow, " + std::to_string(o.idle_connections + 4) +
                         " conn open, 4 active [" + mode + "] (calls)",
                     with_idle, without, "same, 4 connections open", 0.9});
  }
  emu->Stop();
  g_server_pid = -1;
}

// Growth: the data-size dependent workloads at several sizes, as cost per cell / per call.
void RunGrowth(const Options& o, const std::vector<uint64_t>& sizes) {
  printf("\nGrowth (in memory; ns per cell for load and scan, us per getRow call at 1 conn)\n");
  printf("%-10s %14s %14s %14s %14s %14s %14s\n", "cells", "mutateRows", "raw load", "scan",
         "raw scan", "getRow", "raw get");
  printf("%s\n", std::string(100, '-').c_str());
  fflush(stdout);
  for (uint64_t n : sizes) {
    Progress("[growth] %" PRIu64 " cells", n);
    double load, raw_load, scan, raw_scan, get, raw_get;
    {
      auto emu = StartEmulator(o.server, true);
      Client c(emu->port);
      CreateTable(c, "bench");
      load = LoadRows(c, "bench", 0, n, RowKey);
      Clock::time_point start = Clock::now();
      uint64_t cells = ScanAll(c, c.hbase->scannerOpen("bench", "", {kFamily}, kNoAttributes));
      scan = cells / Seconds(Clock::now() - start);
      get = RunTimed(emu->port, 1, o.seconds, [n](Client& cl, int, uint64_t i) {
        std::vector<th::TRowResult> out;
        cl.hbase->getRow(out, "bench", RowKey((i * 2654435761u) % n), kNoAttributes);
      });
    }
    {
      RawLevelDb raw(true);
      raw_load = raw.Load(n);
      uint64_t cells;
      raw_scan = raw.Scan(&cells);
      raw_get = raw.RandomReads(n, o.seconds);
    }
    printf("%-10" PRIu64 " %11.0f ns %11.0f ns %11.0f ns %11.0f ns %11.1f us %11.2f us\n", n,
           1e9 / load, 1e9 / raw_load, 1e9 / scan, 1e9 / raw_scan, 1e6 / get, 1e6 / raw_get);
    fflush(stdout);
  }
}

std::string DefaultServerPath() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return (self.parent_path() / "hbase-emulator").string();
}

void RaiseFileLimit() {
  rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

// --against: the same getRow and mutateRow workloads and full scan on two binaries of the server
// (the same data in memory), alternated round by round, so a build's cost shows as a ratio
// (target 0.95: the static release build may be at most 5 % slower than this machine's).
void RunAgainst(const Options& o, std::vector<Row>* rows) {
  auto server = StartEmulator(o.server, true);
  auto other = StartEmulator(o.against, true);
  for (Emulator* e : {server.get(), other.get()}) {
    Client admin(e->port);
    CreateTable(admin, "bench");
    CreateTable(admin, "writes");
    LoadRows(admin, "bench", 0, o.cells, RowKey);
  }
  g_server_pid = server->pid;
  const uint64_t n = o.cells;
  CallOp get_op = GetRowOp(n);
  CallOp put_op = MutateRowOp();
  const std::string reference = fs::path(o.against).parent_path().filename().string() + "/" +
                                fs::path(o.against).filename().string();
  for (int conns : {1, 4}) {
    for (bool get : {true, false}) {
      const char* call = get ? "getRow 1 cell of 100 B" : "mutateRow 1 cell";
      Progress("[mem] %s, %d connection(s), against %s", call, conns, reference.c_str());
      const CallOp& op = get ? get_op : put_op;
      auto [s, r, cpu] = BestOf(
          o.rounds, [&] { return RunTimed(server->port, conns, o.seconds, op); },
          [&] { return RunTimed(other->port, conns, o.seconds, op); });
      rows->push_back({std::string(call) + ", " + std::to_string(conns) + " conn [mem] (calls)", s,
                       r, reference, 0.95, cpu});
    }
  }
  Progress("[mem] full scans, against %s", reference.c_str());
  Client server_client(server->port);
  Client other_client(other->port);
  auto full_scan = [n](Client& c) {
    const Clock::time_point start = Clock::now();
    const uint64_t cells = ScanAll(c, c.hbase->scannerOpen("bench", "", {kFamily}, kNoAttributes));
    if (cells != n) {
      fprintf(stderr, "hbase_bench: scan returned %" PRIu64 " cells, expected %" PRIu64 "\n", cells,
              n);
      exit(1);
    }
    return cells / Seconds(Clock::now() - start);
  };
  auto [s, r, cpu] = BestOf(
      std::max(1, o.rounds - 1), [&] { return full_scan(server_client); },
      [&] { return full_scan(other_client); });
  rows->push_back({"full scan, scannerGetList(1000) [mem] (cells)", s, r, reference, 0.95, cpu});
}

}  // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  Options o;
  o.server = DefaultServerPath();
  uint64_t cells_override = 0;
  int rounds_override = 0;
  double seconds_override = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--no-growth") {
      o.growth = false;
    } else if (a == "--no-disk") {
      o.disk = false;
    } else if (a == "--filters-only") {
      o.filters_only = true;
    } else if (a == "--snapshots-only") {
      o.snapshots_only = true;
    } else if (a == "--rounds" && i + 1 < argc) {
      rounds_override = std::atoi(argv[++i]);
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds_override = std::atof(argv[++i]);
    } else if (a == "--cells" && i + 1 < argc) {
      cells_override = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--server" && i + 1 < argc) {
      o.server = argv[++i];
    } else if (a == "--against" && i + 1 < argc) {
      o.against = argv[++i];
    } else {
      fprintf(stderr,
              "usage: %s [--quick] [--no-growth] [--no-disk] [--cells N] [--rounds N] [--seconds S]"
              " [--server PATH] [--filters-only] [--snapshots-only] [--against PATH]\n",
              argv[0]);
      return 2;
    }
  }
  if (o.quick) {
    o.seconds = 1.0;
    o.rounds = 2;
    o.cells = 200000;
    o.salted_rows = 64000;
    o.growth = false;
  }
  if (cells_override > 0) o.cells = cells_override;
  if (rounds_override > 0) o.rounds = rounds_override;
  if (seconds_override > 0) o.seconds = seconds_override;
  RaiseFileLimit();
  rlimit rl;
  getrlimit(RLIMIT_NOFILE, &rl);
  if (rl.rlim_cur < static_cast<rlim_t>(o.idle_connections) * 2 + 100) {
    o.idle_connections = std::max<int>(0, static_cast<int>(rl.rlim_cur / 2) - 100);
    fprintf(stderr, "hbase_bench: open-file limit %lu; idle connections cut to %d "
            "(raise ulimit -n)\n", static_cast<unsigned long>(rl.rlim_cur), o.idle_connections);
  }

  Clock::time_point start = Clock::now();
  printf("hbase_bench (%s): %s\n", o.quick ? "quick" : "full", o.server.c_str());
  printf("machine: %u cores; every ratio is against a reference measured in this run\n",
         std::thread::hardware_concurrency());
  fflush(stdout);
  if (!o.against.empty()) {
    std::vector<Row> rows;
    RunAgainst(o, &rows);
    PrintTable(rows);
    return 0;
  }
  if (o.snapshots_only) {
    std::vector<Row> rows;
    AddSnapshotRows(o.rounds, o.disk, &rows);
    PrintTable(rows);
    return 0;
  }
  if (o.filters_only) {
    auto emu = StartEmulator(o.server, true);
    g_server_pid = emu->pid;
    std::vector<Row> rows;
    AddFilterRows(emu->port, emu->thrift2_port, o.rounds, &rows);
    PrintTable(rows);
    return 0;
  }
  NullServer null_server;
  std::vector<Row> rows;
  Extras extras;
  RunSuite(o, true, null_server, &rows, &extras);
  if (o.disk) RunSuite(o, false, null_server, &rows, &extras);
  AddSnapshotRows(o.rounds, o.disk, &rows);
  PrintTable(rows);

  printf("\ngetRow latency, 1 connection, in memory: p50 %.1f us, p99 %.1f us"
         " (do-nothing server: p50 %.1f us, p99 %.1f us)\n",
         Percentile(extras.latencies, 0.5), Percentile(extras.latencies, 0.99),
         Percentile(extras.null_latencies, 0.5), Percentile(extras.null_latencies, 0.99));
  printf("exec to readiness line: %.1f ms in memory", extras.ready_ms_memory);
  if (o.disk) printf(", %.1f ms on disk (new data dir)", extras.ready_ms_disk);
  printf("\n");

  // RSS after 1M cells: the quick data set is smaller, so load the rest into a fresh server.
  double rss_1m = extras.rss_loaded;
  if (extras.rss_loaded_cells < 1000000) {
    Progress("[mem] RSS after loading 1M cells");
    auto emu = StartEmulator(o.server, true);
    Client c(emu->port);
    CreateTable(c, "bench");
    LoadRows(c, "bench", 0, 1000000, RowKey);
    rss_1m = RssMiB(emu->pid);
  }
  printf("RSS (in memory): %.1f MiB idle, %.1f MiB after loading 1M cells of 100 B\n",
         extras.rss_idle, rss_1m);
  fflush(stdout);

  if (o.growth) RunGrowth(o, {100000, 1000000, 10000000});
  printf("\ntotal %.0f s\n", Seconds(Clock::now() - start));
  return 0;
}
