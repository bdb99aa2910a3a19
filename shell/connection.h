#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "Hbase.h"
#include "THBaseService.h"

namespace hbemu::shell {

// A gateway that does not accept the connection (down, or the wrong port); any other
// transport error is a connection lost while in use.
class ServerUnreachable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

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

  // Throw ServerUnreachable when the gateway is down; calls on them throw
  // apache::thrift::TException (a TTransportException when the connection is lost).
  hbemu::thrift::HbaseClient& Thrift1();
  hbemu::thrift2::THBaseServiceClient& Thrift2();

  const ConnectionOptions& options() const { return options_; }

  // Before a command: a gateway connection the server has closed since the last call (its
  // idle timeout, or a restart) shows as readable with nothing asked; it is dropped so the next
  // call opens a new one. Cheap (a poll with no wait) and never blocks.
  void DropClosedSides();
  // After a transport error: both connections are dropped; the next call reconnects.
  void Reset();

  // Whether the Thrift2 gateway is hbase-emulator rather than a real HBase: HBase serves reads
  // of its catalog table hbase:meta (a get of a row that is not there is an empty result); the
  // emulator keeps its catalog outside tables and answers TableNotFound. Throws when the
  // gateway cannot be reached.
  bool IsEmulator();

 private:
  struct Side;
  std::unique_ptr<Side> Open(int port);
  static bool ClosedByPeer(const Side& side);

  ConnectionOptions options_;
  std::unique_ptr<Side> thrift1_;
  std::unique_ptr<Side> thrift2_;
  std::unique_ptr<hbemu::thrift::HbaseClient> client1_;
  std::unique_ptr<hbemu::thrift2::THBaseServiceClient> client2_;
};

}  // namespace hbemu::shell
