#include "shell/bytes_text.h"

#include <cstdio>
#include <cstring>
#include <limits>

namespace hbemu::shell {

std::string ToStringBinary(const std::string& bytes) {
  // The punctuation Bytes.toStringBinary keeps; the backslash is not among it.
  static const char kKept[] = " `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?";
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) {
    if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
        (c != 0 && std::strchr(kKept, c) != nullptr)) {
      out += static_cast<char>(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof(buf), "\\x%02X", c);
      out += buf;
    }
  }
  return out;
}

bool DecodeLong(const std::string& bytes, int64_t* value) {
  if (bytes.size() != 8) return false;
  uint64_t v = 0;
  for (unsigned char c : bytes) v = (v << 8) | c;
  *value = static_cast<int64_t>(v);
  return true;
}

std::string FormatTtl(int64_t seconds) {
  if (seconds >= std::numeric_limits<int32_t>::max()) return "FOREVER";
  std::string out = std::to_string(seconds) + " SECONDS";
  if (seconds < 60) return out;
  struct Unit {
    const char* name;
    int64_t size;
  };
  static const Unit kUnits[] = {{"DAY", 86400}, {"HOUR", 3600}, {"MINUTE", 60}, {"SECOND", 1}};
  std::string parts;
  int64_t rest = seconds;
  for (const Unit& unit : kUnits) {
    int64_t n = rest / unit.size;
    rest %= unit.size;
    if (n == 0) continue;
    if (!parts.empty()) parts += " ";
    parts += std::to_string(n) + " " + unit.name + (n == 1 ? "" : "S");
  }
  return out + " (" + parts + ")";
}

}  // namespace hbemu::shell
