#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/protocol/TProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>

namespace hbemu::server {

// The protocol types WireSession (server/net) writes every reply with. A reply writer that
// knows it has one of these can call it without TProtocol's virtual calls.
using BinaryReplyProtocol =
    apache::thrift::protocol::TBinaryProtocolT<apache::thrift::transport::TMemoryBuffer>;
using CompactReplyProtocol =
    apache::thrift::protocol::TCompactProtocolT<apache::thrift::transport::TMemoryBuffer>;

// Calls fn(p) with `out` as its concrete type when it is a reply protocol of WireSession's,
// else as TProtocol*: a hand-written reply writer dispatches once per reply, and the protocol
// calls inside fn (a generic lambda, instantiated for each) are then inline. Returns fn's
// result.
template <class Fn>
auto WithReplyProtocol(apache::thrift::protocol::TProtocol* out, Fn&& fn) {
  if (auto* binary = dynamic_cast<BinaryReplyProtocol*>(out)) return fn(binary);
  if (auto* compact = dynamic_cast<CompactReplyProtocol*>(out)) return fn(compact);
  return fn(out);
}

// Writes Thrift `binary` values from pieces that need not be one std::string (a Thrift1
// column name is family ':' qualifier; values sit in a RowBatch). Through a reply protocol
// the length goes out as that protocol spells it and the bytes go straight into its buffer;
// through any other TProtocol they are joined in a scratch string for writeBinary. Either way
// the bytes are writeBinary(a + b + c)'s.
template <class Protocol>
class BinaryValueWriter {
 public:
  explicit BinaryValueWriter(Protocol* out) : out_(out) {
    if constexpr (kDirect) {
      // The template argument says the transport is a TMemoryBuffer.
      buffer_ = static_cast<apache::thrift::transport::TMemoryBuffer*>(out->getTransport().get());
    }
  }

  uint32_t Write(std::string_view a, std::string_view b = {}, std::string_view c = {}) {
    if constexpr (kDirect) {
      const size_t size = a.size() + b.size() + c.size();
      if (size > static_cast<size_t>(INT32_MAX)) {
        throw apache::thrift::protocol::TProtocolException(
            apache::thrift::protocol::TProtocolException::SIZE_LIMIT);
      }
      const uint32_t n = Length(static_cast<uint32_t>(size));
      Raw(a);
      Raw(b);
      Raw(c);
      return n + static_cast<uint32_t>(size);
    } else {
      scratch_.assign(a.data(), a.size()).append(b.data(), b.size()).append(c.data(), c.size());
      return out_->writeBinary(scratch_);
    }
  }

 private:
  static constexpr bool kDirect = std::is_same_v<Protocol, BinaryReplyProtocol> ||
                                  std::is_same_v<Protocol, CompactReplyProtocol>;

  // The length prefix: TBinaryProtocol's i32, TCompactProtocol's unsigned varint.
  uint32_t Length(uint32_t size) {
    if constexpr (std::is_same_v<Protocol, BinaryReplyProtocol>) {
      return out_->writeI32(static_cast<int32_t>(size));
    } else {
      uint8_t bytes[5];
      uint32_t n = 0;
      while (size >= 0x80) {
        bytes[n++] = static_cast<uint8_t>((size & 0x7F) | 0x80);
        size >>= 7;
      }
      bytes[n++] = static_cast<uint8_t>(size);
      buffer_->write(bytes, n);
      return n;
    }
  }

  void Raw(std::string_view s) {
    if (!s.empty()) {
      buffer_->write(reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size()));
    }
  }

  Protocol* const out_;
  apache::thrift::transport::TMemoryBuffer* buffer_ = nullptr;  // reply protocols only
  std::string scratch_;                                         // other protocols only
};

}  // namespace hbemu::server
