#pragma once

#include <mutex>
#include <set>
#include <string>

#include "storage/schema.h"
#include "storage/status.h"

namespace hbemu::storage {

// HBase's compression sanity check (TableDescriptorChecker.checkCompression) on a stock
// install, which has no native codecs: NONE, GZ, SNAPPY, LZ4 and BROTLI work (pure Java);
// ZSTD, BZIP2, LZMA and LZO fail their test with DoNotRetryIOException, first with the codec's
// own error, then, for the life of the server, with "previously failed test". Thread-safe.
class CodecCheck {
 public:
  Status Check(const TableDescriptor& table);
  Status Check(const FamilyDescriptor& family);

 private:
  std::mutex mu_;
  std::set<std::string> failed_;  // lower-case algorithm names that failed their test once
};

}  // namespace hbemu::storage
