#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hbemu::storage {

// HBase checks names as Java Strings: the bytes decoded as UTF-8 (a malformed sequence becomes
// U+FFFD), then tested one UTF-16 unit at a time, so a letter outside the BMP (two surrogates)
// is refused and positions count UTF-16 units.
std::vector<uint16_t> DecodeAsJavaString(std::string_view utf8);
// Java's Character.isLetterOrDigit(char): any script's letters (Lu Ll Lt Lm Lo) and digits (Nd).
bool IsJavaLetterOrDigit(uint16_t unit);
// How Java prints one char into a message (UTF-8; a lone surrogate as '?').
std::string JavaCharText(uint16_t unit);

}  // namespace hbemu::storage
