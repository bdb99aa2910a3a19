#include "server/thrift1/hbase_processor.h"

#include "server/gateway/call_reply.h"
#include "server/gateway/reply_batch.h"
#include "server/thrift1/row_writer.h"

namespace hbemu::server {

using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;

HbaseProcessor::HbaseProcessor(std::shared_ptr<HbaseHandler> handler, admin::Metrics* metrics)
    : thrift::HbaseProcessor(handler), handler_(std::move(handler)), metrics_(metrics) {}

bool HbaseProcessor::dispatchCall(TProtocol* in, TProtocol* out, const std::string& name,
                                  int32_t seqid, void* call_context) {
  admin::CallScope call(metrics_, "thrift1", name);
  // With an event handler installed, the generated code's hooks must run: take its path.
  if (eventHandler_ == nullptr && (name == "scannerGetList" || name == "scannerGet")) {
    ProcessScannerGet(in, out, name, seqid);
    return true;
  }
  if (eventHandler_ == nullptr && (name == "mutateRows" || name == "mutateRowsTs") &&
      ProcessMutateRows(in, out, name, seqid)) {
    return true;
  }
  return thrift::HbaseProcessor::dispatchCall(in, out, name, seqid, call_context);
}

// Mirrors the generated process_scannerGetList / process_scannerGet: declared exceptions go
// into the result struct, anything else becomes a TApplicationException.
void HbaseProcessor::ProcessScannerGet(TProtocol* in, TProtocol* out, const std::string& name,
                                       int32_t seqid) {
  int32_t id = 0;
  int32_t nb_rows = 1;
  if (name == "scannerGet") {
    thrift::Hbase_scannerGet_args args;
    args.read(in);
    id = args.id;
  } else {
    thrift::Hbase_scannerGetList_args args;
    args.read(in);
    id = args.id;
    nb_rows = args.nbRows;
  }
  in->readMessageEnd();
  in->getTransport()->readEnd();

  ReplyBatch reply;
  storage::RowBatch& rows = reply.rows();
  bool sorted_columns = false;
  // Both methods' results have the same fields: success (0), io (1), ia (2).
  thrift::Hbase_scannerGetList_result error;
  if (!CatchDeclared<thrift::IOError, thrift::IllegalArgument>(out, name, seqid, &error, [&] {
        handler_->ScannerNextRows(id, nb_rows, &rows, &sorted_columns);
      })) {
    return;
  }

  out->writeMessageBegin(name, TMessageType::T_REPLY, seqid);
  if (error.__isset.io || error.__isset.ia) {
    error.write(out);
  } else {
    out->writeStructBegin("Hbase_scannerGetList_result");
    out->writeFieldBegin("success", TType::T_LIST, 0);
    WriteTRowResultList(rows, sorted_columns, out);
    out->writeFieldEnd();
    out->writeFieldStop();
    out->writeStructEnd();
  }
  EndReply(out);
}

// Mirrors the generated process_mutateRows / process_mutateRowsTs.
bool HbaseProcessor::ProcessMutateRows(TProtocol* in, TProtocol* out, const std::string& name,
                                       int32_t seqid) {
  auto* binary = dynamic_cast<BinaryCallProtocol*>(in);
  if (binary == nullptr) return false;
  const bool with_timestamp = name == "mutateRowsTs";
  MutateRowsArgsView args;
  // The table is looked up as soon as it is read: rows for a table that cannot take them are
  // only counted, never kept (a 2M-row call to a missing table would otherwise build hundreds
  // of megabytes of views to fail).
  storage::Status table_status;
  HbaseHandler::BatchTally tally;
  ReadMutateRowsArgs(binary, with_timestamp, &args, [&](std::string_view table) -> BatchRowSink* {
    table_status = handler_->BatchTableStatus(table);
    return table_status.ok() ? nullptr : &tally;
  });
  in->readMessageEnd();
  // Ends the read as the generated code does; the views stay good, as the message buffer is
  // only observed (WireSession keeps the bytes until the call returns).
  in->getTransport()->readEnd();

  // Both methods' results have the same fields: io (1), ia (2).
  thrift::Hbase_mutateRows_result result;
  if (!CatchDeclared<thrift::IOError, thrift::IllegalArgument>(out, name, seqid, &result, [&] {
        if (with_timestamp) {
          handler_->CheckBatchTimestamp(
              args.rows.size() + tally.put_rows + tally.delete_rows, args.timestamp);
        }
        if (!table_status.ok()) {
          handler_->FailBatch(table_status, tally);
          return;
        }
        handler_->MutateRows(std::string(args.table), args.rows,
                             with_timestamp ? args.timestamp : storage::kLatestTimestamp,
                             args.attributes);
      })) {
    return true;
  }
  out->writeMessageBegin(name, TMessageType::T_REPLY, seqid);
  result.write(out);
  EndReply(out);
  return true;
}

}  // namespace hbemu::server
