// Reads calls and replies with libthrift's protocol readers over a view of the bytes: a generic
// walk of the argument struct (no generated types), so one decoder serves both services.

#include "server/control/call_decode.h"

#include <memory>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

namespace hbemu::server::control {
namespace {

using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;
using apache::thrift::transport::TMemoryBuffer;

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

constexpr int kMaxDepth = 4;

Value Read(TProtocol* in, TType type, int depth) {
  namespace p = apache::thrift::protocol;
  Value v;
  v.type = type;
  if (depth > kMaxDepth && (type == p::T_STRUCT || type == p::T_LIST || type == p::T_SET ||
                            type == p::T_MAP)) {
    in->skip(type);
    return v;
  }
  switch (type) {
    case p::T_STRING: {
      in->readBinary(v.s);
      if (v.s.size() > DecodedCall::kKeptBytes) v.s.resize(DecodedCall::kKeptBytes);
      break;
    }
    case p::T_BOOL: {
      bool b = false;
      in->readBool(b);
      v.i = b;
      break;
    }
    case p::T_BYTE: {
      int8_t x = 0;
      in->readByte(x);
      v.i = x;
      break;
    }
    case p::T_I16: {
      int16_t x = 0;
      in->readI16(x);
      v.i = x;
      break;
    }
    case p::T_I32: {
      int32_t x = 0;
      in->readI32(x);
      v.i = x;
      break;
    }
    case p::T_I64: {
      int64_t x = 0;
      in->readI64(x);
      v.i = x;
      break;
    }
    case p::T_STRUCT: {
      std::string name;
      in->readStructBegin(name);
      for (;;) {
        TType ftype;
        int16_t id;
        in->readFieldBegin(name, ftype, id);
        if (ftype == p::T_STOP) break;
        v.fields.emplace_back(id, Read(in, ftype, depth + 1));
        in->readFieldEnd();
      }
      in->readStructEnd();
      break;
    }
    case p::T_LIST:
    case p::T_SET: {
      TType etype;
      uint32_t size = 0;
      if (type == p::T_LIST) {
        in->readListBegin(etype, size);
      } else {
        in->readSetBegin(etype, size);
      }
      v.count = size;
      for (uint32_t k = 0; k < size; ++k) {
        if (k < DecodedCall::kKeptItems) {
          v.items.push_back(Read(in, etype, depth + 1));
        } else {
          in->skip(etype);
        }
      }
      if (type == p::T_LIST) {
        in->readListEnd();
      } else {
        in->readSetEnd();
      }
      break;
    }
    default:
      in->skip(type);  // maps (attributes) and doubles say nothing the log keeps
  }
  return v;
}

std::unique_ptr<TProtocol> Reader(const uint8_t* data, size_t length, WireProtocol protocol) {
  auto buffer = std::make_shared<TMemoryBuffer>(const_cast<uint8_t*>(data),
                                                static_cast<uint32_t>(length),
                                                TMemoryBuffer::OBSERVE);
  if (protocol == WireProtocol::kCompact) {
    return std::make_unique<apache::thrift::protocol::TCompactProtocol>(buffer);
  }
  return std::make_unique<apache::thrift::protocol::TBinaryProtocol>(buffer);
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
    const Value args = Read(in.get(), apache::thrift::protocol::T_STRUCT, 0);
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
    const Value result = Read(in.get(), apache::thrift::protocol::T_STRUCT, 0);
    if (type == apache::thrift::protocol::T_EXCEPTION) {
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
