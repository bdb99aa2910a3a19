#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "server/net/message_skimmer.h"

namespace hbemu::server {

// How a connection carries messages: a plain stream (TBufferedTransport or a raw socket), 4-byte
// length-prefixed frames (TFramedTransport), or one message per HTTP POST body (THttpClient).
enum class WireTransport { kBuffered, kFramed, kHttp };

const char* WireTransportName(WireTransport transport);

// How one connection frames and encodes its messages. HTTP bodies carry their own protocol per
// request, so for kHttp `protocol` is only what the connection was forced to (binary by default).
struct WireFormat {
  WireTransport transport = WireTransport::kBuffered;
  WireProtocol protocol = WireProtocol::kBinary;
};

std::string WireFormatName(const WireFormat& format);

// What the server was told to insist on. Unset parts are detected per connection from its first
// bytes; a set part is imposed, so a mismatched client fails as it would against HBase.
struct WireForcing {
  std::optional<WireTransport> transport;
  std::optional<WireProtocol> protocol;
};

struct WireDetection {
  enum class Status {
    kDecided,   // `format` holds the connection's format
    kNeedMore,  // too few bytes to tell; look again when more arrive
    kUnknown,   // no Thrift client starts like this; `error` says what was seen
  };
  Status status = Status::kNeedMore;
  WireFormat format;
  std::string error;
};

// Tells a connection's format from its first bytes, `forcing` permitting:
//   0x80 0x01 ...        buffered, strict binary (TBinaryProtocol writes strict headers)
//   0x82 ...             buffered, compact
//   4-byte length, then 0x80 / 0x82 / 0x00 (a non-strict binary name length): framed
//   4-byte name length, then a letter: buffered, old non-strict binary
//   an upper-case letter (an HTTP method such as POST): HTTP
// A frame length and a non-strict name length both start with 0x00, so up to five bytes may be
// needed. A forced part is never contradicted: with a forced transport the first bytes are read
// as that transport, and a mismatch surfaces when the message itself fails to parse.
WireDetection DetectWireFormat(const uint8_t* data, size_t size, const WireForcing& forcing);

// Which protocol a Thrift message body starting with `first_byte` uses; binary unless it is
// compact's 0x82 marker.
WireProtocol DetectBodyProtocol(uint8_t first_byte);

}  // namespace hbemu::server
