// Bytes as Java reads them into a String and writes them back: the round trip HBase makes of a
// cell a regex comparator searches, of a regex, and of a REST path's percent-decoded parts.

#pragma once

#include <string>
#include <string_view>

namespace hbemu::storage {

// Java's `new String(bytes, UTF_8)` round trip: each maximal ill-formed subpart of `s` becomes
// one U+FFFD (EF BF BD), as Java's decoder replaces it. False (out untouched) when `s` is
// already valid UTF-8.
bool ReplaceInvalidUtf8(std::string_view s, std::string* out);

}  // namespace hbemu::storage
