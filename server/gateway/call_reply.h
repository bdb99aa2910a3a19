#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include <thrift/TApplicationException.h>
#include <thrift/protocol/TProtocol.h>

// How the generated process_<name> functions answer a call, for the hand-written processor
// paths beside them (Thrift1 scannerGet/scannerGetList and mutateRows/mutateRowsTs, Thrift2
// getScannerRows and the calls that tell null from empty), so that every path ends a call the
// way the generated code does.
namespace hbemu::server {

// Ends a reply message and hands it to the transport.
inline void EndReply(apache::thrift::protocol::TProtocol* out) {
  out->writeMessageEnd();
  out->getTransport()->writeEnd();
  out->getTransport()->flush();
}

// The whole reply for an exception the service does not declare.
inline void WriteExceptionReply(apache::thrift::protocol::TProtocol* out, const std::string& name,
                                int32_t seqid, const apache::thrift::TApplicationException& x) {
  out->writeMessageBegin(name, apache::thrift::protocol::T_EXCEPTION, seqid);
  x.write(out);
  EndReply(out);
}

// Runs call(). The service's declared exceptions Io and Ia go into result->io / result->ia, as
// the generated code puts them; any other exception is answered at once as a
// TApplicationException, and then the return is false (the reply is written).
template <class Io, class Ia, class Result, class Call>
bool CatchDeclared(apache::thrift::protocol::TProtocol* out, const std::string& name,
                   int32_t seqid, Result* result, Call&& call) {
  try {
    call();
  } catch (Io& e) {
    result->io = std::move(e);
    result->__isset.io = true;
  } catch (Ia& e) {
    result->ia = std::move(e);
    result->__isset.ia = true;
  } catch (const std::exception& e) {
    WriteExceptionReply(out, name, seqid, apache::thrift::TApplicationException(e.what()));
    return false;
  }
  return true;
}

}  // namespace hbemu::server
