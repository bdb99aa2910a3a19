#include "server/net/message_skimmer.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <type_traits>

#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TVirtualTransport.h>

namespace hbemu::server {
namespace {

using apache::thrift::TConfiguration;
using apache::thrift::protocol::TProtocolException;
using apache::thrift::transport::TTransportException;

// Thrown by SpanTransport, caught by SkimMessage; never escapes this file. Deliberately not
// TTransportException, so "the bytes are not here yet" cannot be confused with anything libthrift
// itself throws.
struct Shortfall {
  size_t needed_total;
};
struct OverLimit {
  size_t needed_total;
};

// A read-only transport over bytes that may hold only part of a message. Running out of bytes is
// not an error here: it records how far the reader wanted to go.
class SpanTransport : public apache::thrift::transport::TVirtualTransport<SpanTransport> {
 public:
  SpanTransport(const uint8_t* data, size_t size, size_t limit,
                std::shared_ptr<TConfiguration> config)
      : TVirtualTransport(config), data_(data), size_(size), limit_(limit) {}

  bool isOpen() const override { return true; }
  void open() override {}
  void close() override {}

  uint32_t read(uint8_t* buf, uint32_t len) { return readAll(buf, len); }
  uint32_t readAll(uint8_t* buf, uint32_t len) {
    Require(len);
    std::memcpy(buf, data_ + pos_, len);
    pos_ += len;
    return len;
  }
  void write(const uint8_t*, uint32_t) {
    throw TTransportException(TTransportException::NOT_OPEN, "SpanTransport is read-only");
  }

  const uint8_t* borrow(uint8_t* buf, uint32_t* len) {
    size_t available = size_ - pos_;
    if (*len <= available) {
      *len = static_cast<uint32_t>(std::min<size_t>(available, UINT32_MAX));
      return data_ + pos_;
    }
    // TBinaryProtocol borrows a whole string with buf == nullptr and, if that fails, allocates the
    // claimed size before reading. Stopping here keeps a half-arrived (or lying) length from
    // costing an allocation, and tells the caller exactly how many bytes to wait for.
    if (buf == nullptr) Require(*len);
    // TCompactProtocol's varint reader offers its own buffer and falls back to byte-wise reads.
    return nullptr;
  }
  void consume(uint32_t len) {
    Require(len);
    pos_ += len;
  }
  void Skip(size_t len) {
    Require(len);
    pos_ += len;
  }

  size_t position() const { return pos_; }

  // Throws unless `len` more bytes are buffered and within the limit.
  void Require(size_t len) {
    size_t needed = pos_ + len;
    if (needed > limit_) throw OverLimit{needed};
    if (needed > size_) throw Shortfall{needed};
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t limit_;
  size_t pos_ = 0;
};

// libthrift's reader with two changes that matter for skimming, where the same growing buffer may
// be skimmed several times before a large message is complete:
// - Skipped strings are stepped over instead of copied out (libthrift's skip() reads every string
//   into a std::string). Length checks stay those of the protocol: negative is malformed, and a
//   length past the limit or the buffered bytes is caught by SpanTransport.
// - libthrift checks a container's claimed element count against its size limit in int
//   arithmetic, which overflows for large counts (2^30 i64s passes as 0 bytes). Redoing the check
//   in 64 bits also turns the count into a lower bound on the bytes still to come, so a big list
//   of fixed-size elements asks for most of itself at once.
template <class Base>
class SkimProtocol : public Base {
 public:
  template <class... BaseArgs>
  SkimProtocol(const std::shared_ptr<SpanTransport>& transport, BaseArgs... base_args)
      : Base(transport, base_args...), span_(transport.get()) {}

  // Hides Base::skip so that the recursive skip template instantiates on this class and picks up
  // readBinary below.
  uint32_t skip(apache::thrift::protocol::TType type) {
    return apache::thrift::protocol::skip(*this, type);
  }

  uint32_t readBinary(std::string& /*unused*/) {
    int32_t size;
    uint32_t header;
    if constexpr (std::is_same_v<Base, apache::thrift::protocol::TCompactProtocolT<SpanTransport>>) {
      header = this->readVarint32(size);
    } else {
      header = this->readI32(size);
    }
    if (size < 0) throw TProtocolException(TProtocolException::NEGATIVE_SIZE);
    span_->Skip(static_cast<size_t>(size));
    return header + static_cast<uint32_t>(size);
  }

 protected:
  void checkReadBytesAvailable(apache::thrift::protocol::TSet& set) override {
    Expect(set.size_, this->getMinSerializedSize(CheckedType(set.elemType_)));
  }
  void checkReadBytesAvailable(apache::thrift::protocol::TList& list) override {
    Expect(list.size_, this->getMinSerializedSize(CheckedType(list.elemType_)));
  }
  void checkReadBytesAvailable(apache::thrift::protocol::TMap& map) override {
    Expect(map.size_, this->getMinSerializedSize(CheckedType(map.keyType_)) +
                          this->getMinSerializedSize(CheckedType(map.valueType_)));
  }

 private:
  // libthrift stores the element-type byte of the input into its TType enum unchecked. Reading
  // that enum with a value outside its range is undefined behaviour, so look at the raw bytes.
  static apache::thrift::protocol::TType CheckedType(const apache::thrift::protocol::TType& stored) {
    std::underlying_type_t<apache::thrift::protocol::TType> raw;
    std::memcpy(&raw, &stored, sizeof(raw));
    switch (raw) {  // every value TEnum.h defines; an empty compact map reports T_STOP (0)
      case 0: case 1: case 2: case 3: case 4: case 6: case 8: case 9: case 10: case 11:
      case 12: case 13: case 14: case 15: case 16: case 17:
        return static_cast<apache::thrift::protocol::TType>(raw);
      default:
        throw TProtocolException(TProtocolException::INVALID_DATA, "unknown element type");
    }
  }

  void Expect(int64_t count, int64_t min_element_bytes) {
    // Counts are already known non-negative; the product fits easily in 64 bits.
    span_->Require(static_cast<size_t>(count * min_element_bytes));
  }

  SpanTransport* span_;
};

template <class Protocol>
size_t SkimWith(const std::shared_ptr<SpanTransport>& transport, Protocol& protocol) {
  std::string name;
  apache::thrift::protocol::TMessageType type;
  int32_t seqid;
  protocol.readMessageBegin(name, type, seqid);
  protocol.skip(apache::thrift::protocol::T_STRUCT);
  protocol.readMessageEnd();
  return transport->position();
}

}  // namespace

const char* WireProtocolName(WireProtocol protocol) {
  return protocol == WireProtocol::kCompact ? "compact" : "binary";
}

SkimResult SkimMessage(WireProtocol protocol, const uint8_t* data, size_t size,
                       size_t max_message_bytes) {
  using Status = SkimResult::Status;
  SkimResult result;
  // libthrift's own container-size checks compare against this; they never see a count of bytes
  // already read, so in effect they reject any one string or container claiming more than the limit.
  int limit_int = static_cast<int>(std::min<size_t>(max_message_bytes, INT_MAX));
  auto config = std::make_shared<TConfiguration>(limit_int);
  auto transport = std::make_shared<SpanTransport>(data, size, max_message_bytes, config);
  try {
    // The compact reader allocates a string's claimed size before reading it, so the claim must
    // be bounded up front. The binary one borrows first, which SpanTransport answers with the
    // exact size needed; no limit there keeps that size in the result.
    if (protocol == WireProtocol::kCompact) {
      SkimProtocol<apache::thrift::protocol::TCompactProtocolT<SpanTransport>> reader(
          transport, limit_int, /*container_limit=*/0);
      result.bytes = SkimWith(transport, reader);
    } else {
      SkimProtocol<apache::thrift::protocol::TBinaryProtocolT<SpanTransport>> reader(transport);
      result.bytes = SkimWith(transport, reader);
    }
    result.status = Status::kComplete;
  } catch (const Shortfall& s) {
    result.status = Status::kNeedMore;
    result.bytes = s.needed_total;
  } catch (const OverLimit& o) {
    result.status = Status::kTooLarge;
    result.bytes = o.needed_total;
    result.error = "message needs at least " + std::to_string(o.needed_total) + " bytes";
  } catch (const TProtocolException& e) {
    result.status = e.getType() == TProtocolException::SIZE_LIMIT ? Status::kTooLarge
                                                                   : Status::kMalformed;
    result.error = e.what();
  } catch (const TTransportException& e) {
    // Only libthrift's own size budget throws these here.
    result.status = Status::kTooLarge;
    result.error = e.what();
  } catch (const std::exception& e) {
    // TCompactProtocol reports unknown type codes as a bare TException.
    result.status = Status::kMalformed;
    result.error = e.what();
  }
  return result;
}

}  // namespace hbemu::server
