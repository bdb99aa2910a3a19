#pragma once

// What the ThriftServer tests share: a handler that answers from its arguments, servers in
// chosen modes, and real libthrift clients. Test-only.

#include "server/net/thrift_server.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <thrift/TApplicationException.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/THttpClient.h>
#include <thrift/transport/TSocket.h>

#include "Hbase.h"

namespace hbemu::server::thrift_server_testing {


using apache::thrift::TApplicationException;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::THttpClient;
using apache::thrift::transport::TMemoryBuffer;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;
using apache::thrift::transport::TTransportException;
using Clock = std::chrono::steady_clock;

// Answers from its arguments, so replies prove which call they belong to. The table name picks a
// behaviour: "large" returns a value of `row` bytes, "slow" sleeps `row` ms, "ioerror" and "boom"
// throw declared and undeclared exceptions.
class EchoHandler : public thrift::HbaseNull {
 public:
  void getRow(std::vector<thrift::TRowResult>& result, const thrift::Text& table,
              const thrift::Text& row, const std::map<thrift::Text, thrift::Text>& attributes)
      override {
    if (table == "ioerror") {
      thrift::IOError error;
      error.message = "no such row: " + row;
      throw error;
    }
    if (table == "boom") throw std::runtime_error("detail that stays on the server");
    if (table == "slow") {
      slow_started++;
      std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(row)));
      slow_finished++;
    }
    std::map<thrift::Text, thrift::TCell> columns;
    thrift::TCell cell;
    cell.value = table == "large" ? std::string(std::stoul(row), 'x') : table;
    cell.timestamp = 42;
    columns["cf:table"] = cell;
    for (const auto& [key, value] : attributes) {
      thrift::TCell attribute;
      attribute.value = value;
      columns["attr:" + key] = attribute;
    }
    thrift::TRowResult out;
    out.row = row;
    out.__set_columns(columns);  // optional in the IDL: unset fields are not sent
    result.push_back(out);
  }

  void mutateRows(const thrift::Text&, const std::vector<thrift::BatchMutation>& batches,
                  const std::map<thrift::Text, thrift::Text>&) override {
    for (const auto& batch : batches) {
      for (const auto& mutation : batch.mutations) mutated_bytes += mutation.value.size();
    }
  }

  std::atomic<uint64_t> mutated_bytes{0};
  std::atomic<int> slow_started{0};
  std::atomic<int> slow_finished{0};
};

// What a client speaks.
struct Wire {
  bool framed = false;
  bool compact = false;
  bool http = false;  // THttpClient: each call is one POST (framed is ignored)
};

// What a server insists on; by default nothing, so each connection's first bytes decide.
struct ServerMode {
  WireForcing forcing;
  size_t max_message_bytes = 100u * 1024 * 1024;
  int64_t idle_timeout_ms = 60000;
  int event_loops = 2;
  int call_threads = 64;
};

inline ServerMode Detecting() { return ServerMode{}; }

// A server that insists on exactly what `wire` speaks, like HBase started with -f and/or -c.
inline ServerMode Insisting(Wire wire) {
  ServerMode mode;
  mode.forcing.transport = wire.http     ? WireTransport::kHttp
                          : wire.framed ? WireTransport::kFramed
                                        : WireTransport::kBuffered;
  mode.forcing.protocol = wire.compact ? WireProtocol::kCompact : WireProtocol::kBinary;
  return mode;
}

inline std::unique_ptr<ThriftServer> StartServer(const std::shared_ptr<EchoHandler>& handler,
                                          const ServerMode& mode) {
  ThriftServerConfig config;
  config.port = 0;
  config.forcing = mode.forcing;
  config.event_loops = mode.event_loops;
  config.max_message_bytes = mode.max_message_bytes;
  config.idle_timeout_ms = mode.idle_timeout_ms;
  config.call_threads = mode.call_threads;
  auto server = std::make_unique<ThriftServer>(
      config, std::make_shared<thrift::HbaseProcessor>(handler));
  std::string error;
  EXPECT_TRUE(server->Start(&error)) << error;
  return server;
}

inline std::shared_ptr<TSocket> NewSocket(uint16_t port) {
  auto socket = std::make_shared<TSocket>("127.0.0.1", port);
  socket->setConnTimeout(5000);
  socket->setRecvTimeout(20000);
  socket->setSendTimeout(20000);
  return socket;
}

// A real libthrift client stack, as an application would build it.
class Client {
 public:
  Client(uint16_t port, Wire wire, bool strict_binary = true) : socket_(NewSocket(port)) {
    if (wire.http) {
      transport_ = std::make_shared<THttpClient>(socket_, "localhost", "/");
    } else if (wire.framed) {
      transport_ = std::make_shared<TFramedTransport>(socket_);
    } else {
      transport_ = std::make_shared<TBufferedTransport>(socket_);
    }
    if (wire.compact) {
      protocol_ = std::make_shared<TCompactProtocol>(transport_);
    } else {
      auto binary = std::make_shared<TBinaryProtocol>(transport_);
      if (!strict_binary) binary->setStrict(false, false);
      protocol_ = binary;
    }
    hbase_ = std::make_unique<thrift::HbaseClient>(protocol_);
    transport_->open();
  }

  thrift::HbaseClient* operator->() { return hbase_.get(); }
  TProtocol& protocol() { return *protocol_; }
  TTransport& transport() { return *transport_; }
  TSocket& socket() { return *socket_; }

  std::vector<thrift::TRowResult> GetRow(const std::string& table, const std::string& row,
                                         const std::map<std::string, std::string>& attrs = {}) {
    std::vector<thrift::TRowResult> result;
    hbase_->getRow(result, table, row, attrs);
    return result;
  }

 private:
  std::shared_ptr<TSocket> socket_;
  std::shared_ptr<TTransport> transport_;
  std::shared_ptr<TProtocol> protocol_;
  std::unique_ptr<thrift::HbaseClient> hbase_;
};

inline void ExpectEcho(const std::vector<thrift::TRowResult>& result, const std::string& table,
                const std::string& row) {
  ASSERT_EQ(result.size(), 1u);
  EXPECT_EQ(result[0].row, row);
  ASSERT_EQ(result[0].columns.count("cf:table"), 1u);
  EXPECT_EQ(result[0].columns.at("cf:table").value, table);
}

// Serializes calls the way the generated client would, without sending them.
inline std::string SerializedGetRow(const std::string& table, const std::string& row) {
  auto buffer = std::make_shared<TMemoryBuffer>();
  thrift::HbaseClient writer(std::make_shared<TBinaryProtocol>(buffer));
  writer.send_getRow(table, row, {});
  return buffer->getBufferAsString();
}

inline void WriteRaw(TSocket& socket, const std::string& bytes) {
  socket.write(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<uint32_t>(bytes.size()));
}

// True when the server closed the connection; false if it still had it open after the socket's
// receive timeout.
inline bool ClosedByServer(TSocket& socket) {
  uint8_t byte;
  try {
    return socket.read(&byte, 1) == 0;
  } catch (const TTransportException& e) {
    return e.getType() != TTransportException::TIMED_OUT;
  }
}

inline std::vector<thrift::BatchMutation> Batches(size_t rows, size_t value_bytes) {
  std::vector<thrift::BatchMutation> batches(rows);
  for (size_t i = 0; i < rows; ++i) {
    batches[i].row = "row-" + std::to_string(i);
    thrift::Mutation mutation;
    mutation.column = "cf:q";
    mutation.value = std::string(value_bytes, static_cast<char>('a' + i % 26));
    batches[i].mutations.push_back(mutation);
  }
  return batches;
}

// --- every transport x protocol -----------------------------------------------------------------

// A client configuration, against a server that detects it or one that insists on it.
}  // namespace hbemu::server::thrift_server_testing
