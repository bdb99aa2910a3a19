#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace hbemu::server {

// Thrift over HTTP as HBase serves it (hbase.regionserver.thrift.http): every request is a POST
// to any path whose body is one Thrift message, and the reply is the body of a 200 response
// (application/x-thrift). Requests a web page can send (with an Origin header, or a form's
// Content-Type) are refused before their body is read. This class reads one request at a time out of received bytes with
// Boost.Beast's HTTP/1 parser (chunked bodies, keep-alive and HTTP/1.0 included).
class HttpRequestReader {
 public:
  enum class Status {
    kNeedMore,  // all of `data` was consumed (or none of an incomplete header); feed more later
    kComplete,  // one whole request; body() holds it
    kError,     // not a request we can answer with a Thrift reply; see error_status()/error()
  };

  // Bodies over max_body_bytes are refused (413) without being buffered.
  explicit HttpRequestReader(size_t max_body_bytes);
  ~HttpRequestReader();
  HttpRequestReader(const HttpRequestReader&) = delete;
  HttpRequestReader& operator=(const HttpRequestReader&) = delete;

  // Parses a prefix of data[0, size), setting *consumed to its length.
  Status Feed(const uint8_t* data, size_t size, size_t* consumed);

  // The request's header is complete and asks for "Expect: 100-continue" that has not been
  // answered yet: the client waits for an interim response before it sends the body.
  bool WantsContinue() const;
  void ContinueSent();

  // Valid after kComplete.
  const std::string& body() const;
  bool keep_alive() const;

  // Valid after kError: the HTTP status to answer with (400, 405, 413, ...) and why.
  int error_status() const { return error_status_; }
  const std::string& error() const { return error_; }

  // Starts on the next request of the same connection.
  void Reset();

 private:
  struct Parser;
  Status Fail(int status, std::string error);
  Status NeedMore(size_t unparsed);
  Status CheckNotFromWebPage();

  const size_t max_body_bytes_;
  const uint32_t max_header_bytes_;  // Limits::http_header_bytes
  std::unique_ptr<Parser> parser_;
  bool continue_sent_ = false;
  bool header_checked_ = false;
  int error_status_ = 0;
  std::string error_;
};

// The status line and headers of a response with a body of `body_size` bytes.
std::string HttpResponseHeader(int status, const char* content_type, size_t body_size,
                               bool keep_alive);

// "HTTP/1.1 100 Continue" and an empty line.
const std::string& HttpContinueResponse();

// A whole plain-text response, for requests that carry no Thrift message.
std::string HttpTextResponse(int status, const std::string& text, bool keep_alive);

}  // namespace hbemu::server
