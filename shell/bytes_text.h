#pragma once

#include <cstdint>
#include <string>

namespace hbemu::shell {

// HBase's Bytes.toStringBinary: printable ASCII as is, every other byte as \xHH (upper case).
std::string ToStringBinary(const std::string& bytes);

// What HBase's shell makes of a split key: the Ruby string handed to Java (its bytes decoded as
// UTF-8, a malformed byte becoming U+FFFD), then Bytes.toBytesBinary (a \xHH escape is that
// byte, any other char its low 8 bits). So 'a\x00\xFF' is the bytes a, 0, 0xFF, while the
// double-quoted "\xFF" (a lone, malformed byte) becomes 0xFD, as in HBase.
std::string SplitKeyBytes(const std::string& text);

// Bytes.toLong of an 8-byte big-endian value; false when the value is not 8 bytes long.
bool DecodeLong(const std::string& bytes, int64_t* value);

// The HBase shell's human-readable TTL: "86400 SECONDS (1 DAY)", "FOREVER" for the maximum.
std::string FormatTtl(int64_t seconds);

}  // namespace hbemu::shell
