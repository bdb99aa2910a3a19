#include "server/thrift1/batch_mutations.h"

#include <algorithm>

#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TTransportException.h>

namespace hbemu::server {

using apache::thrift::protocol::TProtocolException;
using apache::thrift::protocol::TType;
using apache::thrift::transport::TMemoryBuffer;
using apache::thrift::transport::TTransportException;

namespace {

// TBinaryProtocol's readBinary, borrowing the bytes. A length beyond the message fails as
// "No more data to read." where readBinary, under WireSession's string limit (the message
// size), says SIZE_LIMIT: either way the call cannot be decoded and nothing is allocated.
std::string_view ReadBinaryView(BinaryCallProtocol* in, TMemoryBuffer* buffer) {
  int32_t size = 0;
  in->readI32(size);
  if (size < 0) throw TProtocolException(TProtocolException::NEGATIVE_SIZE);
  if (size == 0) return {};
  uint32_t len = static_cast<uint32_t>(size);
  const uint8_t* bytes = buffer->borrow(nullptr, &len);
  if (bytes == nullptr) {
    throw TTransportException(TTransportException::END_OF_FILE, "No more data to read.");
  }
  buffer->consume(static_cast<uint32_t>(size));
  return {reinterpret_cast<const char*>(bytes), static_cast<size_t>(size)};
}

// Type codes are read as bytes and checked before they become a TType: a byte outside the
// enum's values, loaded as one, is undefined behaviour (the fuzzer found it under UBSan).
constexpr int8_t kStop = apache::thrift::protocol::T_STOP;

// TBinaryProtocol's minimum size of a value of each type, for the container checks its
// readListBegin/readMapBegin make; -1 for a code it does not know ("unrecognized type code").
int MinSerializedSize(int8_t type) {
  using namespace apache::thrift::protocol;
  switch (type) {
    case T_STOP: case T_VOID: case T_STRUCT: return 0;
    case T_BOOL: case T_BYTE: return 1;
    case T_I16: return 2;
    case T_I32: case T_STRING: case T_MAP: case T_SET: case T_LIST: return 4;
    case T_DOUBLE: case T_I64: return 8;
    default: return -1;
  }
}

// skip() of a field the generated reader does not take; a type it cannot skip fails as skip()
// does.
void Skip(BinaryCallProtocol* in, int8_t type) {
  using namespace apache::thrift::protocol;
  switch (type) {
    case T_BOOL: case T_BYTE: case T_I16: case T_I32: case T_I64: case T_DOUBLE: case T_STRING:
    case T_STRUCT: case T_MAP: case T_SET: case T_LIST:
      in->skip(static_cast<TType>(type));
      return;
    default:
      throw TProtocolException(TProtocolException::INVALID_DATA, "invalid TType");
  }
}

// A container of `size` elements of at least `min_bytes` each must fit in what is left of the
// message, as TProtocol::checkReadBytesAvailable requires.
void CheckContainer(TMemoryBuffer* buffer, int32_t size, int min_bytes) {
  if (size < 0) throw TProtocolException(TProtocolException::NEGATIVE_SIZE);
  if (min_bytes < 0) {
    throw TProtocolException(TProtocolException::UNKNOWN, "unrecognized type code");
  }
  buffer->checkReadBytesAvailable(static_cast<long>(size) * min_bytes);
}

// Calls field(id, type) for each field of a struct; field returns false to have it skipped.
template <class Fn>
void ReadStruct(BinaryCallProtocol* in, Fn&& field) {
  for (;;) {
    int8_t type = 0;
    in->readByte(type);
    if (type == kStop) break;
    int16_t id = 0;
    in->readI16(id);
    if (!field(id, type)) Skip(in, type);
  }
}

// Calls element(size) once per element; as in the generated code, the declared element type
// is not checked against what the elements are read as.
template <class Fn>
void ReadList(BinaryCallProtocol* in, TMemoryBuffer* buffer, Fn&& element) {
  int8_t type = 0;
  int32_t size = 0;
  in->readByte(type);
  in->readI32(size);
  CheckContainer(buffer, size, MinSerializedSize(type));
  for (int32_t i = 0; i < size; ++i) element(static_cast<uint32_t>(size));
}

void ReadMutation(BinaryCallProtocol* in, TMemoryBuffer* buffer, BatchMutationsView* out) {
  BatchMutationsView::Mutation m;
  ReadStruct(in, [&](int16_t id, int8_t type) {
    switch (id) {
      case 1:
        if (type != apache::thrift::protocol::T_BOOL) return false;
        in->readBool(m.is_delete);
        return true;
      case 2:
        if (type != apache::thrift::protocol::T_STRING) return false;
        m.column = ReadBinaryView(in, buffer);
        return true;
      case 3:
        if (type != apache::thrift::protocol::T_STRING) return false;
        m.value = ReadBinaryView(in, buffer);
        return true;
      default:  // 4, writeToWAL: HBase's Thrift server ignores it too
        return false;
    }
  });
  out->AddMutation(m);
}

void ReadBatchMutation(BinaryCallProtocol* in, TMemoryBuffer* buffer, BatchMutationsView* out) {
  out->AddRow({});  // its row is set when that field arrives: fields may come in any order
  ReadStruct(in, [&](int16_t id, int8_t type) {
    if (id == 1 && type == apache::thrift::protocol::T_STRING) {
      out->SetLastRow(ReadBinaryView(in, buffer));
      return true;
    }
    if (id == 2 && type == apache::thrift::protocol::T_LIST) {
      out->DropMutationsOfLastRow();
      ReadList(in, buffer, [&](uint32_t) { ReadMutation(in, buffer, out); });
      return true;
    }
    return false;
  });
}

}  // namespace

void ReadMutateRowsArgs(BinaryCallProtocol* in, bool with_timestamp, MutateRowsArgsView* out,
                        const BatchRowSinkFor& sink_for) {
  // The template argument says the transport is a TMemoryBuffer (looked up once: getTransport
  // copies a shared_ptr).
  auto* buffer = static_cast<TMemoryBuffer*>(in->getTransport().get());
  out->table = {};
  out->rows.Clear();
  out->timestamp = 0;
  out->attributes.clear();
  const int16_t attributes_id = with_timestamp ? 4 : 3;
  bool table_seen = false;
  BatchRowSink* sink = nullptr;  // where the last rows field went, if not to out->rows
  BatchMutationsView one_row;    // with a sink: the row being read
  ReadStruct(in, [&](int16_t id, int8_t type) {
    if (id == 1 && type == apache::thrift::protocol::T_STRING) {
      out->table = ReadBinaryView(in, buffer);
      table_seen = true;
      if (sink != nullptr && sink_for(out->table) == nullptr) {
        throw TProtocolException(TProtocolException::INVALID_DATA,
                                 "mutateRows: the table came again after the rows");
      }
      return true;
    }
    if (id == 2 && type == apache::thrift::protocol::T_LIST) {
      out->rows.Clear();
      sink = table_seen && sink_for ? sink_for(out->table) : nullptr;
      if (sink != nullptr) {
        sink->Restart();
        ReadList(in, buffer, [&](uint32_t) {
          one_row.Clear();
          ReadBatchMutation(in, buffer, &one_row);
          sink->AddRow(one_row.row(0), one_row.begin(0), one_row.end(0));
        });
        return true;
      }
      ReadList(in, buffer, [&](uint32_t size) {
        // Each row takes a byte at least, so the bytes left bound what a size may reserve.
        if (out->rows.size() == 0) out->rows.Reserve(std::min<size_t>(size, buffer->available_read()));
        ReadBatchMutation(in, buffer, &out->rows);
      });
      return true;
    }
    if (with_timestamp && id == 3 && type == apache::thrift::protocol::T_I64) {
      in->readI64(out->timestamp);
      return true;
    }
    if (id == attributes_id && type == apache::thrift::protocol::T_MAP) {
      out->attributes.clear();
      int8_t key_type = 0, value_type = 0;
      int32_t size = 0;
      in->readByte(key_type);
      in->readByte(value_type);
      in->readI32(size);
      const int key_bytes = MinSerializedSize(key_type), value_bytes = MinSerializedSize(value_type);
      CheckContainer(buffer, size, key_bytes < 0 || value_bytes < 0 ? -1 : key_bytes + value_bytes);
      for (int32_t i = 0; i < size; ++i) {  // read as strings whatever the map says, as generated
        std::string key;
        in->readBinary(key);
        in->readBinary(out->attributes[key]);
      }
      return true;
    }
    return false;
  });
}

void BatchMutationsView::Assign(const std::vector<thrift::BatchMutation>& batches) {
  Clear();
  rows_.reserve(batches.size());
  for (const thrift::BatchMutation& batch : batches) {
    AddRow(batch.row);
    for (const thrift::Mutation& m : batch.mutations) AddMutation({m.isDelete, m.column, m.value});
  }
}

}  // namespace hbemu::server
