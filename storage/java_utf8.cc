#include "storage/java_utf8.h"

namespace hbemu::storage {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 with *bad set to the length of the
// maximal ill-formed subpart (what Java's decoder replaces with one U+FFFD).
size_t Utf8SequenceAt(std::string_view s, size_t i, size_t* bad) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    *bad = 1;
    return 0;
  }
  for (size_t k = 1; k <= need; ++k) {
    const unsigned char lower = k == 1 ? lo : 0x80, upper = k == 1 ? hi : 0xBF;
    if (i + k >= s.size() || b(i + k) < lower || b(i + k) > upper) {
      *bad = k;
      return 0;
    }
  }
  return need + 1;
}

}  // namespace

bool ReplaceInvalidUtf8(std::string_view s, std::string* out) {
  size_t i = 0;
  size_t bad = 0;
  while (i < s.size()) {
    const size_t n = Utf8SequenceAt(s, i, &bad);
    if (n == 0) break;
    i += n;
  }
  if (i == s.size()) return false;
  out->assign(s.data(), i);
  while (i < s.size()) {
    const size_t n = Utf8SequenceAt(s, i, &bad);
    if (n > 0) {
      out->append(s.data() + i, n);
      i += n;
    } else {
      out->append("\xEF\xBF\xBD");
      i += bad;
    }
  }
  return true;
}

}  // namespace hbemu::storage
