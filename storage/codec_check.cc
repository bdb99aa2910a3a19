#include "storage/codec_check.h"

#include <algorithm>
#include <cctype>

namespace hbemu::storage {
namespace {

// TableDescriptorChecker ends every sanity-check failure with this advice.
constexpr char kSanityAdvice[] =
    " Set hbase.table.sanity.checks to false at conf or table descriptor if you want to bypass "
    "sanity checks";

// What loading each codec throws on a stock HBase 2.6.1 (checked against it); nullptr: works.
const char* FirstFailure(const std::string& upper) {
  if (upper == "ZSTD") {
    return "java.lang.RuntimeException: native zStandard library not available: this version "
           "of libhadoop was built without zstd support.";
  }
  if (upper == "BZIP2") return "java.lang.UnsupportedOperationException";
  if (upper == "LZMA") {
    return "java.lang.RuntimeException: java.lang.ClassNotFoundException: "
           "org.apache.hadoop.hbase.io.compress.xz.LzmaCodec";
  }
  if (upper == "LZO") {
    return "java.lang.RuntimeException: java.lang.ClassNotFoundException: "
           "com.hadoop.compression.lzo.LzoCodec";
  }
  return nullptr;
}

}  // namespace

Status CodecCheck::Check(const TableDescriptor& table) {
  for (const FamilyDescriptor& family : table.families) {
    HBEMU_RETURN_IF_ERROR(Check(family));
  }
  return Status::OK();
}

Status CodecCheck::Check(const FamilyDescriptor& family) {
  std::string upper = family.compression;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  const char* failure = FirstFailure(upper);
  if (failure == nullptr) return Status::OK();
  std::string lower = upper;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::lock_guard<std::mutex> lock(mu_);
  if (!failed_.insert(lower).second) {
    return Status::DoNotRetry("Compression algorithm '" + lower + "' previously failed test." +
                              kSanityAdvice);
  }
  return Status::DoNotRetry(failure + std::string(kSanityAdvice));
}

}  // namespace hbemu::storage
