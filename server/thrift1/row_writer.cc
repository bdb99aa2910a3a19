#include "server/thrift1/row_writer.h"

#include <string>
#include <type_traits>

#include "Hbase_types.h"
#include "server/gateway/wire_writer.h"
#include "server/thrift1/convert.h"

namespace hbemu::server {

using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;
using storage::RowBatch;

namespace {

bool SameColumn(const RowBatch::CellRef& a, const RowBatch::CellRef& b) {
  return a.family == b.family && a.qualifier == b.qualifier;
}

// Writes rows through `Protocol`: a reply protocol (wire_writer.h) or plain TProtocol. The
// protocol calls are the generated code's, in the same order, so the bytes are the same.
template <class Protocol>
class RowWriter {
 public:
  explicit RowWriter(Protocol* out) : out_(out), bytes_(out) {}

  uint32_t Row(const RowBatch& rows, size_t row, bool sorted_columns) {
    const size_t count = rows.cell_count(row);
    uint32_t columns = 0;
    if (!sorted_columns && !ColumnsInCellOrder(rows, row, &columns)) {
      thrift::TRowResult result;  // rare: let std::map sort the names
      ToTRowResult(rows.ToRowResult(row), /*sorted_columns=*/false, &result);
      return result.write(out_);
    }
    uint32_t n = out_->writeStructBegin("TRowResult");
    n += out_->writeFieldBegin("row", TType::T_STRING, 1);
    n += bytes_.Write(rows.row_key(row));
    n += out_->writeFieldEnd();
    if (sorted_columns) {
      n += out_->writeFieldBegin("sortedColumns", TType::T_LIST, 3);
      n += out_->writeListBegin(TType::T_STRUCT, static_cast<uint32_t>(count));
      for (size_t i = 0; i < count; ++i) {
        const RowBatch::CellRef cell = rows.cell(row, i);
        n += out_->writeStructBegin("TColumn");
        n += out_->writeFieldBegin("columnName", TType::T_STRING, 1);
        n += bytes_.Write(cell.family, ":", cell.qualifier);
        n += out_->writeFieldEnd();
        n += out_->writeFieldBegin("cell", TType::T_STRUCT, 2);
        n += WriteTCell(cell);
        n += out_->writeFieldEnd();
        n += out_->writeFieldStop();
        n += out_->writeStructEnd();
      }
      n += out_->writeListEnd();
    } else {
      // The first cell of each column is the newest, the one ToTRowResult's map keeps.
      n += out_->writeFieldBegin("columns", TType::T_MAP, 2);
      n += out_->writeMapBegin(TType::T_STRING, TType::T_STRUCT, columns);
      for (size_t i = 0; i < count; ++i) {
        const RowBatch::CellRef cell = rows.cell(row, i);
        if (i > 0 && SameColumn(cell, rows.cell(row, i - 1))) continue;
        n += bytes_.Write(cell.family, ":", cell.qualifier);
        n += WriteTCell(cell);
      }
      n += out_->writeMapEnd();
    }
    n += out_->writeFieldEnd();
    n += out_->writeFieldStop();
    n += out_->writeStructEnd();
    return n;
  }

 private:
  // As the generated TCell::write.
  uint32_t WriteTCell(const RowBatch::CellRef& cell) {
    uint32_t n = out_->writeStructBegin("TCell");
    n += out_->writeFieldBegin("value", TType::T_STRING, 1);
    n += bytes_.Write(cell.value);
    n += out_->writeFieldEnd();
    n += out_->writeFieldBegin("timestamp", TType::T_I64, 2);
    n += out_->writeI64(cell.timestamp);
    n += out_->writeFieldEnd();
    n += out_->writeFieldStop();
    n += out_->writeStructEnd();
    return n;
  }

  // True if the `columns` map's key order ("family:qualifier") is the cells' order, as it is
  // unless a family name is a prefix of another's (':' sorts between them); *columns is then
  // the number of map entries.
  bool ColumnsInCellOrder(const RowBatch& rows, size_t row, uint32_t* columns) {
    *columns = 0;
    const size_t count = rows.cell_count(row);
    for (size_t i = 0; i < count; ++i) {
      const RowBatch::CellRef cell = rows.cell(row, i);
      if (i > 0 && SameColumn(cell, rows.cell(row, i - 1))) continue;
      name_.assign(cell.family.data(), cell.family.size()).push_back(':');
      name_.append(cell.qualifier.data(), cell.qualifier.size());
      if (*columns > 0 && !(previous_ < name_)) return false;
      ++*columns;
      name_.swap(previous_);
    }
    return true;
  }

  Protocol* const out_;
  BinaryValueWriter<Protocol> bytes_;
  std::string name_, previous_;  // column names compared by ColumnsInCellOrder
};

}  // namespace

uint32_t WriteTRowResult(const RowBatch& rows, size_t row, bool sorted_columns, TProtocol* out) {
  return WithReplyProtocol(out, [&](auto* protocol) {
    return RowWriter<std::remove_pointer_t<decltype(protocol)>>(protocol).Row(rows, row,
                                                                             sorted_columns);
  });
}

uint32_t WriteTRowResultList(const RowBatch& rows, bool sorted_columns, TProtocol* out) {
  return WithReplyProtocol(out, [&](auto* protocol) {
    RowWriter<std::remove_pointer_t<decltype(protocol)>> writer(protocol);
    uint32_t n = protocol->writeListBegin(TType::T_STRUCT, static_cast<uint32_t>(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i) n += writer.Row(rows, i, sorted_columns);
    n += protocol->writeListEnd();
    return n;
  });
}

}  // namespace hbemu::server
