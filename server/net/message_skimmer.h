#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hbemu::server {

// The Thrift protocols the server speaks. Binary reads both strict (0x80 0x01 versioned) and old
// non-strict messages, as TBinaryProtocol does on the server side by default.
enum class WireProtocol { kBinary, kCompact };

const char* WireProtocolName(WireProtocol protocol);

// What a skim found at the start of a buffer.
struct SkimResult {
  enum class Status {
    kComplete,   // a whole message; `bytes` is its length
    kNeedMore,   // a prefix of a message; `bytes` is the least total to buffer before trying again
    kMalformed,  // not a valid message; `error` says why
    kTooLarge,   // the message is, or claims to be, over the limit; `bytes` is the size seen or
                 // claimed when known (0 otherwise), `error` says more
  };
  Status status = Status::kNeedMore;
  size_t bytes = 0;
  std::string error;
  // kMalformed only, binary protocol: nonzero when HBase's Java processor would answer this
  // message with TApplicationException(PROTOCOL_ERROR, `error`) and read on at this many bytes
  // from the message's start (an unknown field type, a negative string or container size: a
  // TProtocolException thrown after those bytes were read). `name` and `seqid` are the
  // message's own.
  size_t answer_after = 0;
  std::string name;
  int32_t seqid = 0;
};

// Finds where a Thrift message ends on an unframed connection, where nothing but the message's
// own structure says how long it is, without dispatching it. It walks the structure as
// libthrift's skip() does (same types, sizes, negative-size and recursion-limit rules: what
// libthrift reads, it accepts), but keeps its place between calls: each value is stepped over
// once, however many reads a message takes to arrive, so a 100 MB buffered message costs one
// pass rather than one pass per read.
//
// When the bytes run out, the result is kNeedMore with the smallest total that could get it
// further (for a 1 MB string that is the whole string; for a list, at least its elements' minimum
// sizes), so the caller can wait for that many bytes; `bytes` > `size` and never exceeds the
// message's real length. A message longer than max_message_bytes, or a string/container claiming
// more than that, is kTooLarge even before all of it has arrived. Nesting deeper than libthrift's
// recursion limit (Limits::thrift_depth) is kMalformed.
//
// Not thread-safe; one per connection.
class MessageSkimmer {
 public:
  MessageSkimmer(WireProtocol protocol, size_t max_message_bytes);

  // data[0, size) is the start of the current message: the bytes of every earlier call for this
  // message (they may have moved in memory) followed by any that arrived since.
  SkimResult Skim(const uint8_t* data, size_t size);

  // The message was taken (or given up); the next Skim starts a new one.
  void Reset();

  // Bytes of the current message already stepped over: the next Skim starts there.
  size_t skimmed() const { return position_; }

 private:
  // A struct, list/set or map being stepped through.
  struct Frame {
    enum class Kind : uint8_t { kStruct, kList, kMap } kind;
    uint8_t key_type = 0;    // list/set: element type; map: key type (wire type codes)
    uint8_t value_type = 0;  // map only
    uint64_t remaining = 0;  // values still to step over (a map entry is two)
  };
  class Cursor;

  // One step: the header, a field header, one value or a container's end. Leaves the state
  // unchanged unless it returns true.
  bool Step(Cursor& in);
  // Binary protocol, inside a struct: steps over whole fields of plain types; false when it
  // stepped over none.
  bool BinaryFields(const uint8_t* data, size_t size);
  bool Advance(size_t start, size_t to);
  bool Header(Cursor& in);
  bool FieldHeader(Cursor& in);
  bool Value(Cursor& in, uint8_t type);
  bool ContainerHeader(Cursor& in, uint8_t type);
  // Wire type code to libthrift's TType number, or -1 when the protocol does not know it.
  int TypeOf(uint8_t wire_type) const;
  uint64_t MinBytes(int ttype) const;
  // Fails the skim as one Java's processor answers (SkimResult::answer_after); returns false.
  bool Answerable(Cursor& in, std::string error);

  const WireProtocol protocol_;
  const size_t max_message_bytes_;
  // Limits::thrift_depth, libthrift's recursion limit (TConfiguration, set to the same): every
  // value skipped counts one level more than the struct or container holding it.
  const size_t max_depth_;
  bool header_done_ = false;
  size_t position_ = 0;  // bytes of the message stepped over so far
  std::vector<Frame> stack_;
  // The type of a field value whose header was read but whose value was not (-1: none).
  int pending_type_ = -1;
  bool pending_in_field_ = false;  // compact protocol bools live in the field header
  std::string name_;  // the current message's method name and sequence id (binary protocol)
  int32_t seqid_ = 0;
};

// Skims one buffer from scratch (one MessageSkimmer used once).
SkimResult SkimMessage(WireProtocol protocol, const uint8_t* data, size_t size,
                       size_t max_message_bytes);

}  // namespace hbemu::server
