#include "server/net/message_skimmer.h"

#include "server/limits.h"

#include <algorithm>
#include <climits>
#include <utility>

namespace hbemu::server {
namespace {

SkimResult Completed(size_t bytes) {
  SkimResult result;
  result.status = SkimResult::Status::kComplete;
  result.bytes = bytes;
  return result;
}

// libthrift's TType numbers (thrift/protocol/TEnum.h); the skimmer speaks in them so that both
// protocols share one walk.
constexpr int kStop = 0, kVoid = 1, kBool = 2, kByte = 3, kDouble = 4, kI16 = 6, kI32 = 8,
              kI64 = 10, kString = 11, kStruct = 12, kMap = 13, kSet = 14, kList = 15;
constexpr size_t kMaxVarintBytes = 10;

// Types whose values libthrift's skip() can step over; anything else is "invalid TType".
bool Skippable(int type) {
  switch (type) {
    case kBool: case kByte: case kDouble: case kI16: case kI32: case kI64: case kString:
    case kStruct: case kMap: case kSet: case kList:
      return true;
    default:
      return false;
  }
}

}  // namespace

// Reads from data[pos, size) without ever looking past `size` or accepting past `limit`. The
// first failure is recorded and every later read fails too, so a step can read on and check once.
class MessageSkimmer::Cursor {
 public:
  Cursor(const uint8_t* data, size_t size, size_t pos, size_t limit)
      : data_(data), size_(size), pos_(pos), limit_(limit) {}

  size_t pos() const { return pos_; }
  void Seek(size_t pos) { pos_ = pos; }
  bool ok() const { return result_.status == SkimResult::Status::kComplete; }
  SkimResult& result() { return result_; }

  // Steps over n bytes; *at (optional) points at them.
  bool Take(size_t n, const uint8_t** at = nullptr) {
    if (!ok()) return false;
    const size_t needed = pos_ + n;
    if (needed > limit_) {  // n comes from a 32-bit size, so the sum cannot wrap
      Fail(SkimResult::Status::kTooLarge, needed,
           "message needs at least " + std::to_string(needed) + " bytes");
      return false;
    }
    if (needed > size_) {
      Fail(SkimResult::Status::kNeedMore, needed, "");
      return false;
    }
    if (at != nullptr) *at = data_ + pos_;
    pos_ = needed;
    return true;
  }

  bool Byte(uint8_t* out) {
    const uint8_t* at;
    if (!Take(1, &at)) return false;
    *out = *at;
    return true;
  }

  bool BigEndian32(int32_t* out) {
    const uint8_t* p;
    if (!Take(4, &p)) return false;
    *out = static_cast<int32_t>((uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) |
                                (uint32_t{p[2]} << 8) | p[3]);
    return true;
  }

  // A compact-protocol varint, read as libthrift's readVarint64 does (at most 10 bytes).
  bool Varint(uint64_t* out) {
    uint64_t value = 0;
    for (size_t i = 0;; ++i) {
      uint8_t byte;
      if (!Byte(&byte)) return false;
      value |= uint64_t{byte & 0x7fu} << (7 * i);
      if ((byte & 0x80) == 0) break;
      if (i + 1 == kMaxVarintBytes) return Malformed("Variable-length int over 10 bytes.");
    }
    *out = value;
    return true;
  }

  // libthrift's readVarint32: the low 32 bits of the varint, as a signed size.
  bool Varint32(int32_t* out) {
    uint64_t value;
    if (!Varint(&value)) return false;
    *out = static_cast<int32_t>(static_cast<uint32_t>(value));
    return true;
  }

  // Reserves `bytes` more without stepping over them: a container's elements need at least this
  // much, so a claim past the limit fails now and a short buffer waits for all of it at once.
  bool Expect(uint64_t bytes) {
    if (!ok()) return false;
    const uint64_t needed = pos_ + bytes;
    if (needed > limit_) {
      Fail(SkimResult::Status::kTooLarge, static_cast<size_t>(needed),
           "a container claims at least " + std::to_string(needed) + " bytes");
      return false;
    }
    if (needed > size_) {
      Fail(SkimResult::Status::kNeedMore, static_cast<size_t>(needed), "");
      return false;
    }
    return true;
  }

  bool Malformed(std::string error) {
    if (ok()) Fail(SkimResult::Status::kMalformed, 0, std::move(error));
    return false;
  }

  // Malformed in a way Java's processor answers (SkimResult::answer_after): it read up to here.
  bool Answerable(std::string error) {
    if (!ok()) return false;
    Fail(SkimResult::Status::kMalformed, 0, std::move(error));
    result_.answer_after = pos_;
    return false;
  }

 private:
  void Fail(SkimResult::Status status, size_t bytes, std::string error) {
    result_.status = status;
    result_.bytes = bytes;
    result_.error = std::move(error);
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_;
  size_t limit_;
  SkimResult result_ = Completed(0);  // kComplete = no failure yet
};

const char* WireProtocolName(WireProtocol protocol) {
  return protocol == WireProtocol::kCompact ? "compact" : "binary";
}

MessageSkimmer::MessageSkimmer(WireProtocol protocol, size_t max_message_bytes)
    : protocol_(protocol),
      max_message_bytes_(max_message_bytes),
      max_depth_(static_cast<size_t>(CurrentLimits().thrift_depth)) {}

void MessageSkimmer::Reset() {
  header_done_ = false;
  position_ = 0;
  stack_.clear();
  pending_type_ = -1;
  pending_in_field_ = false;
}

bool MessageSkimmer::Answerable(Cursor& in, std::string error) {
  in.Answerable(std::move(error));
  in.result().name = name_;
  in.result().seqid = seqid_;
  return false;
}

SkimResult MessageSkimmer::Skim(const uint8_t* data, size_t size) {
  // One cursor for every step: a step that fails ends the skim, and one that succeeds leaves
  // the cursor where position_ now is (a cursor per step was a fifth of the skim's time).
  Cursor in(data, size, position_, max_message_bytes_);
  for (;;) {
    if (header_done_ && stack_.empty()) return Completed(position_);
    if (protocol_ == WireProtocol::kBinary && header_done_ && pending_type_ < 0 &&
        stack_.back().kind == Frame::Kind::kStruct && BinaryFields(data, size)) {
      in.Seek(position_);
      continue;
    }
    if (!Step(in)) return std::move(in.result());
    position_ = in.pos();
  }
}

// Steps over whole binary-protocol fields of the types a struct mostly holds (numbers, bools,
// strings), header and value at once, as long as each lies wholly within the bytes at hand and
// the limit; Step takes whatever else comes (containers, structs, the stop byte, a short
// buffer, an error) and says what is wrong with it. A 1,000-row mutateRows spent a fifth of
// its server time in the skim, with two Steps per field.
bool MessageSkimmer::BinaryFields(const uint8_t* data, size_t size) {
  if (stack_.size() + 1 > max_depth_) return false;  // Value's depth check; Step reports it
  const size_t limit = std::min(size, max_message_bytes_);
  const size_t start = position_;
  size_t p = position_;
  for (;;) {
    if (limit - p < 3) break;  // type and field id
    const uint8_t type = data[p];
    size_t value_bytes;
    switch (type) {
      case kBool: case kByte: value_bytes = 1; break;
      case kI16: value_bytes = 2; break;
      case kI32: value_bytes = 4; break;
      case kDouble: case kI64: value_bytes = 8; break;
      case kString: {
        if (limit - p < 7) return Advance(start, p);
        const uint8_t* n = data + p + 3;
        const int32_t length = static_cast<int32_t>((uint32_t{n[0]} << 24) |
                                                    (uint32_t{n[1]} << 16) |
                                                    (uint32_t{n[2]} << 8) | n[3]);
        if (length < 0) return Advance(start, p);
        value_bytes = 4 + static_cast<size_t>(length);
        break;
      }
      default:
        return Advance(start, p);
    }
    if (limit - p - 3 < value_bytes) break;
    p += 3 + value_bytes;
  }
  return Advance(start, p);
}

bool MessageSkimmer::Advance(size_t start, size_t to) {
  position_ = to;
  return to != start;
}

bool MessageSkimmer::Step(Cursor& in) {
  if (!header_done_) return Header(in);
  if (pending_type_ >= 0) {
    if (!Value(in, static_cast<uint8_t>(pending_type_))) return false;
    pending_type_ = -1;
    pending_in_field_ = false;
    return true;
  }
  const size_t top = stack_.size() - 1;
  if (stack_[top].kind == Frame::Kind::kStruct) return FieldHeader(in);
  if (stack_[top].remaining == 0) {
    stack_.pop_back();
    return true;
  }
  // Even-numbered values of a map entry are keys; a list's are all "keys".
  const Frame& frame = stack_[top];
  const bool key = frame.kind == Frame::Kind::kList || frame.remaining % 2 == 0;
  if (!Value(in, key ? frame.key_type : frame.value_type)) return false;
  stack_[top].remaining--;  // by index: Value() may have grown the stack
  return true;
}

bool MessageSkimmer::Header(Cursor& in) {
  if (protocol_ == WireProtocol::kBinary) {
    int32_t first;
    if (!in.BigEndian32(&first)) return false;
    int32_t name_size = first;
    if (first < 0) {
      // Strict: version and type, then the name.
      if ((static_cast<uint32_t>(first) & 0xffff0000u) != 0x80010000u) {
        return in.Malformed("Bad version identifier");
      }
      if (!in.BigEndian32(&name_size)) return false;
    }
    if (name_size < 0) return in.Malformed("Negative size");
    const uint8_t* name;
    if (!in.Take(static_cast<size_t>(name_size), &name)) return false;
    name_.assign(reinterpret_cast<const char*>(name), static_cast<size_t>(name_size));
    // Non-strict messages carry the type after the name.
    if (first >= 0 && !in.Take(1)) return false;
    if (!in.BigEndian32(&seqid_)) return false;
  } else {
    uint8_t id, version_and_type;
    if (!in.Byte(&id)) return false;
    if (id != 0x82) return in.Malformed("Bad protocol identifier");
    if (!in.Byte(&version_and_type)) return false;
    if ((version_and_type & 0x1f) != 1) return in.Malformed("Bad protocol version");
    uint64_t seqid;
    int32_t name_size;
    if (!in.Varint(&seqid) || !in.Varint32(&name_size)) return false;
    if (name_size < 0) return in.Malformed("Negative size");
    if (!in.Take(static_cast<size_t>(name_size))) return false;
  }
  header_done_ = true;
  stack_.push_back(Frame{Frame::Kind::kStruct});  // the arguments (or result)
  return true;
}

bool MessageSkimmer::FieldHeader(Cursor& in) {
  uint8_t type_byte;
  if (!in.Byte(&type_byte)) return false;
  if (protocol_ == WireProtocol::kBinary) {
    if (type_byte == kStop) {
      stack_.pop_back();
      return true;
    }
    if (!in.Take(2)) return false;  // field id
    if (!Skippable(type_byte)) {
      return Answerable(in, "Unrecognized type " +
                                std::to_string(static_cast<int>(static_cast<int8_t>(type_byte))));
    }
    pending_type_ = type_byte;
    return true;
  }
  const uint8_t code = type_byte & 0x0f;
  if (code == 0) {
    stack_.pop_back();
    return true;
  }
  uint64_t field_id;
  if ((type_byte >> 4) == 0 && !in.Varint(&field_id)) return false;  // no delta: id follows
  const int type = TypeOf(code);
  if (type < 0) return in.Malformed("don't know what type: " + std::to_string(code));
  pending_type_ = type;
  pending_in_field_ = type == kBool;  // the value is the type code itself
  return true;
}

bool MessageSkimmer::Value(Cursor& in, uint8_t type) {
  if (stack_.size() + 1 > max_depth_) return in.Malformed("Depth limit exceeded");
  const bool compact = protocol_ == WireProtocol::kCompact;
  switch (type) {
    case kBool:
      return pending_in_field_ ? true : in.Take(1);
    case kByte:
      return in.Take(1);
    case kDouble:
      return in.Take(8);
    case kI16:
    case kI32:
    case kI64: {
      if (compact) {
        uint64_t value;
        return in.Varint(&value);
      }
      return in.Take(type == kI16 ? 2 : type == kI32 ? 4 : 8);
    }
    case kString: {
      int32_t size;
      if (!(compact ? in.Varint32(&size) : in.BigEndian32(&size))) return false;
      if (size < 0) {
        return compact ? in.Malformed("Negative size")
                       : Answerable(in, "Negative length: " + std::to_string(size));
      }
      return in.Take(static_cast<size_t>(size));
    }
    case kStruct:
      stack_.push_back(Frame{Frame::Kind::kStruct});
      return true;
    case kMap:
    case kSet:
    case kList:
      return ContainerHeader(in, type);
    default:
      return in.Malformed("invalid TType");
  }
}

bool MessageSkimmer::ContainerHeader(Cursor& in, uint8_t type) {
  int32_t size;
  int key_type, value_type = kStop;
  if (protocol_ == WireProtocol::kBinary) {
    uint8_t first, second = 0;
    if (!in.Byte(&first)) return false;
    if (type == kMap && !in.Byte(&second)) return false;
    if (!in.BigEndian32(&size)) return false;
    key_type = TypeOf(first);
    if (type == kMap) value_type = TypeOf(second);
  } else if (type == kMap) {
    uint8_t types = 0;
    if (!in.Varint32(&size)) return false;
    if (size != 0 && !in.Byte(&types)) return false;
    key_type = TypeOf(types >> 4);
    value_type = TypeOf(types & 0x0f);
  } else {
    uint8_t size_and_type;
    if (!in.Byte(&size_and_type)) return false;
    size = size_and_type >> 4;
    if (size == 15 && !in.Varint32(&size)) return false;
    key_type = TypeOf(size_and_type & 0x0f);
  }
  if (size < 0) {
    return protocol_ == WireProtocol::kCompact
               ? in.Malformed("Negative size")
               : Answerable(in, "Negative length: " + std::to_string(size));
  }
  if (key_type < 0 || value_type < 0) return in.Malformed("unknown element type");
  if (size > 0 && !(Skippable(key_type) && (type != kMap || Skippable(value_type)))) {
    return in.Malformed("invalid TType");
  }
  const uint64_t per_entry = MinBytes(key_type) + (type == kMap ? MinBytes(value_type) : 0);
  if (!in.Expect(static_cast<uint64_t>(size) * per_entry)) return false;
  Frame frame{type == kMap ? Frame::Kind::kMap : Frame::Kind::kList};
  frame.key_type = static_cast<uint8_t>(key_type);
  frame.value_type = static_cast<uint8_t>(value_type);
  frame.remaining = static_cast<uint64_t>(size) * (type == kMap ? 2 : 1);
  stack_.push_back(frame);
  return true;
}

int MessageSkimmer::TypeOf(uint8_t wire_type) const {
  if (protocol_ == WireProtocol::kBinary) {
    // The types libthrift's binary reader can size (getMinSerializedSize).
    switch (wire_type) {
      case kStop: case kVoid: case kBool: case kByte: case kDouble: case kI16: case kI32:
      case kI64: case kString: case kStruct: case kMap: case kSet: case kList:
        return wire_type;
      default:
        return -1;
    }
  }
  static constexpr int kCompactTypes[] = {kStop,   kBool,   kBool, kByte, kI16, kI32, kI64,
                                          kDouble, kString, kList, kSet,  kMap, kStruct};
  return wire_type < sizeof(kCompactTypes) / sizeof(kCompactTypes[0]) ? kCompactTypes[wire_type]
                                                                      : -1;
}

// The fewest bytes a value of the type takes; a lower bound used to ask for a container's bytes
// early and to refuse a claim that cannot fit.
uint64_t MessageSkimmer::MinBytes(int type) const {
  const bool compact = protocol_ == WireProtocol::kCompact;
  switch (type) {
    case kBool: case kByte: case kStruct:  // a struct holds at least its stop byte
      return 1;
    case kDouble:
      return 8;
    case kI16:
      return compact ? 1 : 2;
    case kI32: case kString: case kMap: case kSet: case kList:
      return compact ? 1 : 4;
    case kI64:
      return compact ? 1 : 8;
    default:
      return 0;
  }
}

SkimResult SkimMessage(WireProtocol protocol, const uint8_t* data, size_t size,
                       size_t max_message_bytes) {
  MessageSkimmer skimmer(protocol, max_message_bytes);
  return skimmer.Skim(data, size);
}

}  // namespace hbemu::server
