#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>

#include "server/limits.h"

// The protocol readers every message from a client is decoded with: by a WireSession (its own
// view of the message in a TMemoryBuffer) and by the test controls' call log
// (server/control/call_decode.cc), so both hold a message to the same bounds.
namespace hbemu::server::wire_readers {

using apache::thrift::protocol::TBinaryProtocolT;
using apache::thrift::protocol::TCompactProtocolT;
using apache::thrift::protocol::TList;
using apache::thrift::protocol::TMap;
using apache::thrift::protocol::TProtocolException;
using apache::thrift::protocol::TSet;
using apache::thrift::protocol::TType;
using apache::thrift::transport::TMemoryBuffer;

// The memory one message of `length` bytes may decode into (Limits::decoded_bytes, or
// decoded_bytes_per_byte for each of its bytes when that is more): it follows the bytes that
// arrived, not the counts they claim.
inline uint64_t DecodedBudget(size_t length) {
  const Limits& limits = CurrentLimits();
  return std::max<uint64_t>(
      static_cast<uint64_t>(limits.decoded_bytes),
      static_cast<uint64_t>(length) * static_cast<uint64_t>(limits.decoded_bytes_per_byte));
}

// The TType a type code read from the wire names, or INVALID_DATA for a code that names none.
// The binary protocol stores whatever byte arrives in the enum, and loading an enum holding a
// value it cannot hold is undefined, so codes are checked as integers before they become types.
// Every code libthrift declares is a type here (it skips VOID, U64, UTF8 and UTF16 fields by
// reading nothing), as the generated readers would take it.
inline TType TypeOfCode(int code) {
  switch (code) {
    case 0: case 1: case 2: case 3: case 4: case 6: case 8: case 9: case 10: case 11: case 12:
    case 13: case 14: case 15: case 16: case 17:
      return static_cast<TType>(code);
    default:
      throw TProtocolException(TProtocolException::INVALID_DATA,
                               "unknown type " + std::to_string(code));
  }
}

// A TType's code, read as an int whatever it holds.
inline int CodeOfType(const TType& type) {
  int code;
  static_assert(sizeof(code) == sizeof(type), "TType is an int-sized enum");
  std::memcpy(&code, &type, sizeof(code));
  return code;
}

// libthrift sizes a string or container from its length prefix before reading it (a string
// resized, a vector of that many elements, the compact protocol's string buffer reallocated),
// checked only against the whole message's size: a frame of a few MB claiming a list of
// millions of structs allocated and constructed them all. These readers refuse any claim that
// cannot fit in the bytes left of the message, before anything is allocated, with the
// TProtocolException (SIZE_LIMIT) of libthrift's own size limits; like every message that does
// not decode, it closes the connection (Thrift over HTTP answers 500).
template <class Protocol>
class BoundedReader : public Protocol {
 public:
  explicit BoundedReader(std::shared_ptr<TMemoryBuffer> input) : Protocol(std::move(input)) {}

  // Before each message: no string or container longer than `limit`, and at most
  // `decoded_budget` bytes of memory built from it.
  void SetLimits(int32_t limit, uint64_t decoded_budget) {
    this->string_limit_ = limit;
    this->container_limit_ = limit;
    decoded_budget_ = decoded_budget;
    decoded_ = 0;
  }

  void checkReadBytesAvailable(TList& list) override {
    CheckElements("list", list.size_, MinBytes(list.elemType_));
    Charge("list", list.size_, MemoryBytes(list.elemType_));
  }
  void checkReadBytesAvailable(TSet& set) override {
    CheckElements("set", set.size_, MinBytes(set.elemType_));
    Charge("set", set.size_, MemoryBytes(set.elemType_) + kNodeBytes);
  }
  void checkReadBytesAvailable(TMap& map) override {
    CheckElements("map", map.size_, MinBytes(map.keyType_) + MinBytes(map.valueType_));
    Charge("map", map.size_, MemoryBytes(map.keyType_) + MemoryBytes(map.valueType_) + kNodeBytes);
  }

 protected:
  uint32_t Left() const { return this->trans_->available_read(); }

  void CheckString(int32_t size) {
    if (size > 0 && static_cast<uint32_t>(size) > Left()) {
      Refuse("a string of " + std::to_string(size) + " bytes");
    }
    // Short strings live inside the std::string already charged with its container or struct.
    if (size > kInlineStringBytes) Charge("string", 1, static_cast<uint64_t>(size) + 1);
  }

 private:
  // libthrift's figure for one value of the type, but at least one byte: it counts a struct
  // as none, though even an empty one has its stop byte. The binary reader stores any type
  // byte in the enum, so its bytes are read as an int (loading an out-of-range enum is
  // undefined) and an unknown type is refused, as libthrift's getMinSerializedSize does.
  uint64_t MinBytes(const TType& type) {
    const int code = CodeOfType(type);
    switch (code) {
      case 0: case 1: case 2: case 3: case 4: case 6: case 8: case 10: case 11: case 12:
      case 13: case 14: case 15:
        return static_cast<uint64_t>(std::max(1, this->getMinSerializedSize(TType(code))));
      default:
        throw TProtocolException(TProtocolException::INVALID_DATA,
                                 "unknown element type " + std::to_string(code));
    }
  }

  // What one element of the type costs in memory once the generated reader has built it. A
  // list of a million empty structs is a million bytes on the wire but a million generated
  // structs in memory (a 20 MB getMultiple of empty TGets took 5.5 GB), so each element is
  // charged before the reader resizes its vector. Structs are charged as the larger request
  // structs of both services are (TGet, TScan, TPut: 200-330 bytes); their fields are charged
  // again only when they hold more (strings past the inline size, containers).
  static uint64_t MemoryBytes(const TType& type) {
    switch (CodeOfType(type)) {
      case 2: case 3: return 1;            // bool, byte
      case 6: return 2;                    // i16
      case 8: return 4;                    // i32
      case 4: case 10: return 8;           // double, i64
      case 11: return sizeof(std::string);
      case 12: return kStructBytes;
      case 13: case 14: case 15: return kContainerBytes;
      default: return 1;
    }
  }

  void Charge(const char* kind, int size, uint64_t each) {
    if (size <= 0) return;
    const uint64_t cost = static_cast<uint64_t>(size) * each;
    if (cost > decoded_budget_ - decoded_) {
      throw TProtocolException(
          TProtocolException::SIZE_LIMIT,
          std::string("Exceeded size limit: a ") + kind + " of " + std::to_string(size) +
              " elements would take " + std::to_string(cost) + " bytes of memory, past the " +
              std::to_string(decoded_budget_) + " this message may decode into (limits " +
              "decoded_bytes, decoded_bytes_per_byte)");
    }
    decoded_ += cost;
  }

  void CheckElements(const char* kind, int size, uint64_t each) const {
    if (size > 0 && static_cast<uint64_t>(size) * each > Left()) {
      Refuse(std::string("a ") + kind + " of " + std::to_string(size) + " elements (at least " +
             std::to_string(static_cast<uint64_t>(size) * each) + " bytes)");
    }
  }

  static constexpr uint64_t kStructBytes = 320;
  static constexpr uint64_t kContainerBytes = 48;  // a vector, set or map header
  static constexpr uint64_t kNodeBytes = 32;       // a set or map node's links
  static constexpr int32_t kInlineStringBytes = 15;
  uint64_t decoded_budget_ = UINT64_MAX;
  uint64_t decoded_ = 0;

  [[noreturn]] void Refuse(const std::string& claim) const {
    throw TProtocolException(TProtocolException::SIZE_LIMIT,
                             "Exceeded size limit: " + claim + " where " +
                                 std::to_string(Left()) + " bytes of the message are left");
  }
};

class BinaryReader : public BoundedReader<TBinaryProtocolT<TMemoryBuffer>> {
 public:
  using BoundedReader::BoundedReader;

  uint32_t readString_virt(std::string& str) override { return ReadBytes(str); }
  uint32_t readBinary_virt(std::string& str) override { return ReadBytes(str); }

  // As libthrift's, but a type byte becomes a TType only once it names one (TypeOfCode).
  uint32_t readFieldBegin_virt(std::string&, TType& field_type, int16_t& field_id) override {
    int8_t code;
    uint32_t result = readByte(code);
    field_type = TypeOfCode(code);
    field_id = 0;
    if (code != 0) result += readI16(field_id);
    return result;
  }
  uint32_t readListBegin_virt(TType& elem_type, uint32_t& size) override {
    const uint32_t result = ReadContainerHead(&elem_type, nullptr, &size);
    TList list(elem_type, size);
    checkReadBytesAvailable(list);
    return result;
  }
  uint32_t readSetBegin_virt(TType& elem_type, uint32_t& size) override {
    const uint32_t result = ReadContainerHead(&elem_type, nullptr, &size);
    TSet set(elem_type, size);
    checkReadBytesAvailable(set);
    return result;
  }
  uint32_t readMapBegin_virt(TType& key_type, TType& value_type, uint32_t& size) override {
    const uint32_t result = ReadContainerHead(&key_type, &value_type, &size);
    TMap map(key_type, value_type, size);
    checkReadBytesAvailable(map);
    return result;
  }

 private:
  // One or two type bytes and a size, refused as libthrift refuses them.
  uint32_t ReadContainerHead(TType* first, TType* second, uint32_t* size) {
    int8_t code;
    uint32_t result = readByte(code);
    *first = TypeOfCode(code);
    if (second != nullptr) {
      result += readByte(code);
      *second = TypeOfCode(code);
    }
    int32_t signed_size;
    result += readI32(signed_size);
    if (signed_size < 0) throw TProtocolException(TProtocolException::NEGATIVE_SIZE);
    if (container_limit_ && signed_size > container_limit_) {
      throw TProtocolException(TProtocolException::SIZE_LIMIT);
    }
    *size = static_cast<uint32_t>(signed_size);
    return result;
  }

  uint32_t ReadBytes(std::string& str) {
    int32_t size;
    const uint32_t header = readI32(size);
    CheckString(size);
    return header + readStringBody(str, size);  // negative sizes and the limit: libthrift's
  }
};

class CompactReader : public BoundedReader<TCompactProtocolT<TMemoryBuffer>> {
 public:
  using BoundedReader::BoundedReader;

  uint32_t readString_virt(std::string& str) override { return ReadBytes(str); }
  uint32_t readBinary_virt(std::string& str) override { return ReadBytes(str); }

 private:
  // As libthrift's readBinary, but straight from the message instead of through a string buffer
  // that grew to the largest string read and stayed that big for the connection's life.
  uint32_t ReadBytes(std::string& str) {
    int32_t size;
    const uint32_t header = readVarint32(size);
    if (size == 0) {
      str.clear();
      return header;
    }
    if (size < 0) throw TProtocolException(TProtocolException::NEGATIVE_SIZE);
    if (string_limit_ > 0 && size > string_limit_) {
      throw TProtocolException(TProtocolException::SIZE_LIMIT);
    }
    CheckString(size);
    uint32_t got = static_cast<uint32_t>(size);
    const uint8_t* bytes = trans_->borrow(nullptr, &got);  // the whole message is in memory
    str.assign(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size));
    trans_->consume(static_cast<uint32_t>(size));
    return header + static_cast<uint32_t>(size);
  }
};

}  // namespace hbemu::server::wire_readers
