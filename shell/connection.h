#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "Hbase.h"
#include "THBaseService.h"

namespace hbemu::shell {

// Where the shell connects and how it speaks: HBase's defaults are buffered transport and the
// binary protocol on both gateways.
struct ConnectionOptions {
  std::string host = "127.0.0.1";
  int port = 9090;          // Thrift1 (service Hbase)
  int thrift2_port = 9091;  // Thrift2 (THBaseService)
  bool framed = false;
  bool compact = false;
  int timeout_ms = 60000;
  // hbase-emulator's admin port, where its test controls answer (control_client.h).
  int admin_port = 9095;
};

// The two Thrift clients of one shell session, each opened on first use, so a command that
// needs only one gateway works when the other is not running.
class Connection {
 public:
  explicit Connection(ConnectionOptions options);
  ~Connection();

  // Throw apache::thrift::TException (transport errors included) when the gateway is down.
  hbemu::thrift::HbaseClient& Thrift1();
  hbemu::thrift2::THBaseServiceClient& Thrift2();

  const ConnectionOptions& options() const { return options_; }

  // Whether the Thrift2 gateway is hbase-emulator rather than a real HBase: HBase serves reads
  // of its catalog table hbase:meta (a get of a row that is not there is an empty result); the
  // emulator keeps its catalog outside tables and answers TableNotFound. Throws when the
  // gateway cannot be reached.
  bool IsEmulator();

 private:
  struct Side;
  std::unique_ptr<Side> Open(int port);

  ConnectionOptions options_;
  std::unique_ptr<Side> thrift1_;
  std::unique_ptr<Side> thrift2_;
  std::unique_ptr<hbemu::thrift::HbaseClient> client1_;
  std::unique_ptr<hbemu::thrift2::THBaseServiceClient> client2_;
};

}  // namespace hbemu::shell
