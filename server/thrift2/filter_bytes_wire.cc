// Why protobuf refused some bytes, in the words of Java's parser. C++ protobuf only says
// "failed"; HBase's clients see protobuf-java's InvalidProtocolBufferException texts, so the
// bytes are walked again here, the way Java's parser reads them, up to the first fault.

#include <cstdint>
#include <string>
#include <string_view>

#include <google/protobuf/descriptor.h>

#include "server/thrift2/filter_bytes.h"

namespace hbemu::server::thrift2_filter_bytes {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

constexpr char kTruncated[] =
    "While parsing a protocol message, the input ended unexpectedly in the middle of a field.  "
    "This could mean either that the input has been truncated or that an embedded message "
    "misreported its own length.";
constexpr char kNegativeSize[] =
    "CodedInputStream encountered an embedded string or message which claimed to have negative "
    "size.";
constexpr char kMalformedVarint[] = "CodedInputStream encountered a malformed varint.";
constexpr char kInvalidTag[] = "Protocol message contained an invalid tag (zero).";
constexpr char kInvalidEndTag[] = "Protocol message end-group tag did not match expected tag.";
constexpr char kInvalidWireType[] = "Protocol message tag had invalid wire type.";
constexpr char kTooDeep[] =
    "Protocol message had too many levels of nesting.  May be malicious.  Use "
    "CodedInputStream.setRecursionLimit() to increase the depth limit.";
constexpr int kRecursionLimit = 100;  // CodedInputStream's default

class Walker {
 public:
  explicit Walker(std::string_view in) : in_(in) {}

  // Reads one message (or group, when end_group_field > 0) to its end. Returns the fault's
  // text, or nullptr when the bytes are well formed as far as Java reads them.
  const char* Message(const Descriptor* type, int depth, uint32_t end_group_field) {
    while (pos_ < in_.size()) {
      uint64_t tag = 0;
      if (const char* fault = Varint(&tag)) return fault;
      const uint32_t field = static_cast<uint32_t>(tag) >> 3;
      const uint32_t wire_type = static_cast<uint32_t>(tag) & 7;
      if (field == 0) return kInvalidTag;
      if (wire_type == 4) {  // end group: ends this message or group; must be the one open
        return field == end_group_field ? nullptr : kInvalidEndTag;
      }
      const FieldDescriptor* fd = type == nullptr ? nullptr : type->FindFieldByNumber(field);
      if (const char* fault = Field(fd, field, wire_type, depth)) return fault;
    }
    return end_group_field == 0 ? nullptr : kTruncated;
  }

  // Occurrences of `field` at this level, up to the first fault or end-group.
  int64_t Count(uint32_t field) {
    int64_t count = 0;
    while (pos_ < in_.size()) {
      uint64_t tag = 0;
      if (Varint(&tag) != nullptr) break;
      const uint32_t number = static_cast<uint32_t>(tag) >> 3;
      const uint32_t wire_type = static_cast<uint32_t>(tag) & 7;
      if (number == 0 || wire_type == 4) break;
      if (number == field) ++count;
      if (Field(nullptr, number, wire_type, 0) != nullptr) break;
    }
    return count;
  }

 private:
  const char* Field(const FieldDescriptor* fd, uint32_t field, uint32_t wire_type, int depth) {
    uint64_t ignored = 0;
    switch (wire_type) {
      case 0:
        return Varint(&ignored);
      case 1:
        return Skip(8);
      case 5:
        return Skip(4);
      case 3:
        if (depth + 1 >= kRecursionLimit) return kTooDeep;
        return Message(nullptr, depth + 1, field);
      case 2: {
        uint64_t length = 0;
        if (const char* fault = Varint(&length)) return fault;
        if (static_cast<int32_t>(length) < 0) return kNegativeSize;
        if (length > in_.size() - pos_) return kTruncated;
        const std::string_view inner = in_.substr(pos_, length);
        pos_ += length;
        if (fd == nullptr) return nullptr;
        if (fd->type() == FieldDescriptor::TYPE_MESSAGE) {
          if (depth + 1 >= kRecursionLimit) return kTooDeep;
          return Walker(inner).Message(fd->message_type(), depth + 1, 0);
        }
        if (fd->is_repeated() && fd->cpp_type() != FieldDescriptor::CPPTYPE_STRING) {
          Walker packed(inner);  // packed varints
          while (packed.pos_ < inner.size()) {
            if (const char* fault = packed.Varint(&ignored)) return fault;
          }
        }
        return nullptr;
      }
      default:
        return kInvalidWireType;
    }
  }

  // Up to ten bytes; a tenth with its continuation bit set is malformed.
  const char* Varint(uint64_t* value) {
    *value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos_ >= in_.size()) return kTruncated;
      const uint8_t byte = static_cast<uint8_t>(in_[pos_++]);
      if (shift < 64) *value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return nullptr;
    }
    return kMalformedVarint;
  }

  const char* Skip(size_t n) {
    if (in_.size() - pos_ < n) return kTruncated;
    pos_ += n;
    return nullptr;
  }

  std::string_view in_;
  size_t pos_ = 0;
};

}  // namespace

std::string ParseFailureText(std::string_view bytes, const std::string& message) {
  const Descriptor* type =
      google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(message);
  const char* fault = Walker(bytes).Message(type, 0, 0);
  // Nothing Java would trip over (C++ refused something Java tolerates): the commonest text.
  return fault != nullptr ? fault : kTruncated;
}

int64_t CountField(std::string_view bytes, uint32_t field) { return Walker(bytes).Count(field); }

}  // namespace hbemu::server::thrift2_filter_bytes
