#include "tests/bench/transport_rows.h"

#include <cstdio>
#include <memory>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include "Hbase.h"

namespace hbemu::bench {
namespace {

namespace th = hbemu::thrift;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;

// 95,000 rows of one 1,000-byte cell: about 100 MB on the wire, under the server's default
// 100 MiB message limit.
constexpr int kRows = 95000;
constexpr size_t kValueBytes = 1000;

std::vector<th::BatchMutation> Batches() {
  std::vector<th::BatchMutation> batches(kRows);
  for (int i = 0; i < kRows; ++i) {
    char row[32];
    snprintf(row, sizeof(row), "bulk%08d", i);
    batches[i].row = row;
    th::Mutation m;
    m.column = "f:q";
    m.value = std::string(kValueBytes, static_cast<char>('a' + i % 26));
    m.isDelete = false;
    batches[i].mutations.push_back(std::move(m));
  }
  return batches;
}

// MB/s of one mutateRows call over a new connection, timed from the first byte sent to the
// reply.
double SendOnce(int port, bool framed, const std::vector<th::BatchMutation>& batches,
                double message_mb) {
  auto socket = std::make_shared<TSocket>("127.0.0.1", port);
  socket->setRecvTimeout(120000);
  std::shared_ptr<TTransport> transport;
  if (framed) {
    transport = std::make_shared<TFramedTransport>(socket);
  } else {
    // 64 KiB writes, as the other rows' clients use.
    transport = std::make_shared<TBufferedTransport>(socket, 64 * 1024, 64 * 1024);
  }
  th::HbaseClient client(std::make_shared<TBinaryProtocol>(transport));
  transport->open();
  const Clock::time_point start = Clock::now();
  client.mutateRows("bulk", batches, {});
  const double seconds = Seconds(Clock::now() - start);
  transport->close();
  return message_mb / seconds;
}

}  // namespace

void AddLargeMessageRows(int port, const std::string& mode, int rounds, std::vector<Row>* rows) {
  Progress("[%s] one ~100 MB mutateRows, buffered vs framed", mode.c_str());
  const std::vector<th::BatchMutation> batches = Batches();
  auto sizer = std::make_shared<apache::thrift::transport::TMemoryBuffer>();
  th::HbaseClient(std::make_shared<TBinaryProtocol>(sizer)).send_mutateRows("bulk", batches, {});
  const double message_mb = sizer->available_read() / 1e6;
  {
    auto socket = std::make_shared<TSocket>("127.0.0.1", port);
    auto transport = std::make_shared<TBufferedTransport>(socket);
    th::HbaseClient admin(std::make_shared<TBinaryProtocol>(transport));
    transport->open();
    th::ColumnDescriptor family;
    family.name = "f:";
    family.maxVersions = 1;
    admin.createTable("bulk", {family});
  }
  const Best best = BestOf(
      rounds, [&] { return SendOnce(port, false, batches, message_mb); },
      [&] { return SendOnce(port, true, batches, message_mb); });
  char name[96];
  snprintf(name, sizeof(name), "mutateRows of %.0f MB, buffered [%s] (MB)", message_mb,
           mode.c_str());
  rows->push_back({name, best.server, best.reference, "same call, framed", 0.8});
}

}  // namespace hbemu::bench
