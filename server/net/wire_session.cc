#include "server/net/wire_session.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include <glog/logging.h>
#include <thrift/TApplicationException.h>
#include <thrift/TConfiguration.h>
#include <thrift/TProcessor.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "server/gateway/free_memory.h"
#include "server/limits.h"
#include "server/net/bounded_reader.h"
#include "server/net/http_exchange.h"

namespace hbemu::server {
namespace {

using apache::thrift::TApplicationException;
using apache::thrift::TConfiguration;
using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;
using wire_readers::BinaryReader;
using wire_readers::CompactReader;

constexpr size_t kFrameHeaderBytes = 4;
// Small, because every connection keeps it: 1,000 connections hold 8 MB. A message bigger than
// the buffer grows it as its bytes arrive; Idle() gives the growth back.
constexpr size_t kMinReadSpace = 8 * 1024;
constexpr char kThriftContentType[] = "application/x-thrift";

// Buffer bytes above their baseline that idle sessions keep, process-wide (Limits::
// retained_buffer_bytes bounds it).
std::atomic<int64_t> idle_retained_bytes{0};

bool ChargeIdleBytes(size_t bytes, size_t limit) {
  const int64_t n = static_cast<int64_t>(bytes);
  if (idle_retained_bytes.fetch_add(n, std::memory_order_relaxed) + n <=
      static_cast<int64_t>(limit)) {
    return true;
  }
  idle_retained_bytes.fetch_sub(n, std::memory_order_relaxed);
  return false;
}

// Freeing this much (a large call's buffers, and what the call itself allocated is free by now)
// also hands free heap memory back to the system.
constexpr size_t kTrimAfterBytes = 1 << 20;

uint32_t ReadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

void WriteBigEndian32(uint32_t v, uint8_t* p) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

// The input side of a call: a read-only view of one message, reused from call to call. Each view
// starts with a full message-size budget, which is what keeps THRIFT-5492 away.
class MessageView : public TMemoryBuffer {
 public:
  explicit MessageView(std::shared_ptr<TConfiguration> config)
      : TMemoryBuffer(nullptr, 0, TMemoryBuffer::OBSERVE, std::move(config)) {}

  void Observe(const uint8_t* data, size_t size) {
    resetBuffer(const_cast<uint8_t*>(data), static_cast<uint32_t>(size), TMemoryBuffer::OBSERVE);
    resetConsumedMessageSize();
  }
};

bool LooksBinary(const uint8_t* p, size_t n, size_t at) {
  return n >= at + 2 && p[at] == 0x80 && p[at + 1] == 0x01;
}
bool LooksCompact(const uint8_t* p, size_t n, size_t at) { return n >= at + 1 && p[at] == 0x82; }

// libthrift's binary reader loads a message's type byte straight into its TMessageType enum,
// whose values span 0..7: any other byte is undefined behaviour to load (UBSan's enum check),
// and is no call either. Returns that byte (as the reader would take it), or -1 when the message
// is not binary or its type is in range. The compact reader masks the type to 3 bits: always in
// range.
int OutOfRangeBinaryMessageType(const uint8_t* p, size_t n) {
  int type = 0;
  if (LooksBinary(p, n, 0)) {
    if (n < 4) return -1;
    type = p[3];  // TBinaryProtocol keeps the low byte of the versioned header
  } else {
    // Old non-strict form: name length, name, then the type as a signed byte.
    if (n < 4 || (p[0] & 0x80) != 0) return -1;
    const uint64_t name =
        (uint64_t{p[0]} << 24) | (uint64_t{p[1]} << 16) | (uint64_t{p[2]} << 8) | p[3];
    if (4 + name >= n) return -1;
    type = static_cast<int8_t>(p[4 + name]);
  }
  return type >= 0 && type <= 7 ? -1 : type;
}

}  // namespace

// Runs messages through the processor with protocol objects and a reply buffer kept across calls.
class WireSession::Call {
 public:
  explicit Call(std::shared_ptr<TConfiguration> config)
      : input_(std::make_shared<MessageView>(std::move(config))),
        reply_(std::make_shared<TMemoryBuffer>()) {}

  // Processes one message; the reply follows `reserve` placeholder bytes in the reply buffer.
  // Returns an empty string, or why the message could not be processed (the stream cannot be
  // trusted past it).
  std::string Run(apache::thrift::TProcessor* processor, const uint8_t* message, size_t length,
                  WireProtocol protocol, size_t reserve, const std::string& peer, CallHook* hook) {
    input_->Observe(message, length);
    StartReply(reserve);
    const int p = static_cast<int>(protocol);
    if (!out_[p]) out_[p] = MakeProtocol(protocol, reply_);
    // Nothing in a message is longer than the message itself (the readers also hold each claim
    // to the bytes left).
    const int32_t limit = static_cast<int32_t>(std::min<size_t>(length, INT32_MAX));
    // What it decodes into follows the bytes that arrived, not the counts they claim.
    const uint64_t decoded_budget = wire_readers::DecodedBudget(length);
    std::shared_ptr<TProtocol> in;
    if (protocol == WireProtocol::kCompact) {
      if (!compact_in_) compact_in_ = std::make_shared<CompactReader>(input_);
      compact_in_->SetLimits(limit, decoded_budget);
      in = compact_in_;
    } else {
      if (!binary_in_) binary_in_ = std::make_shared<BinaryReader>(input_);
      binary_in_->SetLimits(limit, decoded_budget);
      in = binary_in_;
    }
    // The one branch a call pays when the test controls are off.
    std::unique_ptr<HookedCall> hooked;
    if (hook != nullptr && hook->active()) {
      hooked = hook->Before(message, length, protocol, peer);
      if (hooked && hooked->action() != HookedCall::Action::kRun) return RunFault(*hooked, protocol, reserve);
    }
    std::string error;
    const int bad_type = protocol == WireProtocol::kBinary
                             ? OutOfRangeBinaryMessageType(message, length)
                             : -1;
    if (bad_type != -1) {
      error = "message type " + std::to_string(bad_type) +
              " is not a Thrift message type (a call is 1, a oneway call 4)";
      if (hooked) hooked->Finish(nullptr, 0, error);
      return error;
    }
    try {
      if (!processor->process(in, out_[p], nullptr)) {
        error = "processor refused the message (not a call?)";
      }
    } catch (const std::exception& e) {
      // Typically arguments that do not decode.
      error = e.what();
    } catch (...) {
      error = "unknown exception from processor";
    }
    if (!error.empty()) {
      if (hooked) hooked->Finish(nullptr, 0, error);
      return error;
    }
    const std::string undeclared = MapUndeclaredException(protocol, reserve, peer);
    if (hooked) {
      Span out = reply();
      hooked->Finish(out.data + reserve, out.size - reserve, undeclared);
      if (hooked->close_after()) {
        return "connection closed by a test-controls fault after the call was applied";
      }
    }
    return "";
  }

  // A call the hook answers itself: a failure reply, or a close before it runs.
  std::string RunFault(HookedCall& hooked, WireProtocol protocol, size_t reserve) {
    if (hooked.action() == HookedCall::Action::kCloseBefore) {
      hooked.Finish(nullptr, 0, "");
      return "connection closed by a test-controls fault before the call ran";
    }
    hooked.WriteFailure(out_[static_cast<int>(protocol)].get());
    Span out = reply();
    hooked.Finish(out.data + reserve, out.size - reserve, "");
    return "";
  }

  // The reply, placeholder included.
  Span reply() const {
    uint8_t* bytes;
    uint32_t size;
    reply_->getBuffer(&bytes, &size);
    return {bytes, size};
  }

  size_t reply_capacity() const { return reply_->getBufferSize(); }

  // Back to a fresh buffer's size; the protocol objects keep writing into the same transport.
  void ReleaseReply() { reply_->resetBuffer(TMemoryBuffer::defaultSize); }

 private:
  static std::shared_ptr<TProtocol> MakeProtocol(WireProtocol protocol,
                                                 std::shared_ptr<TMemoryBuffer> buffer) {
    // Templating on TMemoryBuffer makes the protocol's transport calls non-virtual.
    if (protocol == WireProtocol::kCompact) {
      return std::make_shared<apache::thrift::protocol::TCompactProtocolT<TMemoryBuffer>>(buffer);
    }
    return std::make_shared<apache::thrift::protocol::TBinaryProtocolT<TMemoryBuffer>>(buffer);
  }

  // Empties the reply buffer, keeping `reserve` bytes in front for a frame length.
  void StartReply(size_t reserve) {
    reply_->resetBuffer();
    if (reserve > 0) {
      static const uint8_t kPlaceholder[kFrameHeaderBytes] = {};
      reply_->write(kPlaceholder, static_cast<uint32_t>(reserve));
    }
  }

  // The generated C++ processor reports an undeclared handler exception as
  // TApplicationException(UNKNOWN, e.what()); HBase's Java server (and so its clients) use
  // INTERNAL_ERROR with a fixed text.
  // Returns what the undeclared exception said (empty when the reply is not one).
  std::string MapUndeclaredException(WireProtocol protocol, size_t reserve,
                                     const std::string& peer) {
    Span out = reply();
    if (out.size <= reserve) return "";  // oneway: no reply at all
    // The message type sits at a fixed offset, so an ordinary reply is let through unparsed.
    const uint8_t* message = out.data + reserve;
    const size_t length = out.size - reserve;
    if (protocol == WireProtocol::kBinary && LooksBinary(message, length, 0) && length >= 4 &&
        message[3] != apache::thrift::protocol::T_EXCEPTION) {
      return "";
    }
    if (protocol == WireProtocol::kCompact && LooksCompact(message, length, 0) && length >= 2 &&
        ((message[1] >> 5) & 0x07) != apache::thrift::protocol::T_EXCEPTION) {
      return "";
    }
    std::string method;
    int32_t seqid = 0;
    TApplicationException original;
    try {
      auto view = std::make_shared<TMemoryBuffer>(const_cast<uint8_t*>(message),
                                                  static_cast<uint32_t>(length));
      auto reader = MakeProtocol(protocol, view);
      TMessageType type;
      reader->readMessageBegin(method, type, seqid);
      if (type != apache::thrift::protocol::T_EXCEPTION) return "";
      original.read(reader.get());
    } catch (const std::exception&) {
      return "";  // not ours to judge; send it as the processor wrote it
    }
    if (original.getType() != TApplicationException::UNKNOWN) return original.what();
    // Mostly bad client input (HBase answers it the same way), so not an ERROR.
    LOG(WARNING) << "[wire_session] " << method << " from " << peer
                 << " failed with an undeclared exception: " << original.what();
    StartReply(reserve);
    auto& writer = out_[static_cast<int>(protocol)];
    TApplicationException mapped(TApplicationException::INTERNAL_ERROR,
                                 "Internal error processing " + method);
    writer->writeMessageBegin(method, apache::thrift::protocol::T_EXCEPTION, seqid);
    mapped.write(writer.get());
    writer->writeMessageEnd();
    return original.what();
  }


  std::shared_ptr<MessageView> input_;
  const std::shared_ptr<TMemoryBuffer> reply_;
  // Created on first use.
  std::shared_ptr<BinaryReader> binary_in_;
  std::shared_ptr<CompactReader> compact_in_;
  std::shared_ptr<TProtocol> out_[2];  // indexed by WireProtocol
};

WireSession::WireSession(const WireSessionConfig& config, apache::thrift::TProcessor* processor,
                         std::shared_ptr<TConfiguration> thrift_config, std::string peer)
    : config_(config),
      processor_(processor),
      peer_(std::move(peer)),
      call_(std::make_unique<Call>(std::move(thrift_config))) {
  Resize(kMinReadSpace);
}

WireSession::~WireSession() {
  EndIdle();
  if (config_.stats != nullptr && format_) {
    config_.stats->open[WireStats::ModeIndex(*format_)].fetch_sub(1, std::memory_order_relaxed);
  }
}

void WireSession::Resize(size_t capacity) { buffer_.Resize(capacity); }

size_t WireSession::held_bytes() const { return buffer_.capacity() + call_->reply_capacity(); }

size_t WireSession::BaselineBytes() { return kMinReadSpace + TMemoryBuffer::defaultSize; }

int64_t WireSession::IdleRetainedBytes() {
  return idle_retained_bytes.load(std::memory_order_relaxed);
}

void WireSession::Idle() {
  if (begin_ != end_ || writing_ || charged_ > 0) return;
  begin_ = end_ = 0;
  const size_t held = held_bytes();
  if (held <= BaselineBytes()) return;
  if (held <= config_.idle_buffer_bytes && ChargeIdleBytes(held, config_.retained_buffer_bytes)) {
    charged_ = held;
    return;
  }
  if (buffer_.capacity() > kMinReadSpace) {
    buffer_.Resize(0);
    Resize(kMinReadSpace);
  }
  call_->ReleaseReply();
  if (held >= kTrimAfterBytes) ReturnFreeMemory();
}

void WireSession::EndIdle() {
  if (charged_ == 0) return;
  idle_retained_bytes.fetch_sub(static_cast<int64_t>(charged_), std::memory_order_relaxed);
  charged_ = 0;
}

WireSession::Step WireSession::Read(size_t want) {
  want_ = want;
  return {};
}

WireSession::Step WireSession::Close(std::string reason) {
  Step step;
  step.action = Step::Action::kClose;
  step.reason = std::move(reason);
  return step;
}

WireSession::Step WireSession::Next() {
  if (close_after_write_) return Close("");
  // Oneway messages produce no reply; pipelined ones are run here until one does.
  for (;;) {
    if (buffered() < want_) return Read(want_);
    if (!format_) {
      WireDetection detected = DetectWireFormat(buffer_.data() + begin_, buffered(),
                                                config_.forcing);
      if (detected.status == WireDetection::Status::kNeedMore) return Read(buffered() + 1);
      if (detected.status == WireDetection::Status::kUnknown) return Close(detected.error);
      format_ = detected.format;
      if (config_.stats != nullptr) {
        const int mode = WireStats::ModeIndex(*format_);
        config_.stats->open[mode].fetch_add(1, std::memory_order_relaxed);
        config_.stats->accepted[mode].fetch_add(1, std::memory_order_relaxed);
      }
      if (format_->transport == WireTransport::kBuffered) {
        skimmer_.emplace(format_->protocol, config_.max_message_bytes);
      }
      if (format_->transport == WireTransport::kHttp) {
        http_ = std::make_unique<HttpRequestReader>(config_.max_message_bytes);
      }
      VLOG(1) << "[wire_session] " << peer_ << " speaks " << WireFormatName(*format_);
    }
    Step step;
    switch (format_->transport) {
      case WireTransport::kBuffered:
        step = NextBuffered();
        break;
      case WireTransport::kFramed:
        step = NextFramed();
        break;
      case WireTransport::kHttp:
        step = NextHttp();
        break;
    }
    // A call that wrote no reply consumed its message already; look at the next one.
    if (step.action == Step::Action::kRead && buffered() >= want_ && !writing_) continue;
    return step;
  }
}

WireSession::Step WireSession::NextFramed() {
  const uint8_t* start = buffer_.data() + begin_;
  if (buffered() < kFrameHeaderBytes) return Read(kFrameHeaderBytes);
  const uint32_t frame = ReadBigEndian32(start);
  if (frame == 0) return Close("empty frame");
  if (frame > config_.max_message_bytes) {
    return Close("frame of " + std::to_string(frame) + " bytes exceeds the limit of " +
                 std::to_string(config_.max_message_bytes) + " bytes" +
                 Hint(start, buffered()));
  }
  const size_t total = kFrameHeaderBytes + frame;
  if (buffered() < total) return Read(total);
  return Run(start + kFrameHeaderBytes, frame, format_->protocol, total);
}

WireSession::Step WireSession::NextBuffered() {
  const uint8_t* start = buffer_.data() + begin_;
  const size_t max = config_.max_message_bytes;
  SkimResult skim = skimmer_->Skim(start, buffered());
  switch (skim.status) {
    case SkimResult::Status::kComplete:
      skimmer_->Reset();
      return Run(start, skim.bytes, format_->protocol, skim.bytes);
    case SkimResult::Status::kNeedMore:
      return Read(skim.bytes);
    case SkimResult::Status::kTooLarge:
      return Close("message of " +
                   (skim.bytes ? "at least " + std::to_string(skim.bytes) + " bytes"
                               : "unknown size (" + skim.error + ")") +
                   " exceeds the limit of " + std::to_string(max) + " bytes" +
                   Hint(start, buffered()));
    case SkimResult::Status::kMalformed:
      if (skim.answer_after > 0) return AnswerMalformed(skim);
      break;
  }
  return Close(std::string("malformed ") + WireProtocolName(format_->protocol) +
               " message: " + skim.error + Hint(start, buffered()));
}

WireSession::Step WireSession::NextHttp() {
  size_t used = 0;
  const HttpRequestReader::Status status =
      http_->Feed(buffer_.data() + begin_, buffered(), &used);
  begin_ += used;
  if (status == HttpRequestReader::Status::kNeedMore) {
    if (http_->WantsContinue()) {
      http_->ContinueSent();
      const std::string& interim = HttpContinueResponse();
      consumed_ = 0;
      return Write({{reinterpret_cast<const uint8_t*>(interim.data()), interim.size()}});
    }
    return Read(buffered() + 1);
  }
  if (status == HttpRequestReader::Status::kError) {
    LOG(WARNING) << "[wire_session] HTTP request from " << peer_ << " refused ("
                 << http_->error_status() << "): " << http_->error();
    http_keep_alive_ = false;
    return RespondText(http_->error_status(), http_->error());
  }
  http_keep_alive_ = http_->keep_alive();
  const std::string& body = http_->body();
  if (body.empty()) return RespondText(400, "empty body: expected one Thrift message");
  WireProtocol protocol = config_.forcing.protocol.value_or(
      DetectBodyProtocol(static_cast<uint8_t>(body[0])));
  return Run(reinterpret_cast<const uint8_t*>(body.data()), body.size(), protocol, 0);
}

WireSession::Step WireSession::Run(const uint8_t* message, size_t length, WireProtocol protocol,
                                   size_t consume) {
  const bool http = format_->transport == WireTransport::kHttp;
  const size_t reserve = format_->transport == WireTransport::kFramed ? kFrameHeaderBytes : 0;
  std::string error = call_->Run(processor_, message, length, protocol, reserve, peer_, config_.hook);
  if (!error.empty()) {
    if (!http) return Close(error + Hint(buffer_.data() + begin_, buffered()));
    // HTTP frames each request itself, so the connection stays usable after a bad body.
    LOG(WARNING) << "[wire_session] Thrift message over HTTP from " << peer_
                 << " not processed: " << error;
    return RespondText(500, "cannot process the Thrift message: " + error);
  }
  consumed_ = consume;
  Span reply = call_->reply();
  if (http) {
    http_header_ = HttpResponseHeader(200, kThriftContentType, reply.size, http_keep_alive_);
    close_after_write_ = !http_keep_alive_;
    return Write({HeaderSpan(), reply});
  }
  if (reply.size <= reserve) {
    // Oneway: nothing to send.
    begin_ += consumed_;
    consumed_ = 0;
    want_ = 1;
    return Read(1);
  }
  if (reserve > 0) {
    WriteBigEndian32(static_cast<uint32_t>(reply.size - reserve), const_cast<uint8_t*>(reply.data));
  }
  return Write({reply});
}

WireSession::Step WireSession::AnswerMalformed(const SkimResult& skim) {
  LOG_EVERY_N(WARNING, 100) << "[wire_session] malformed " << skim.name << " message from "
                            << peer_ << " answered as HBase does: " << skim.error;
  skimmer_->Reset();
  // TBinaryProtocol's message: version | EXCEPTION, name, seqid, then the exception struct
  // (1: message, 2: type PROTOCOL_ERROR).
  constexpr uint32_t kVersionException = 0x80010003u;
  constexpr uint32_t kProtocolError = 7;
  auto put32 = [this](uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      error_reply_.push_back(static_cast<char>(v >> shift));
    }
  };
  error_reply_.clear();
  put32(kVersionException);
  put32(static_cast<uint32_t>(skim.name.size()));
  error_reply_ += skim.name;
  put32(static_cast<uint32_t>(skim.seqid));
  error_reply_ += std::string("\x0b\x00\x01", 3);
  put32(static_cast<uint32_t>(skim.error.size()));
  error_reply_ += skim.error;
  error_reply_ += std::string("\x08\x00\x02", 3);
  put32(kProtocolError);
  error_reply_.push_back('\0');
  consumed_ = skim.answer_after;
  return Write({{reinterpret_cast<const uint8_t*>(error_reply_.data()), error_reply_.size()}});
}

WireSession::Step WireSession::RespondText(int status, const std::string& text) {
  http_header_ = HttpTextResponse(status, text, http_keep_alive_);
  close_after_write_ = !http_keep_alive_;
  return Write({HeaderSpan()});
}

WireSession::Span WireSession::HeaderSpan() const {
  return {reinterpret_cast<const uint8_t*>(http_header_.data()), http_header_.size()};
}

WireSession::Step WireSession::Write(std::initializer_list<Span> spans) {
  writing_ = true;
  writing_bytes_ = 0;
  Step step;
  step.action = Step::Action::kWrite;
  for (const Span& span : spans) {
    if (span.size > 0) step.write.push_back(span);
    writing_bytes_ += span.size;
  }
  return step;
}

void WireSession::Written() {
  writing_ = false;
  if (config_.stats != nullptr) {
    config_.stats->bytes_out.fetch_add(writing_bytes_, std::memory_order_relaxed);
  }
  begin_ += consumed_;
  consumed_ = 0;
  want_ = 1;
  // An HTTP request is finished once its final response is out (not after a 100 Continue).
  if (http_ && !http_header_.empty()) {
    http_->Reset();
    http_header_.clear();
  }
}

uint8_t* WireSession::ReadSpace(size_t* size) {
  if (begin_ == end_) begin_ = end_ = 0;
  if (buffer_.capacity() - end_ < kMinReadSpace && begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, buffered());
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.capacity() - end_ < kMinReadSpace) {
    // Full. A length a client claims is only a ceiling: the buffer follows the bytes that
    // actually arrived, at most doubling (less when the message is known to need less), so five
    // bytes claiming 99 MiB cost 8 KiB and a real 99 MiB message about 14 reallocations.
    const size_t rest = want_ > buffered() ? want_ - buffered() : 0;
    const size_t cap = config_.max_message_bytes + kFrameHeaderBytes + kMinReadSpace;
    Resize(std::max(end_ + kMinReadSpace, std::min(end_ + std::min(rest, buffered()), cap)));
  }
  *size = buffer_.capacity() - end_;
  return buffer_.data() + end_;
}

void WireSession::Received(size_t n) {
  if (n > 0) EndIdle();
  end_ += n;
  if (config_.stats != nullptr) config_.stats->bytes_in.fetch_add(n, std::memory_order_relaxed);
}

// A transport/protocol mismatch is the most common reason a client "just hangs or gets
// disconnected", so say so when bytes that failed look like another configuration (which, with
// detection, only happens when the server was told to insist on one).
std::string WireSession::Hint(const uint8_t* p, size_t n) const {
  if (!format_) return "";
  const bool framed = format_->transport == WireTransport::kFramed;
  if (framed && (LooksBinary(p, n, 0) || LooksCompact(p, n, 0))) {
    return " (looks unframed, but the server insists on framed transport)";
  }
  if (!framed && n >= 4 && p[0] == 0 && (LooksBinary(p, n, 4) || LooksCompact(p, n, 4))) {
    return " (looks framed, but the server insists on buffered transport)";
  }
  const size_t body = framed ? kFrameHeaderBytes : 0;
  if (format_->protocol == WireProtocol::kBinary && LooksCompact(p, n, body)) {
    return " (looks like TCompactProtocol, but the server insists on binary)";
  }
  if (format_->protocol == WireProtocol::kCompact && LooksBinary(p, n, body)) {
    return " (looks like TBinaryProtocol, but the server insists on compact)";
  }
  return "";
}

}  // namespace hbemu::server
