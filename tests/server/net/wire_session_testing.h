#pragma once

// What the WireSession tests share: a handler that answers from its arguments, serialized calls,
// and a driver that feeds a session bytes as the network layer does. Test-only.

#include "server/net/wire_session.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <thrift/TApplicationException.h>
#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "Hbase.h"

namespace hbemu::server::wire_session_testing {

using apache::thrift::TApplicationException;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::transport::TMemoryBuffer;

// getRow answers with the table name as the value of cf:table; table "boom" throws.
class EchoHandler : public thrift::HbaseNull {
 public:
  void getRow(std::vector<thrift::TRowResult>& result, const thrift::Text& table,
              const thrift::Text& row, const std::map<thrift::Text, thrift::Text>&) override {
    if (table == "boom") throw std::runtime_error("undeclared");
    thrift::TRowResult out;
    out.row = row;
    thrift::TCell cell;
    cell.value = table;
    out.__set_columns({{"cf:table", cell}});
    result.push_back(out);
  }
};

inline std::string GetRowCall(const std::string& table, const std::string& row,
                              bool compact = false) {
  auto buffer = std::make_shared<TMemoryBuffer>();
  std::shared_ptr<apache::thrift::protocol::TProtocol> protocol;
  if (compact) {
    protocol = std::make_shared<TCompactProtocol>(buffer);
  } else {
    protocol = std::make_shared<TBinaryProtocol>(buffer);
  }
  thrift::HbaseClient(protocol).send_getRow(table, row, {});
  return buffer->getBufferAsString();
}

inline std::string Framed(const std::string& message) {
  const uint32_t n = static_cast<uint32_t>(message.size());
  return std::string{static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                     static_cast<char>(n >> 8), static_cast<char>(n)} +
         message;
}

inline std::string Post(const std::string& body, const std::string& extra_headers = "") {
  return "POST /hbase HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-thrift\r\n" +
         extra_headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// The table echoed by a getRow reply, or the exception's text.
inline std::string ReadGetRowReply(const std::string& reply, bool compact = false) {
  auto buffer = std::make_shared<TMemoryBuffer>(
      reinterpret_cast<uint8_t*>(const_cast<char*>(reply.data())),
      static_cast<uint32_t>(reply.size()));
  std::shared_ptr<apache::thrift::protocol::TProtocol> protocol;
  if (compact) {
    protocol = std::make_shared<TCompactProtocol>(buffer);
  } else {
    protocol = std::make_shared<TBinaryProtocol>(buffer);
  }
  thrift::HbaseClient client(protocol);
  std::vector<thrift::TRowResult> result;
  try {
    client.recv_getRow(result);
  } catch (const TApplicationException& e) {
    return std::string("exception: ") + e.what();
  }
  if (result.size() != 1) return "rows: " + std::to_string(result.size());
  return result[0].columns["cf:table"].value;
}

// Drives a session the way the network layer does, with the bytes a test hands it.
class SessionDriver {
 public:
  explicit SessionDriver(WireForcing forcing = {}, size_t max_message_bytes = 1 << 20)
      : SessionDriver(Config(forcing, max_message_bytes)) {}

  explicit SessionDriver(const WireSessionConfig& config)
      : processor_(std::make_shared<thrift::HbaseProcessor>(std::make_shared<EchoHandler>())),
        session_(std::make_unique<WireSession>(
            config, processor_.get(), std::make_shared<apache::thrift::TConfiguration>(),
            "test")) {}

  static WireSessionConfig Config(WireForcing forcing, size_t max_message_bytes) {
    WireSessionConfig config;
    config.forcing = forcing;
    config.max_message_bytes = max_message_bytes;
    return config;
  }

  // Delivers `bytes` (in one read), then runs the session until it wants more or closes.
  // Returns everything it sent.
  std::string Send(const std::string& bytes) {
    size_t at = 0;
    std::string sent;
    for (;;) {
      WireSession::Step step = session_->Next();
      if (step.action == WireSession::Step::Action::kClose) {
        closed_ = true;
        reason_ = step.reason;
        return sent;
      }
      if (step.action == WireSession::Step::Action::kWrite) {
        for (const auto& span : step.write) {
          sent.append(reinterpret_cast<const char*>(span.data), span.size);
        }
        session_->Written();
        continue;
      }
      if (at == bytes.size()) return sent;
      size_t room = 0;
      uint8_t* into = session_->ReadSpace(&room);
      const size_t n = std::min(room, bytes.size() - at);
      std::memcpy(into, bytes.data() + at, n);
      session_->Received(n);
      at += n;
    }
  }

  bool closed() const { return closed_; }
  const std::string& reason() const { return reason_; }
  const WireSession& session() const { return *session_; }
  WireSession& session() { return *session_; }

 private:
  std::shared_ptr<thrift::HbaseProcessor> processor_;
  std::unique_ptr<WireSession> session_;
  bool closed_ = false;
  std::string reason_;
};

// Splits one HTTP response off the front of `*stream`: returns its status, sets *body.
inline int TakeHttpResponse(std::string* stream, std::string* body,
                            std::string* headers = nullptr) {
  const size_t end = stream->find("\r\n\r\n");
  if (end == std::string::npos) return -1;
  std::string head = stream->substr(0, end + 4);
  const int status = std::stoi(head.substr(9, 3));
  size_t length = 0;
  const size_t cl = head.find("Content-Length: ");
  if (cl != std::string::npos) length = std::stoul(head.substr(cl + 16));
  *body = stream->substr(end + 4, length);
  stream->erase(0, end + 4 + length);
  if (headers) *headers = head;
  return status;
}

}  // namespace hbemu::server::wire_session_testing
