#pragma once

#include <memory>
#include <string>

#include "Hbase.h"

namespace hbemu::server {

// The generated Hbase processor, plus HBase's way of reporting unexpected handler failures:
// TApplicationException(INTERNAL_ERROR, "Internal error processing <method>") (libthrift's
// Java ProcessFunction), where the generated C++ would send type UNKNOWN with the C++ message.
class HbaseProcessor : public thrift::HbaseProcessor {
 public:
  explicit HbaseProcessor(std::shared_ptr<thrift::HbaseIf> handler)
      : thrift::HbaseProcessor(std::move(handler)) {}

 protected:
  bool dispatchCall(apache::thrift::protocol::TProtocol* in,
                    apache::thrift::protocol::TProtocol* out, const std::string& fname,
                    int32_t seqid, void* call_context) override;
};

}  // namespace hbemu::server
