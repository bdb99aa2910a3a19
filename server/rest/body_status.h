#pragma once

#include <string>
#include <utility>

namespace hbemu::server::rest {

// The outcome of decoding a request body. HBase's gateway answers a body it cannot read with
// one of two statuses, depending on where the fault is met: 400 for what its resources check
// (malformed XML, a protobuf message missing a required field, a filter it cannot build) and
// 500 for what its JSON and protobuf readers throw (syntax, an unknown JSON property, a wrong
// type, bad base64). `http_status` is the status HBase answers; `message` names what was wrong
// (for logs and our error bodies; HBase's own bodies are empty or "Bad request\r\n").
class BodyStatus {
 public:
  static BodyStatus Ok() { return BodyStatus(0, std::string()); }
  static BodyStatus BadRequest(std::string message) { return BodyStatus(400, std::move(message)); }
  static BodyStatus ServerError(std::string message) { return BodyStatus(500, std::move(message)); }
  // A Content-Type HBase does not read for that body (text/plain, octet-stream, ...).
  static BodyStatus UnsupportedMediaType(std::string message) {
    return BodyStatus(415, std::move(message));
  }

  bool ok() const { return http_status_ == 0; }
  int http_status() const { return http_status_; }
  const std::string& message() const { return message_; }

 private:
  BodyStatus(int http_status, std::string message)
      : http_status_(http_status), message_(std::move(message)) {}
  int http_status_;
  std::string message_;
};

}  // namespace hbemu::server::rest
