#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/limits.h"
#include "server/net/call_hook.h"
#include "server/net/message_skimmer.h"
#include "server/net/paged_buffer.h"
#include "server/net/wire_format.h"
#include "server/net/wire_stats.h"

namespace apache::thrift {
class TConfiguration;
class TProcessor;
}  // namespace apache::thrift

namespace hbemu::server {

class HttpRequestReader;

// What one connection's session needs from the server.
struct WireSessionConfig {
  WireForcing forcing;
  // Largest message (or frame, or HTTP body) accepted.
  size_t max_message_bytes = 100u * 1024 * 1024;
  // Buffers one idle connection keeps, and all idle connections of the process together
  // (Limits::idle_buffer_bytes, Limits::retained_buffer_bytes); past either, Idle() frees them.
  size_t idle_buffer_bytes = static_cast<size_t>(Limits{}.idle_buffer_bytes);
  size_t retained_buffer_bytes = static_cast<size_t>(Limits{}.retained_buffer_bytes);
  // Where this port's traffic is counted; null counts nothing. Outlives the session.
  WireStats* stats = nullptr;
  // Sees every call before and after it runs (the test controls); null for none. Outlives the
  // session.
  CallHook* hook = nullptr;
};

// The protocol side of one client connection, without a socket: it takes received bytes, tells
// the connection's format from the first of them, finds each complete message (frame, skimmed
// unframed message, or HTTP request), runs it through the Thrift processor and hands back the
// bytes to send. The network layer moves bytes; everything a client can get wrong is decided
// here, which is also what the wire fuzzer drives.
//
// Calls run strictly one at a time: after a kWrite step, Next() must not be called again until
// Written(). Each message is parsed from its own view of the buffer and the input budget is reset
// per message, so libthrift 0.17's per-connection byte budget (THRIFT-5492) never applies.
//
// Memory follows the bytes that arrived, never what a client claims: a frame, string or
// container length only says how far to read, and the read buffer at most doubles per read
// (up to the message limit). While decoding, a string or container that claims more than the
// bytes left in its message is refused before anything is allocated for it. Reply buffers and
// protocol objects are kept between calls; when the connection goes idle (Idle()), what it
// keeps above its small baseline is bounded per connection and for the whole process.
//
// The generated C++ processor turns any undeclared handler exception into
// TApplicationException(UNKNOWN, what()); replies of that kind are rewritten to what HBase's Java
// server sends, TApplicationException(INTERNAL_ERROR, "Internal error processing <method>").
//
// Not thread-safe: one connection's strand, the call thread it is handed to, or one fuzzer
// thread drives it at a time.
class WireSession {
 public:
  WireSession(const WireSessionConfig& config, apache::thrift::TProcessor* processor,
              std::shared_ptr<apache::thrift::TConfiguration> thrift_config, std::string peer);
  ~WireSession();
  WireSession(const WireSession&) = delete;
  WireSession& operator=(const WireSession&) = delete;

  struct Span {
    const uint8_t* data;
    size_t size;
  };

  struct Step {
    enum class Action {
      kRead,   // receive more bytes (ReadSpace/Received), then call Next() again
      kWrite,  // send `write` in order, then call Written() and Next()
      kClose,  // close the connection; `reason` says why (empty for a normal end)
    };
    Action action = Action::kRead;
    std::vector<Span> write;  // valid until Written()
    std::string reason;
  };

  // Runs at most one call; parsing and detection happen as needed.
  Step Next();

  // Room for more received bytes (at least 8 KiB, at most as much as is buffered unless the
  // message's known rest is smaller); returns the start, with the room's size in *size.
  uint8_t* ReadSpace(size_t* size);
  void Received(size_t n);

  // The connection is about to wait for its client. With no message in progress, buffers
  // above the baseline are kept only within idle_buffer_bytes and while all idle connections
  // together stay within retained_buffer_bytes; otherwise they are freed now. Bytes arriving
  // end the idle spell.
  void Idle();

  // The last kWrite step's bytes are out.
  void Written();

  // Set once the first bytes have told it.
  const std::optional<WireFormat>& format() const { return format_; }
  // Bytes received but not yet part of a finished call.
  size_t buffered() const { return end_ - begin_; }
  const std::string& peer() const { return peer_; }
  // Bytes of read and reply buffer this session holds now.
  size_t held_bytes() const;
  // What every session holds at least (a fresh session's buffers).
  static size_t BaselineBytes();
  // Buffer bytes kept by idle sessions of this process now.
  static int64_t IdleRetainedBytes();

 private:
  class Call;

  Step NextBuffered();
  Step NextFramed();
  Step NextHttp();
  Step Run(const uint8_t* message, size_t length, WireProtocol protocol, size_t consume);
  Step Read(size_t want);
  Step Close(std::string reason);
  // Reallocates the read buffer, keeping its bytes up to the new capacity.
  void Resize(size_t capacity);
  // Bytes arrived (or the session ends): what Idle() kept no longer counts as idle.
  void EndIdle();
  // A kWrite step of the non-empty spans, in order.
  Step Write(std::initializer_list<Span> spans);
  // Answers a malformed unframed message as HBase's Java processor does (SkimResult::
  // answer_after) and reads on after the bytes it would have read.
  Step AnswerMalformed(const SkimResult& skim);
  // An HTTP text response (an error) in http_header_; closes after it unless kept alive.
  Step RespondText(int status, const std::string& text);
  Span HeaderSpan() const;
  std::string Hint(const uint8_t* data, size_t size) const;

  const WireSessionConfig config_;
  apache::thrift::TProcessor* const processor_;
  const std::string peer_;
  std::optional<WireFormat> format_;

  // Received bytes not yet consumed are buffer_[begin_, end_).
  PagedBuffer buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  // Fewest buffered bytes worth looking at again.
  size_t want_ = 1;
  // Where the unframed message being received has been skimmed to; set once the format is known.
  std::optional<MessageSkimmer> skimmer_;
  // Bytes the call whose reply is being written consumes once Written().
  size_t consumed_ = 0;
  bool writing_ = false;
  size_t writing_bytes_ = 0;  // size of the kWrite step being sent, for the stats
  bool close_after_write_ = false;
  // What this idle session holds against the process-wide account (0: not idle, or only its
  // baseline).
  size_t charged_ = 0;

  std::unique_ptr<Call> call_;
  std::unique_ptr<HttpRequestReader> http_;
  std::string http_header_;
  // A TApplicationException reply written by the session itself (AnswerMalformed).
  std::string error_reply_;
  bool http_keep_alive_ = true;
};

}  // namespace hbemu::server
