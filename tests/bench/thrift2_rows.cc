#include "tests/bench/thrift2_rows.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include "THBaseService.h"

namespace hbemu::bench {
namespace {

namespace t2 = hbemu::thrift2;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TSocket;

// A Thrift2 client over buffered binary with the same 64 KiB buffers as the Thrift1 client.
struct Thrift2Client {
  explicit Thrift2Client(int port) {
    auto socket = std::make_shared<TSocket>("127.0.0.1", port);
    transport = std::make_shared<TBufferedTransport>(socket, 64 * 1024, 64 * 1024);
    client = std::make_unique<t2::THBaseServiceClient>(std::make_shared<TBinaryProtocol>(transport));
    transport->open();
  }
  ~Thrift2Client() {
    try {
      transport->close();
    } catch (...) {
    }
  }
  std::shared_ptr<TBufferedTransport> transport;
  std::unique_ptr<t2::THBaseServiceClient> client;
};

double ScanAllThrift2(int port, uint64_t expected) {
  Thrift2Client c(port);
  t2::TScan scan;
  const Clock::time_point start = Clock::now();
  const int32_t id = c.client->openScanner("bench", scan);
  uint64_t cells = 0;
  std::vector<t2::TResult> rows;
  for (;;) {
    rows.clear();
    c.client->getScannerRows(rows, id, 1000);
    if (rows.empty()) break;
    for (const auto& r : rows) cells += r.columnValues.size();
  }
  c.client->closeScanner(id);
  const double rate = cells / Seconds(Clock::now() - start);
  if (cells != expected) {
    fprintf(stderr, "hbase_bench: Thrift2 scan returned %llu cells, expected %llu\n",
            static_cast<unsigned long long>(cells), static_cast<unsigned long long>(expected));
    exit(1);
  }
  return rate;
}

}  // namespace

void AddThrift2Rows(const Thrift2Workload& w, std::vector<Row>* rows) {
  const std::string tag = " [" + w.mode + "]";
  const uint64_t n = w.cells;

  Progress("[%s] Thrift2 get vs Thrift1 getRow, 1 connection", w.mode.c_str());
  std::function<void(Thrift2Client&, int, uint64_t)> get_op = [&](Thrift2Client& c, int,
                                                                    uint64_t i) {
    t2::TGet get;
    get.row = w.row_key((i * 2654435761u) % n);
    t2::TResult result;
    c.client->get(result, "bench", get);
    if (result.columnValues.size() != 1) {
      fprintf(stderr, "hbase_bench: Thrift2 get found nothing\n");
      exit(1);
    }
  };
  Best get = BestOf(
      w.rounds, [&] { return RunTimedWith<Thrift2Client>(w.thrift2_port, 1, w.seconds, get_op); },
      w.thrift1_get);
  rows->push_back({"Thrift2 get 1 cell, 1 conn" + tag + " (calls)", get.server, get.reference,
                   "Thrift1 getRow, same run", 0.8, get.server_cpu_us});

  Progress("[%s] Thrift2 put vs Thrift1 mutateRow, 1 connection", w.mode.c_str());
  std::function<void(Thrift2Client&, int, uint64_t)> put_op = [&](Thrift2Client& c, int t,
                                                                    uint64_t i) {
    t2::TPut put;
    put.row = w.row_key(i * 8 + t);
    t2::TColumnValue cv;
    cv.family = "f";
    cv.qualifier = "q";
    cv.value = w.value(i);
    put.columnValues.push_back(std::move(cv));
    c.client->put("writes", put);
  };
  Best put = BestOf(
      w.rounds, [&] { return RunTimedWith<Thrift2Client>(w.thrift2_port, 1, w.seconds, put_op); },
      w.thrift1_put);
  rows->push_back({"Thrift2 put 1 cell, 1 conn" + tag + " (calls)", put.server, put.reference,
                   "Thrift1 mutateRow, same run", 0.8, put.server_cpu_us});

  Progress("[%s] Thrift2 full scan vs Thrift1 full scan", w.mode.c_str());
  Best scan = BestOf(std::max(1, w.rounds - 1), [&] { return ScanAllThrift2(w.thrift2_port, n); },
                     w.thrift1_scan);
  rows->push_back({"Thrift2 full scan, getScannerRows(1000)" + tag + " (cells)", scan.server,
                   scan.reference, "Thrift1 scannerGetList, same run", 0.8,
                   scan.server_cpu_us});
}

}  // namespace hbemu::bench
