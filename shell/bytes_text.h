#pragma once

#include <cstdint>
#include <string>

namespace hbemu::shell {

// HBase's Bytes.toStringBinary: printable ASCII as is, every other byte as \xHH (upper case).
std::string ToStringBinary(const std::string& bytes);

// Bytes.toLong of an 8-byte big-endian value; false when the value is not 8 bytes long.
bool DecodeLong(const std::string& bytes, int64_t* value);

// The HBase shell's human-readable TTL: "86400 SECONDS (1 DAY)", "FOREVER" for the maximum.
std::string FormatTtl(int64_t seconds);

}  // namespace hbemu::shell
