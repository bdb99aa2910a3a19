#include "server/net/wire_format.h"

#include <cstdio>

namespace hbemu::server {
namespace {

constexpr uint8_t kStrictBinaryMarker = 0x80;
constexpr uint8_t kCompactMarker = 0x82;
// A frame length (and a non-strict name length) is followed by the message or name at byte 4.
constexpr size_t kFramedBodyOffset = 4;

bool IsUpper(uint8_t b) { return b >= 'A' && b <= 'Z'; }
bool IsLetter(uint8_t b) { return IsUpper(b) || (b >= 'a' && b <= 'z') || b == '_'; }

std::string HexPrefix(const uint8_t* data, size_t size) {
  std::string out;
  for (size_t i = 0; i < size && i < 8; ++i) {
    char hex[6];
    std::snprintf(hex, sizeof(hex), i ? " %02x" : "%02x", data[i]);
    out += hex;
  }
  return out;
}

// A TLS record header (handshake, version 3.x). As a frame length it would claim ~370 MB.
bool LooksLikeTls(const uint8_t* data, size_t size) {
  return size >= 2 && data[0] == 0x16 && data[1] == 0x03;
}

WireDetection Decided(WireTransport transport, WireProtocol protocol, const WireForcing& forcing) {
  WireDetection d;
  d.status = WireDetection::Status::kDecided;
  d.format.transport = transport;
  d.format.protocol = forcing.protocol.value_or(protocol);
  return d;
}

WireDetection NeedMore() { return {}; }

WireDetection Unknown(const uint8_t* data, size_t size) {
  WireDetection d;
  d.status = WireDetection::Status::kUnknown;
  d.error = "first bytes " + HexPrefix(data, size) +
            " are neither a Thrift message (binary or compact, buffered or framed) nor an HTTP "
            "request";
  if (LooksLikeTls(data, size)) d.error += " (a TLS handshake: the emulator does not serve TLS)";
  return d;
}

// The protocol of a message whose first byte is `b`, where a non-strict binary message starts
// with a 0x00 name-length byte.
WireProtocol ProtocolAt(uint8_t b) {
  return b == kCompactMarker ? WireProtocol::kCompact : WireProtocol::kBinary;
}

}  // namespace

const char* WireTransportName(WireTransport transport) {
  switch (transport) {
    case WireTransport::kBuffered:
      return "buffered";
    case WireTransport::kFramed:
      return "framed";
    case WireTransport::kHttp:
      return "http";
  }
  return "?";
}

std::string WireFormatName(const WireFormat& format) {
  return std::string(WireTransportName(format.transport)) + "+" +
         WireProtocolName(format.protocol);
}

WireProtocol DetectBodyProtocol(uint8_t first_byte) { return ProtocolAt(first_byte); }

WireDetection DetectWireFormat(const uint8_t* data, size_t size, const WireForcing& forcing) {
  if (size == 0) return NeedMore();
  const uint8_t first = data[0];
  if (forcing.transport) {
    switch (*forcing.transport) {
      case WireTransport::kHttp:
        return Decided(WireTransport::kHttp, WireProtocol::kBinary, forcing);
      case WireTransport::kBuffered:
        return Decided(WireTransport::kBuffered, ProtocolAt(first), forcing);
      case WireTransport::kFramed:
        if (forcing.protocol) return Decided(WireTransport::kFramed, *forcing.protocol, forcing);
        if (size <= kFramedBodyOffset) return NeedMore();
        return Decided(WireTransport::kFramed, ProtocolAt(data[kFramedBodyOffset]), forcing);
    }
  }
  if (first == kStrictBinaryMarker) {
    return Decided(WireTransport::kBuffered, WireProtocol::kBinary, forcing);
  }
  if (first == kCompactMarker) {
    return Decided(WireTransport::kBuffered, WireProtocol::kCompact, forcing);
  }
  // A frame would have to be over 1 GB to start with a letter, so a letter is an HTTP method.
  if (IsUpper(first)) return Decided(WireTransport::kHttp, WireProtocol::kBinary, forcing);
  if (first > 0x7f || LooksLikeTls(data, size)) return Unknown(data, size);
  if (size <= kFramedBodyOffset) return NeedMore();
  const uint8_t body = data[kFramedBodyOffset];
  if (body == kStrictBinaryMarker || body == kCompactMarker || body == 0x00) {
    return Decided(WireTransport::kFramed, ProtocolAt(body), forcing);
  }
  // An old non-strict binary message starts with its method name's length, then the name.
  if (first == 0x00 && IsLetter(body)) {
    return Decided(WireTransport::kBuffered, WireProtocol::kBinary, forcing);
  }
  return Unknown(data, size);
}

}  // namespace hbemu::server
