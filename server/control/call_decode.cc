// Reads calls and replies with the wire's bounded protocol readers over a view of the bytes: a
// generic walk of the argument struct (no generated types), so one decoder serves both services.

#include "server/control/call_decode.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>

#include <thrift/transport/TBufferTransports.h>

#include "server/limits.h"
#include "server/net/bounded_reader.h"

namespace hbemu::server::control {
namespace {

using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;
using apache::thrift::transport::TMemoryBuffer;
using wire_readers::CodeOfType;
using wire_readers::TypeOfCode;

// A decoded Thrift value, kept only as deep as the arguments that matter (a TScan's fields, a
// TGet's columns' families and qualifiers).
struct Value {
  TType type = apache::thrift::protocol::T_STOP;
  std::string s;
  int64_t i = 0;
  std::vector<std::pair<int16_t, Value>> fields;  // a struct
  std::vector<Value> items;                       // a list or set: the first kKeptItems
  int64_t count = 0;                              // a list or set: all its elements

  const Value* Field(int16_t id) const {
    for (const auto& f : fields) {
      if (f.first == id) return &f.second;
    }
    return nullptr;
  }
  bool IsString() const { return type == apache::thrift::protocol::T_STRING; }
  bool IsInt() const {
    return type == apache::thrift::protocol::T_I32 || type == apache::thrift::protocol::T_I64 ||
           type == apache::thrift::protocol::T_I16 || type == apache::thrift::protocol::T_BYTE;
  }
};

namespace p = apache::thrift::protocol;

// Structs and lists kept as deep as this (and the scalars in them); deeper ones are walked and
// dropped.
constexpr int kKeptDepth = 4;
// Values kept from one message, whatever its size: a struct of a million fields keeps the first
// ones only (the arguments and the fields that matter come first).
constexpr int kMaxKeptValues = 4096;

// Walks one message's values through the bounded wire readers (server/net/bounded_reader.h), so
// a length or count the message cannot hold is refused before anything is allocated for it, as
// on the wire, and every type code is checked before it is used. Only what the log needs is kept.
class Walker {
 public:
  explicit Walker(TProtocol* in) : in_(in) {}

  // Reads one value of type `code`; keeps it in *out when out is not null.
  void Read(int code, int depth, Value* out) {
    // Nesting walked at all, as on the wire (Limits::thrift_depth): a message nested deeper is
    // not a call of either IDL, and the walk must not take the stack with it.
    if (depth > CurrentLimits().thrift_depth) {
      throw p::TProtocolException(p::TProtocolException::DEPTH_LIMIT);
    }
    const bool nested = code == p::T_STRUCT || code == p::T_LIST || code == p::T_SET;
    if (out != nullptr && ((nested && depth > kKeptDepth) || kept_ >= kMaxKeptValues)) {
      out = nullptr;
    }
    if (out != nullptr) {
      ++kept_;
      out->type = static_cast<TType>(code);
    }
    switch (code) {
      case p::T_STRING: {
        std::string s;
        in_->readBinary(s);
        if (s.size() > DecodedCall::kKeptBytes) s.resize(DecodedCall::kKeptBytes);
        if (out != nullptr) out->s = std::move(s);
        break;
      }
      case p::T_BOOL: {
        bool b = false;
        in_->readBool(b);
        if (out != nullptr) out->i = b;
        break;
      }
      case p::T_BYTE: {
        int8_t x = 0;
        in_->readByte(x);
        if (out != nullptr) out->i = x;
        break;
      }
      case p::T_I16: {
        int16_t x = 0;
        in_->readI16(x);
        if (out != nullptr) out->i = x;
        break;
      }
      case p::T_I32: {
        int32_t x = 0;
        in_->readI32(x);
        if (out != nullptr) out->i = x;
        break;
      }
      case p::T_I64: {
        int64_t x = 0;
        in_->readI64(x);
        if (out != nullptr) out->i = x;
        break;
      }
      case p::T_DOUBLE: {
        double x = 0;
        in_->readDouble(x);
        break;
      }
      case p::T_STRUCT:
        ReadStruct(depth, out);
        break;
      case p::T_LIST:
      case p::T_SET:
        ReadList(code == p::T_LIST, depth, out);
        break;
      case p::T_MAP: {
        TType key_type, value_type;
        uint32_t size = 0;
        in_->readMapBegin(key_type, value_type, size);  // maps (attributes) are not kept
        for (uint32_t k = 0; k < size; ++k) {
          Read(CodeOfType(key_type), depth + 1, nullptr);
          Read(CodeOfType(value_type), depth + 1, nullptr);
        }
        in_->readMapEnd();
        break;
      }
      default:
        // STOP, VOID, U64, UTF8, UTF16: libthrift skips them by reading nothing.
        break;
    }
  }

 private:
  void ReadStruct(int depth, Value* out) {
    std::string name;
    in_->readStructBegin(name);
    for (;;) {
      TType type;
      int16_t id = 0;
      in_->readFieldBegin(name, type, id);
      const int code = CodeOfType(type);
      if (code == p::T_STOP) break;
      TypeOfCode(code);  // a reader that did not check it (compact checks its own)
      if (out != nullptr && kept_ < kMaxKeptValues) {
        out->fields.emplace_back(id, Value());
        Read(code, depth + 1, &out->fields.back().second);
      } else {
        Read(code, depth + 1, nullptr);
      }
      in_->readFieldEnd();
    }
    in_->readStructEnd();
  }

  void ReadList(bool list, int depth, Value* out) {
    TType type;
    uint32_t size = 0;
    if (list) {
      in_->readListBegin(type, size);
    } else {
      in_->readSetBegin(type, size);
    }
    const int code = CodeOfType(type);
    if (out != nullptr) out->count = size;
    for (uint32_t k = 0; k < size; ++k) {
      if (out != nullptr && k < DecodedCall::kKeptItems && kept_ < kMaxKeptValues) {
        out->items.emplace_back();
        Read(code, depth + 1, &out->items.back());
      } else {
        Read(code, depth + 1, nullptr);
      }
    }
    if (list) {
      in_->readListEnd();
    } else {
      in_->readSetEnd();
    }
  }

  TProtocol* const in_;
  int kept_ = 0;
};

Value ReadArgs(TProtocol* in) {
  Value args;
  Walker(in).Read(p::T_STRUCT, 0, &args);
  return args;
}

// The wire's own readers over a view of the message, with the wire's limits for its size.
std::unique_ptr<TProtocol> Reader(const uint8_t* data, size_t length, WireProtocol protocol) {
  const uint32_t size = static_cast<uint32_t>(std::min<size_t>(length, UINT32_MAX));
  auto buffer = std::make_shared<TMemoryBuffer>(const_cast<uint8_t*>(data), size,
                                                TMemoryBuffer::OBSERVE);
  const int32_t limit = static_cast<int32_t>(std::min<size_t>(length, INT32_MAX));
  const uint64_t budget = wire_readers::DecodedBudget(length);
  if (protocol == WireProtocol::kCompact) {
    auto reader = std::make_unique<wire_readers::CompactReader>(buffer);
    reader->SetLimits(limit, budget);
    return reader;
  }
  auto reader = std::make_unique<wire_readers::BinaryReader>(buffer);
  reader->SetLimits(limit, budget);
  return reader;
}

// A message's type, read as an int: the binary reader stores whatever byte arrived.
int MessageTypeCode(const TMessageType& type) {
  int code;
  static_assert(sizeof(code) == sizeof(type), "TMessageType is an int-sized enum");
  std::memcpy(&code, &type, sizeof(code));
  return code;
}

// Thrift2's TTableName {1: ns, 2: qualifier}, as HBase prints a table name.
std::string TableNameOf(const Value& v) {
  const Value* ns = v.Field(1);
  const Value* qualifier = v.Field(2);
  if (qualifier == nullptr || !qualifier->IsString()) return "";
  if (ns == nullptr || !ns->IsString() || ns->s.empty() || ns->s == "default") return qualifier->s;
  return ns->s + ":" + qualifier->s;
}

void AddColumnText(const Value& column, DecodedCall* out) {
  if (out->columns.size() >= DecodedCall::kKeptItems) return;
  if (column.IsString()) {
    out->columns.push_back(column.s);
  } else if (const Value* family = column.Field(1); family != nullptr && family->IsString()) {
    // Thrift2 TColumn {1: family, 2: qualifier}
    const Value* qualifier = column.Field(2);
    out->columns.push_back(qualifier != nullptr && qualifier->IsString()
                               ? family->s + ":" + qualifier->s
                               : family->s);
  } else if (const Value* name = column.Field(2); name != nullptr && name->IsString()) {
    out->columns.push_back(name->s);  // Thrift1 Mutation {2: column}
  }
}

void AddColumns(const Value* list, DecodedCall* out) {
  if (list == nullptr) return;
  for (const Value& c : list->items) AddColumnText(c, out);
}

std::string StringField(const Value& v, int16_t id) {
  const Value* f = v.Field(id);
  return f != nullptr && f->IsString() ? f->s : "";
}

int64_t IntField(const Value& v, int16_t id, int64_t fallback) {
  const Value* f = v.Field(id);
  return f != nullptr && f->IsInt() ? f->i : fallback;
}

// A scan's fields: TScan of Thrift1 {1 start, 2 stop, 4 columns, 5 caching, 6 filter,
// 7 batch} and of Thrift2 {1 start, 2 stop, 3 columns, 4 caching, 7 filter, 8 batch}.
void FromScan(const std::string& service, const Value& scan, DecodedCall* out) {
  const bool t1 = service == "thrift1";
  out->row = StringField(scan, 1);
  out->stop_row = StringField(scan, 2);
  AddColumns(scan.Field(t1 ? 4 : 3), out);
  out->caching = IntField(scan, t1 ? 5 : 4, -1);
  out->filter = StringField(scan, t1 ? 6 : 7);
  out->batch_size = IntField(scan, t1 ? 7 : 8, -1);
}

// A Thrift2 single-row request (TGet, TPut, TDelete, TIncrement, TAppend, TRowMutations): the
// row is field 1; TGet's columns are 2 and filter 6; the others' columns are 2 too.
void FromRowRequest(const Value& request, DecodedCall* out) {
  out->row = StringField(request, 1);
  if (const Value* columns = request.Field(2); columns != nullptr && columns->type == apache::thrift::protocol::T_LIST) {
    AddColumns(columns, out);
  }
  out->filter = StringField(request, 6);
}

void FromArgs(const std::string& service, const Value& args, DecodedCall* out) {
  const std::string& m = out->method;
  const Value* a1 = args.Field(1);
  const Value* a2 = args.Field(2);
  const Value* a3 = args.Field(3);
  const Value* a4 = args.Field(4);
  if (a1 != nullptr) {
    if (a1->IsString()) {
      out->table = a1->s;
    } else if (a1->IsInt()) {
      out->scanner_id = a1->i;  // scannerGet(List), scannerClose, getScannerRows, closeScanner
      if (a2 != nullptr && a2->IsInt()) out->num_rows = a2->i;
    } else if (a1->type == apache::thrift::protocol::T_STRUCT) {
      if (service == "thrift1") {
        // increment(TIncrement) / append(TAppend): {1 table, 2 row, ...}
        out->table = StringField(*a1, 1);
        out->row = StringField(*a1, 2);
      } else if (const Value* name = a1->Field(1); name != nullptr && name->type == apache::thrift::protocol::T_STRUCT) {
        out->table = TableNameOf(*name);  // TTableDescriptor {1: TTableName}
      } else {
        out->table = TableNameOf(*a1);
      }
    } else if (a1->type == apache::thrift::protocol::T_LIST && service == "thrift1") {
      // incrementRows(list<TIncrement>)
      for (const Value& item : a1->items) {
        if (out->table.empty()) out->table = StringField(item, 1);
        out->rows.push_back(StringField(item, 2));
      }
      out->row_count = a1->count;
    }
  }
  if (a2 == nullptr) return;
  if (a2->IsString()) {
    out->row = a2->s;  // a row, or a Thrift1 scan's start row
  } else if (a2->type == apache::thrift::protocol::T_STRUCT) {
    const bool scan = m == "scannerOpenWithScan" || m == "openScanner" || m == "getScannerResults";
    if (scan) {
      FromScan(service, *a2, out);
    } else {
      FromRowRequest(*a2, out);
    }
  } else if (a2->type == apache::thrift::protocol::T_LIST) {
    // getRows(s), mutateRows, getMultiple, putMultiple, deleteMultiple, existsAll
    for (const Value& item : a2->items) {
      out->rows.push_back(item.IsString() ? item.s : StringField(item, 1));
    }
    out->row_count = a2->count;
    if (!out->rows.empty()) out->row = out->rows.front();
  }
  if (service != "thrift1") {
    if (m == "getScannerResults" && a3 != nullptr && a3->IsInt()) out->num_rows = a3->i;
    return;
  }
  // Thrift1 positional arguments after the row.
  const bool with_stop = m == "scannerOpenWithStop" || m == "scannerOpenWithStopTs";
  if (with_stop && a3 != nullptr && a3->IsString()) out->stop_row = a3->s;
  const Value* columns = with_stop ? a4 : a3;
  if (columns != nullptr && columns->type == apache::thrift::protocol::T_LIST) {
    AddColumns(columns, out);
  } else if (a3 != nullptr && a3->IsString() && !with_stop) {
    AddColumnText(*a3, out);  // get(table, row, column), atomicIncrement(table, row, column)
  }
}

}  // namespace

std::vector<const std::string*> DecodedCall::MatchRows() const {
  std::vector<const std::string*> out;
  if (rows.empty()) out.push_back(&row);
  for (const std::string& r : rows) out.push_back(&r);
  return out;
}

DecodedCall DecodeCall(const std::string& service, const uint8_t* message, size_t length,
                       WireProtocol protocol) {
  DecodedCall out;
  try {
    auto in = Reader(message, length, protocol);
    TMessageType type;
    in->readMessageBegin(out.method, type, out.seqid);
    const Value args = ReadArgs(in.get());
    FromArgs(service, args, &out);
    out.decoded = true;
  } catch (const std::exception&) {
    // Not a call this reader understands: the processor will say why.
  }
  return out;
}

DecodedReply DecodeReply(const std::string& service, const uint8_t* reply, size_t length,
                         WireProtocol protocol) {
  DecodedReply out;
  if (length == 0) return out;
  try {
    auto in = Reader(reply, length, protocol);
    std::string name;
    TMessageType type;
    int32_t seqid = 0;
    in->readMessageBegin(name, type, seqid);
    const Value result = ReadArgs(in.get());
    if (MessageTypeCode(type) == apache::thrift::protocol::T_EXCEPTION) {
      out.error = true;
      out.exception = "TApplicationException";
      out.message = StringField(result, 1);
      return out;
    }
    for (const auto& [id, value] : result.fields) {
      if (id == 0 && value.IsInt()) out.success_int = value.i;
      if (id == 0 || value.type != apache::thrift::protocol::T_STRUCT) continue;
      out.error = true;
      out.message = StringField(value, 1);
      const bool t1 = service == "thrift1";
      // Both IDLs declare the IO error first and the illegal argument second.
      out.exception = id == 1 ? (t1 ? "IOError" : "TIOError")
                      : id == 2 ? (t1 ? "IllegalArgument" : "TIllegalArgument")
                                : "AlreadyExists";
      const size_t colon = out.message.find(": ");
      const std::string head = out.message.substr(0, colon);
      if (colon != std::string::npos && head.find(' ') == std::string::npos &&
          head.find('.') != std::string::npos) {
        out.error_class = head;
      }
      break;
    }
  } catch (const std::exception&) {
    out.error = true;
    out.message = "reply not readable";
  }
  return out;
}

}  // namespace hbemu::server::control
