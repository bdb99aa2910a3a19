#include "server/thrift1/batch_mutations.h"

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

// Calls field(id, type) for each field of a struct; field returns false to have it skipped.
template <class Fn>
void ReadStruct(BinaryCallProtocol* in, Fn&& field) {
  std::string name;
  TType type;
  int16_t id;
  in->readStructBegin(name);
  for (;;) {
    in->readFieldBegin(name, type, id);
    if (type == apache::thrift::protocol::T_STOP) break;
    if (!field(id, type)) in->skip(type);
    in->readFieldEnd();
  }
  in->readStructEnd();
}

// Calls element(size) once per element; as in the generated code, the declared element type
// is not checked.
template <class Fn>
void ReadList(BinaryCallProtocol* in, Fn&& element) {
  TType type;
  uint32_t size = 0;
  in->readListBegin(type, size);
  for (uint32_t i = 0; i < size; ++i) element(size);
  in->readListEnd();
}

void ReadMutation(BinaryCallProtocol* in, TMemoryBuffer* buffer, BatchMutationsView* out) {
  BatchMutationsView::Mutation m;
  ReadStruct(in, [&](int16_t id, TType type) {
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
  ReadStruct(in, [&](int16_t id, TType type) {
    if (id == 1 && type == apache::thrift::protocol::T_STRING) {
      out->SetLastRow(ReadBinaryView(in, buffer));
      return true;
    }
    if (id == 2 && type == apache::thrift::protocol::T_LIST) {
      out->DropMutationsOfLastRow();
      ReadList(in, [&](uint32_t) { ReadMutation(in, buffer, out); });
      return true;
    }
    return false;
  });
}

}  // namespace

void ReadMutateRowsArgs(BinaryCallProtocol* in, bool with_timestamp, MutateRowsArgsView* out) {
  // The template argument says the transport is a TMemoryBuffer (looked up once: getTransport
  // copies a shared_ptr).
  auto* buffer = static_cast<TMemoryBuffer*>(in->getTransport().get());
  out->table = {};
  out->rows.Clear();
  out->timestamp = 0;
  out->attributes.clear();
  const int16_t attributes_id = with_timestamp ? 4 : 3;
  ReadStruct(in, [&](int16_t id, TType type) {
    if (id == 1 && type == apache::thrift::protocol::T_STRING) {
      out->table = ReadBinaryView(in, buffer);
      return true;
    }
    if (id == 2 && type == apache::thrift::protocol::T_LIST) {
      out->rows.Clear();
      ReadList(in, [&](uint32_t size) {
        if (out->rows.size() == 0) out->rows.Reserve(size);
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
      TType key_type, value_type;
      uint32_t size = 0;
      in->readMapBegin(key_type, value_type, size);
      for (uint32_t i = 0; i < size; ++i) {
        std::string key;
        in->readBinary(key);
        in->readBinary(out->attributes[key]);
      }
      in->readMapEnd();
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
