#include "shell/connection.h"

#include <poll.h>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

namespace hbemu::shell {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TBufferedTransport;
using apache::thrift::transport::TFramedTransport;
using apache::thrift::transport::TSocket;
using apache::thrift::transport::TTransport;

struct Connection::Side {
  std::shared_ptr<TSocket> socket;
  std::shared_ptr<TTransport> transport;
  std::shared_ptr<TProtocol> protocol;
};

Connection::Connection(ConnectionOptions options) : options_(std::move(options)) {}

Connection::~Connection() {
  for (auto* side : {thrift1_.get(), thrift2_.get()}) {
    if (side && side->transport->isOpen()) side->transport->close();
  }
}

std::unique_ptr<Connection::Side> Connection::Open(int port) {
  auto socket = std::make_shared<TSocket>(options_.host, port);
  socket->setConnTimeout(options_.timeout_ms);
  socket->setRecvTimeout(options_.timeout_ms);
  socket->setSendTimeout(options_.timeout_ms);
  auto side = std::make_unique<Side>();
  side->socket = socket;
  if (options_.framed) {
    side->transport = std::make_shared<TFramedTransport>(socket);
  } else {
    side->transport = std::make_shared<TBufferedTransport>(socket);
  }
  if (options_.compact) {
    side->protocol = std::make_shared<TCompactProtocol>(side->transport);
  } else {
    side->protocol = std::make_shared<TBinaryProtocol>(side->transport);
  }
  try {
    side->transport->open();
  } catch (const apache::thrift::transport::TTransportException& e) {
    throw ServerUnreachable(options_.host + ":" + std::to_string(port) + ": " + e.what());
  }
  return side;
}

hbemu::thrift::HbaseClient& Connection::Thrift1() {
  if (!client1_) {
    thrift1_ = Open(options_.port);
    client1_ = std::make_unique<hbemu::thrift::HbaseClient>(thrift1_->protocol);
  }
  return *client1_;
}

hbemu::thrift2::THBaseServiceClient& Connection::Thrift2() {
  if (!client2_) {
    thrift2_ = Open(options_.thrift2_port);
    client2_ =
        std::make_unique<hbemu::thrift2::THBaseServiceClient>(thrift2_->protocol);
  }
  return *client2_;
}

bool Connection::ClosedByPeer(const Side& side) {
  if (!side.socket->isOpen()) return true;
  // Between calls the server has nothing to say: anything readable (the end of the stream, a
  // reset) means it let the connection go.
  pollfd fd{side.socket->getSocketFD(), POLLIN | POLLRDHUP, 0};
  return poll(&fd, 1, 0) > 0 && (fd.revents & (POLLIN | POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

void Connection::DropClosedSides() {
  if (thrift1_ && ClosedByPeer(*thrift1_)) {
    client1_.reset();
    thrift1_.reset();
  }
  if (thrift2_ && ClosedByPeer(*thrift2_)) {
    client2_.reset();
    thrift2_.reset();
  }
}

void Connection::Reset() {
  for (auto* side : {thrift1_.get(), thrift2_.get()}) {
    try {
      if (side && side->transport->isOpen()) side->transport->close();
    } catch (const std::exception&) {
      // closing a broken socket may fail too; it is dropped either way
    }
  }
  client1_.reset();
  client2_.reset();
  thrift1_.reset();
  thrift2_.reset();
}

bool Connection::IsEmulator() {
  hbemu::thrift2::TGet get;
  get.row = "hbase-shell-probe";
  try {
    Thrift2().exists("hbase:meta", get);
    return false;
  } catch (const hbemu::thrift2::TIOError&) {
    return true;
  }
}

}  // namespace hbemu::shell
