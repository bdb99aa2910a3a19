#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hbemu::storage {

// Big-endian fixed-width integers: numeric order equals byte order.
void PutFixed64BE(std::string* dst, uint64_t v);
void PutFixed32BE(std::string* dst, uint32_t v);
uint64_t DecodeFixed64BE(const char* p);
uint32_t DecodeFixed32BE(const char* p);

// Order-preserving, prefix-free encoding of a byte string: 0x00 becomes 00 FF and the
// terminator 00 01 follows. Comparing encodings bytewise compares the inputs as unsigned
// bytes, a proper prefix sorts first, and esc(a + b) == esc(a) + esc(b).
void PutEscaped(std::string* dst, std::string_view s);      // esc(s): no terminator
void PutEscapedTerminated(std::string* dst, std::string_view s);  // enc(s)

// Decodes one enc(s) from the front of *in into *out and advances *in past the terminator.
// Returns false if *in does not start with a well-formed encoding.
bool GetEscapedTerminated(std::string_view* in, std::string* out);

// The smallest string greater than every string that starts with `prefix`: trailing 0xFF
// bytes are dropped and the last remaining byte incremented. Returns "" when no such string
// exists (prefix empty or all 0xFF), meaning "unbounded".
std::string PrefixSuccessor(std::string_view prefix);

}  // namespace hbemu::storage
