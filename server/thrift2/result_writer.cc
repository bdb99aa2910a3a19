#include "server/thrift2/result_writer.h"

#include <type_traits>

#include "server/gateway/wire_writer.h"

namespace hbemu::server {

using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;
using storage::RowBatch;

namespace {

constexpr int8_t kPutTypeCode = 4;  // HBase KeyValue.Type.Put, as ToTResult sets it

// The generated TResult::write and TColumnValue::write calls for ToTResult's fields, in order.
template <class Protocol>
uint32_t WriteTResult(const RowBatch& rows, size_t row, Protocol* out,
                      BinaryValueWriter<Protocol>* bytes) {
  const size_t count = rows.cell_count(row);
  uint32_t n = out->writeStructBegin("TResult");
  if (count > 0) {  // ToTResult sets the row only with cells
    n += out->writeFieldBegin("row", TType::T_STRING, 1);
    n += bytes->Write(rows.row_key(row));
    n += out->writeFieldEnd();
  }
  n += out->writeFieldBegin("columnValues", TType::T_LIST, 2);
  n += out->writeListBegin(TType::T_STRUCT, static_cast<uint32_t>(count));
  for (size_t i = 0; i < count; ++i) {
    const RowBatch::CellRef cell = rows.cell(row, i);
    n += out->writeStructBegin("TColumnValue");
    n += out->writeFieldBegin("family", TType::T_STRING, 1);
    n += bytes->Write(cell.family);
    n += out->writeFieldEnd();
    n += out->writeFieldBegin("qualifier", TType::T_STRING, 2);
    n += bytes->Write(cell.qualifier);
    n += out->writeFieldEnd();
    n += out->writeFieldBegin("value", TType::T_STRING, 3);
    n += bytes->Write(cell.value);
    n += out->writeFieldEnd();
    n += out->writeFieldBegin("timestamp", TType::T_I64, 4);
    n += out->writeI64(cell.timestamp);
    n += out->writeFieldEnd();
    n += out->writeFieldBegin("type", TType::T_BYTE, 6);
    n += out->writeByte(kPutTypeCode);
    n += out->writeFieldEnd();
    n += out->writeFieldStop();
    n += out->writeStructEnd();
  }
  n += out->writeListEnd();
  n += out->writeFieldEnd();
  n += out->writeFieldBegin("stale", TType::T_BOOL, 3);
  n += out->writeBool(false);
  n += out->writeFieldEnd();
  n += out->writeFieldBegin("partial", TType::T_BOOL, 4);
  n += out->writeBool(rows.partial(row));
  n += out->writeFieldEnd();
  n += out->writeFieldStop();
  n += out->writeStructEnd();
  return n;
}

}  // namespace

uint32_t WriteTResultList(const RowBatch& rows, TProtocol* out) {
  return WithReplyProtocol(out, [&](auto* protocol) {
    using Protocol = std::remove_pointer_t<decltype(protocol)>;
    BinaryValueWriter<Protocol> bytes(protocol);
    uint32_t n = protocol->writeListBegin(TType::T_STRUCT, static_cast<uint32_t>(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i) n += WriteTResult(rows, i, protocol, &bytes);
    n += protocol->writeListEnd();
    return n;
  });
}

}  // namespace hbemu::server
