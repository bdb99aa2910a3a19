#pragma once

#include <string>
#include <utility>

namespace hbemu::server::rest {

// The outcome of decoding a request body. Where HBase's gateway meets the fault decides the
// answer: its entity readers refuse malformed XML with 400 and what its JSON and protobuf readers
// throw (syntax, an unknown JSON property, a wrong type, bad base64) with 500, both without a
// body; its resources refuse what they check once the model is read (a filter they cannot
// build, a row without a key, a model that is not there) with 400 "Bad request\r\n" and the
// exception. `http_status` is the status HBase answers; `message` names what was wrong (for logs
// and, when the resource answers, the body's second line).
class BodyStatus {
 public:
  static BodyStatus Ok() { return BodyStatus(0, std::string(), false); }
  // The entity reader's refusal: 400, no body.
  static BodyStatus BadRequest(std::string message) {
    return BodyStatus(400, std::move(message), false);
  }
  // The resource's refusal: 400 "Bad request" with `message` (a Java exception's line).
  static BodyStatus ResourceBadRequest(std::string message) {
    return BodyStatus(400, std::move(message), true);
  }
  static BodyStatus ServerError(std::string message) {
    return BodyStatus(500, std::move(message), false);
  }
  // A Content-Type HBase does not read for that body (text/plain, octet-stream, ...).
  static BodyStatus UnsupportedMediaType(std::string message) {
    return BodyStatus(415, std::move(message), false);
  }

  bool ok() const { return http_status_ == 0; }
  int http_status() const { return http_status_; }
  const std::string& message() const { return message_; }
  // True when HBase's resource (not its entity reader) answers, with a "Bad request" body.
  bool answered_by_resource() const { return by_resource_; }

 private:
  BodyStatus(int http_status, std::string message, bool by_resource)
      : http_status_(http_status), message_(std::move(message)), by_resource_(by_resource) {}
  int http_status_;
  std::string message_;
  bool by_resource_;
};

}  // namespace hbemu::server::rest
