#include "server/thrift2/thbase_processor.h"

#include <optional>
#include <utility>

#include <thrift/TApplicationException.h>
#include <thrift/protocol/TProtocolException.h>

#include "server/gateway/call_reply.h"
#include "server/gateway/reply_batch.h"
#include "server/thrift2/result_writer.h"

namespace hbemu::server {

using apache::thrift::TApplicationException;
using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TProtocolException;
using apache::thrift::protocol::TType;

namespace {

// Reads Args, runs `call` (which fills the Result's success), and writes the reply the way the
// generated process_<name> does: TIOError into the result struct, anything else undeclared.
template <class Args, class Result, class Call>
void Run(TProtocol* in, TProtocol* out, const std::string& name, int32_t seqid, Call call) {
  Args args;
  args.read(in);
  in->readMessageEnd();
  in->getTransport()->readEnd();
  Result result;
  try {
    call(args, &result);
    result.__isset.success = true;
  } catch (thrift2::TIOError& e) {
    result.io = std::move(e);
    result.__isset.io = true;
  } catch (const std::exception& e) {
    // The same shape the generated code gives an undeclared exception; WireSession turns it
    // into HBase's INTERNAL_ERROR reply.
    WriteExceptionReply(out, name, seqid, TApplicationException(e.what()));
    return;
  }
  out->writeMessageBegin(name, TMessageType::T_REPLY, seqid);
  result.write(out);
  EndReply(out);
}

std::optional<std::string> Sent(bool isset, const std::string& value) {
  return isset ? std::optional<std::string>(value) : std::nullopt;
}

}  // namespace

ThbaseProcessor::ThbaseProcessor(std::shared_ptr<ThbaseHandler> handler, admin::Metrics* metrics)
    : thrift2::THBaseServiceProcessor(handler), handler_(std::move(handler)), metrics_(metrics) {}

bool ThbaseProcessor::dispatchCall(TProtocol* in, TProtocol* out, const std::string& name,
                                   int32_t seqid, void* call_context) {
  admin::CallScope call(metrics_, "thrift2", name);
  try {
    if (DispatchNullAware(in, out, name, seqid)) return true;
    // With an event handler installed, the generated code's hooks must run: take its path.
    if (eventHandler_ == nullptr && name == "getScannerRows") {
      ProcessGetScannerRows(in, out, seqid);
      return true;
    }
    if (eventHandler_ == nullptr && name == "getScannerResults") {
      ProcessGetScannerResults(in, out, seqid);
      return true;
    }
    return thrift2::THBaseServiceProcessor::dispatchCall(in, out, name, seqid, call_context);
  } catch (const TProtocolException& e) {
    call.Failed();
    // Thrown while reading the arguments, before anything was written.
    WriteExceptionReply(out, name, seqid,
                   TApplicationException(TApplicationException::PROTOCOL_ERROR, e.what()));
    return true;
  }
}

bool ThbaseProcessor::DispatchNullAware(TProtocol* in, TProtocol* out, const std::string& name,
                                        int32_t seqid) {
  ThbaseHandler& h = *handler_;
  if (name == "checkAndPut") {
    Run<thrift2::THBaseService_checkAndPut_args, thrift2::THBaseService_checkAndPut_result>(
        in, out, name, seqid, [&h](const auto& a, auto* r) {
          r->success = h.CheckAndPut(a.table, a.row, a.family, a.qualifier,
                                     Sent(a.__isset.value, a.value), a.tput);
        });
  } else if (name == "checkAndDelete") {
    Run<thrift2::THBaseService_checkAndDelete_args, thrift2::THBaseService_checkAndDelete_result>(
        in, out, name, seqid, [&h](const auto& a, auto* r) {
          r->success = h.CheckAndDelete(a.table, a.row, a.family, a.qualifier,
                                        Sent(a.__isset.value, a.value), a.tdelete);
        });
  } else if (name == "checkAndMutate") {
    Run<thrift2::THBaseService_checkAndMutate_args, thrift2::THBaseService_checkAndMutate_result>(
        in, out, name, seqid, [&h](const auto& a, auto* r) {
          r->success = h.CheckAndMutate(a.table, a.row, a.family, a.qualifier, a.compareOp,
                                        Sent(a.__isset.value, a.value), a.rowMutations);
        });
  } else if (name == "getTableDescriptorsByPattern") {
    Run<thrift2::THBaseService_getTableDescriptorsByPattern_args,
        thrift2::THBaseService_getTableDescriptorsByPattern_result>(
        in, out, name, seqid, [&h](const auto& a, auto* r) {
          h.TableDescriptorsByPattern(&r->success, Sent(a.__isset.regex, a.regex),
                                      a.includeSysTables);
        });
  } else if (name == "getTableNamesByPattern") {
    Run<thrift2::THBaseService_getTableNamesByPattern_args,
        thrift2::THBaseService_getTableNamesByPattern_result>(
        in, out, name, seqid, [&h](const auto& a, auto* r) {
          h.TableNamesByPattern(&r->success, Sent(a.__isset.regex, a.regex), a.includeSysTables);
        });
  } else {
    return false;
  }
  return true;
}

namespace {

// The reply of getScannerRows or getScannerResults: `rows` as the success list, or the declared
// exception in `error`.
template <class Result>
void WriteScanReply(TProtocol* out, const char* name, const char* result_name, int32_t seqid,
                    const Result& error, bool failed, const storage::RowBatch& rows) {
  out->writeMessageBegin(name, TMessageType::T_REPLY, seqid);
  if (failed) {
    error.write(out);
  } else {
    out->writeStructBegin(result_name);
    out->writeFieldBegin("success", TType::T_LIST, 0);
    WriteTResultList(rows, out);
    out->writeFieldEnd();
    out->writeFieldStop();
    out->writeStructEnd();
  }
  EndReply(out);
}

}  // namespace

// Mirrors the generated process_getScannerRows: declared exceptions go into the result
// struct, anything else becomes a TApplicationException.
void ThbaseProcessor::ProcessGetScannerRows(TProtocol* in, TProtocol* out, int32_t seqid) {
  thrift2::THBaseService_getScannerRows_args args;
  args.read(in);
  in->readMessageEnd();
  in->getTransport()->readEnd();
  ReplyBatch reply;
  storage::RowBatch& rows = reply.rows();
  thrift2::THBaseService_getScannerRows_result error;
  if (!CatchDeclared<thrift2::TIOError, thrift2::TIllegalArgument>(
          out, "getScannerRows", seqid, &error,
          [&] { handler_->ScannerNextRows(args.scannerId, args.numRows, &rows); })) {
    return;
  }
  WriteScanReply(out, "getScannerRows", "THBaseService_getScannerRows_result", seqid, error,
                 error.__isset.io || error.__isset.ia, rows);
}

// Mirrors the generated process_getScannerResults (TIOError is its only declared exception).
void ThbaseProcessor::ProcessGetScannerResults(TProtocol* in, TProtocol* out, int32_t seqid) {
  thrift2::THBaseService_getScannerResults_args args;
  args.read(in);
  in->readMessageEnd();
  in->getTransport()->readEnd();
  ReplyBatch reply;
  storage::RowBatch& rows = reply.rows();
  thrift2::THBaseService_getScannerResults_result error;
  try {
    handler_->ScanOnce(args.table, args.tscan, args.numRows, &rows);
  } catch (thrift2::TIOError& e) {
    error.io = std::move(e);
    error.__isset.io = true;
  } catch (const std::exception& e) {
    WriteExceptionReply(out, "getScannerResults", seqid, TApplicationException(e.what()));
    return;
  }
  WriteScanReply(out, "getScannerResults", "THBaseService_getScannerResults_result", seqid,
                 error, error.__isset.io, rows);
}

}  // namespace hbemu::server
