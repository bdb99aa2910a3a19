#pragma once

#include <memory>
#include <string>

#include "Hbase.h"
#include "server/admin/metrics.h"
#include "server/thrift1/hbase_handler.h"

namespace hbemu::server {

// The generated Thrift1 processor, except that scannerGet and scannerGetList write their rows
// from the scanner's results straight into the reply (convert.h WriteTRowResult) instead of
// building TRowResult structs first: building and freeing those maps and strings cost more
// than reading the cells from LevelDB. Likewise mutateRows and mutateRowsTs over the binary
// protocol read their rows as views into the request (batch_mutations.h) instead of as
// BatchMutation structs. The bytes on the wire are the same.
class HbaseProcessor : public thrift::HbaseProcessor {
 public:
  // `metrics` (may be null) counts every call; it must outlive the processor.
  explicit HbaseProcessor(std::shared_ptr<HbaseHandler> handler,
                          admin::Metrics* metrics = nullptr);

 protected:
  bool dispatchCall(apache::thrift::protocol::TProtocol* in,
                    apache::thrift::protocol::TProtocol* out, const std::string& name,
                    int32_t seqid, void* call_context) override;

 private:
  void ProcessScannerGet(apache::thrift::protocol::TProtocol* in,
                         apache::thrift::protocol::TProtocol* out, const std::string& name,
                         int32_t seqid);
  // False, having read nothing, when `in` is not the binary protocol over a message buffer.
  bool ProcessMutateRows(apache::thrift::protocol::TProtocol* in,
                         apache::thrift::protocol::TProtocol* out, const std::string& name,
                         int32_t seqid);

  const std::shared_ptr<HbaseHandler> handler_;
  admin::Metrics* const metrics_;
};

}  // namespace hbemu::server
