#pragma once

#include <memory>
#include <string>

#include "THBaseService.h"
#include "server/admin/metrics.h"
#include "server/thrift2/thbase_handler.h"

namespace hbemu::server {

// The generated Thrift2 processor, plus what HBase's Java server does and the generated C++
// one cannot:
//  * Arguments that fail to decode (above all a missing `required` field) are answered with
//    TApplicationException(PROTOCOL_ERROR), as Java's ProcessFunction does, instead of failing
//    the connection.
//  * Calls whose meaning depends on whether an argument was sent at all — the expected value of
//    checkAndPut/checkAndDelete/checkAndMutate (unset: "must not exist"), the regex of
//    get*ByPattern (unset: every table) — are dispatched here with that knowledge, because the
//    generated handler interface passes an unset string as an empty one.
// And getScannerRows and getScannerResults write their rows from the scanner straight into the
// reply (result_writer.h) instead of building TResult structs first; the bytes are the same.
class ThbaseProcessor : public thrift2::THBaseServiceProcessor {
 public:
  // `metrics` (may be null) counts every call; it must outlive the processor.
  explicit ThbaseProcessor(std::shared_ptr<ThbaseHandler> handler,
                           admin::Metrics* metrics = nullptr);

 protected:
  bool dispatchCall(apache::thrift::protocol::TProtocol* in,
                    apache::thrift::protocol::TProtocol* out, const std::string& name,
                    int32_t seqid, void* call_context) override;

 private:
  // Runs one call of the methods above; true when `name` is one of them.
  bool DispatchNullAware(apache::thrift::protocol::TProtocol* in,
                         apache::thrift::protocol::TProtocol* out, const std::string& name,
                         int32_t seqid);
  void ProcessGetScannerRows(apache::thrift::protocol::TProtocol* in,
                             apache::thrift::protocol::TProtocol* out, int32_t seqid);
  void ProcessGetScannerResults(apache::thrift::protocol::TProtocol* in,
                                apache::thrift::protocol::TProtocol* out, int32_t seqid);

  const std::shared_ptr<ThbaseHandler> handler_;
  admin::Metrics* const metrics_;
};

}  // namespace hbemu::server
