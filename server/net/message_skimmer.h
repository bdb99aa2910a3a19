#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hbemu::server {

// The Thrift protocols the server speaks. Binary reads both strict (0x80 0x01 versioned) and old
// non-strict messages, as TBinaryProtocol does on the server side by default.
enum class WireProtocol { kBinary, kCompact };

const char* WireProtocolName(WireProtocol protocol);

// What SkimMessage found at the start of a buffer.
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
};

// Finds where the first Thrift message in data[0, size) ends, without dispatching it. Used on
// unframed connections, where nothing but the message's own structure says how long it is.
//
// Runs libthrift's own reader (readMessageBegin, skip(T_STRUCT), readMessageEnd) over the span,
// so whatever libthrift would accept is accepted. When the reader runs past `size`, the result is
// kNeedMore with the smallest total that could get it further (for a 1 MB string that is the
// whole string), so the caller can wait for that many bytes instead of re-skimming after every
// read. For kNeedMore, `bytes` > `size` and never exceeds the message's real length.
//
// A message longer than max_message_bytes, or a string/container claiming more than that, is
// kTooLarge even before all of it has arrived. Nesting deeper than libthrift's recursion limit
// (64) is kMalformed.
//
// Pure function; thread-safe. Cost is one pass over the message (strings are copied once).
SkimResult SkimMessage(WireProtocol protocol, const uint8_t* data, size_t size,
                       size_t max_message_bytes);

}  // namespace hbemu::server
