#include "server/hbase_processor.h"

#include <glog/logging.h>
#include <thrift/TApplicationException.h>

#include "server/errors.h"

namespace hbemu::server {

using apache::thrift::TApplicationException;

bool HbaseProcessor::dispatchCall(apache::thrift::protocol::TProtocol* in,
                                  apache::thrift::protocol::TProtocol* out,
                                  const std::string& fname, int32_t seqid, void* call_context) {
  try {
    return thrift::HbaseProcessor::dispatchCall(in, out, fname, seqid, call_context);
  } catch (const ApplicationError& e) {
    // The arguments were fully read before the handler ran, and nothing was written yet.
    VLOG(1) << "[hbase] " << fname << " failed: " << e.detail;
    TApplicationException x(TApplicationException::INTERNAL_ERROR,
                            "Internal error processing " + fname);
    out->writeMessageBegin(fname, apache::thrift::protocol::T_EXCEPTION, seqid);
    x.write(out);
    out->writeMessageEnd();
    out->getTransport()->writeEnd();
    out->getTransport()->flush();
    return true;
  }
}

}  // namespace hbemu::server
