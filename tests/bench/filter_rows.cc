#include "tests/bench/filter_rows.h"

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include <thrift/Thrift.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include "Hbase.h"
#include "THBaseService.h"

namespace hbemu::bench {
namespace {

namespace th = hbemu::thrift;
namespace t2 = hbemu::thrift2;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TSocket;

constexpr int kRows = 1000;
const char* kLeaf = "PrefixFilter('r')";  // every row key starts with r

std::string RowKey(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "r%05d", i);
  return buf;
}

std::string Nested(int levels) {
  std::string s;
  for (int i = 0; i < levels; ++i) s += std::string(kLeaf) + " AND (";
  return s + kLeaf + std::string(levels, ')');
}

std::string Flat(int n, const char* op) {
  std::string s = kLeaf;
  for (int i = 1; i < n; ++i) s += std::string(" ") + op + " " + kLeaf;
  return s;
}

std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

struct Thrift1 {
  explicit Thrift1(int port) {
    auto socket = std::make_shared<TSocket>("127.0.0.1", port);
    socket->setRecvTimeout(600000);
    transport = std::make_shared<TBufferedTransport>(socket, 64 * 1024, 64 * 1024);
    client = std::make_unique<th::HbaseClient>(std::make_shared<TBinaryProtocol>(transport));
    transport->open();
  }
  ~Thrift1() {
    try {
      transport->close();
    } catch (...) {
    }
  }
  std::shared_ptr<TBufferedTransport> transport;
  std::unique_ptr<th::HbaseClient> client;
};

void Load(th::HbaseClient* client, const std::string& table) {
  std::vector<th::BatchMutation> batches(kRows);
  for (int i = 0; i < kRows; ++i) {
    batches[i].row = RowKey(i);
    th::Mutation m;
    m.column = "f:q";
    m.value = RowKey(i);
    m.isDelete = false;
    batches[i].mutations.push_back(m);
  }
  client->mutateRows(table, batches, {});
}

// Opens a scanner with the filter and reads it to the end (scan = false: closes it at once).
// Returns the rows read, or -1 when the server refused the filter.
int ScanOnce(th::HbaseClient* client, const std::string& table, const std::string& filter,
             bool scan) {
  th::TScan spec;
  spec.__set_filterString(filter);
  int32_t id = 0;
  try {
    id = client->scannerOpenWithScan(table, spec, {});
  } catch (const apache::thrift::TApplicationException&) {
    return -1;
  }
  int rows = 0;
  std::vector<th::TRowResult> batch;
  while (scan) {
    batch.clear();
    client->scannerGetList(batch, id, 5000);
    if (batch.empty()) break;
    rows += static_cast<int>(batch.size());
  }
  client->scannerClose(id);
  return rows;
}

// Calls per second of `op`, repeated for at least half a second (at least once).
double Rate(const std::function<void()>& op) {
  const Clock::time_point start = Clock::now();
  int n = 0;
  do {
    op();
    ++n;
  } while (Seconds(Clock::now() - start) < 0.5);
  return n / Seconds(Clock::now() - start);
}

// One op: scan `table` with `filter`; exits when the outcome is not `expect_rows` (-1: refused,
// or read whole by a server without the depth limit, for the before/after comparison).
std::function<double()> Op(Thrift1* c, const std::string& table, const std::string& filter,
                           bool scan, int expect_rows) {
  return [=] {
    return Rate([&] {
      const int rows = ScanOnce(c->client.get(), table, filter, scan);
      if (rows != expect_rows && !(expect_rows == -1 && rows == kRows)) {
        fprintf(stderr, "hbase_bench: filter %.40s... on %s gave %d rows, expected %d\n",
                filter.c_str(), table.c_str(), rows, expect_rows);
        exit(1);
      }
    });
  };
}

}  // namespace

void AddFilterRows(int port, int thrift2_port, int rounds, std::vector<Row>* rows) {
  Thrift1 c(port);
  th::ColumnDescriptor family;
  family.name = "f:";
  c.client->createTable("filters", {family});
  Load(c.client.get(), "filters");
  {
    auto socket = std::make_shared<TSocket>("127.0.0.1", thrift2_port);
    auto transport = std::make_shared<TBufferedTransport>(socket);
    t2::THBaseServiceClient admin(std::make_shared<TBinaryProtocol>(transport));
    transport->open();
    t2::TTableDescriptor table;
    table.tableName.__set_qualifier("filters20");
    t2::TColumnFamilyDescriptor f;
    f.name = "f";
    table.__set_columns({f});
    std::vector<std::string> splits;
    for (int i = 50; i < kRows; i += 50) splits.push_back(RowKey(i));
    admin.createTable(table, splits);
  }
  Load(c.client.get(), "filters20");

  const auto reference = Op(&c, "filters", kLeaf, true, kRows);
  const std::string one_filter = "same scan, one PrefixFilter";
  struct Case {
    const char* name;
    std::string table, filter;
    bool scan;
    int expect;  // rows, or -1: refused
  };
  const Case cases[] = {
      {"filter 1,000 deep, refused [mem] (calls)", "filters", Nested(1000), true, -1},
      {"filter 500 deep, scan 1k rows [mem] (scans)", "filters", Nested(500), true, kRows},
      {"AND of 100k, parse only [mem] (calls)", "filters", Flat(100000, "AND"), false, 0},
      {"AND of 100k, scan 1k rows [mem] (scans)", "filters", Flat(100000, "AND"), true,
       kRows},
      {"OR of 100k, parse only [mem] (calls)", "filters", Flat(100000, "OR"), false, 0},
      {"OR of 100k, scan 1k rows [mem] (scans)", "filters", Flat(100000, "OR"), true,
       kRows},
  };
  for (const Case& k : cases) {
    Progress("[mem] %s", k.name);
    const Best best = BestOf(rounds, Op(&c, k.table, k.filter, k.scan, k.expect), reference);
    Progress("     %.1f ms per call (one PrefixFilter: %.2f ms)", 1e3 / best.server,
             1e3 / best.reference);
    rows->push_back({k.name, best.server, best.reference, one_filter, 0, best.server_cpu_us});
  }
  // A scanner enters a new region 19 times here; the filter must not be rebuilt each time.
  const std::string skips = Repeat("SKIP ", 500) + "KeyOnlyFilter()";
  Progress("[mem] SKIP x500 over 20 regions");
  const Best best = BestOf(rounds, Op(&c, "filters20", skips, true, kRows),
                           Op(&c, "filters", skips, true, kRows));
  Progress("     %.1f ms per scan (one region: %.1f ms)", 1e3 / best.server, 1e3 / best.reference);
  rows->push_back({"SKIP x500, 20 regions, scan [mem] (scans)", best.server, best.reference,
                   "same, one region", 0, best.server_cpu_us});
}

}  // namespace hbemu::bench
