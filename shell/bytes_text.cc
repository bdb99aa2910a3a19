#include "shell/bytes_text.h"

#include <cstdio>
#include <cstring>
#include <limits>

#include "storage/name_chars.h"

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

std::string SplitKeyBytes(const std::string& text) {
  const std::vector<uint16_t> in = storage::DecodeAsJavaString(text);
  auto hex = [](uint16_t c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '\\' && i + 1 < in.size() && in[i + 1] == 'x') {
      const int hi = i + 2 < in.size() ? hex(in[i + 2]) : -1;
      const int lo = i + 3 < in.size() ? hex(in[i + 3]) : -1;
      if (hi < 0 || lo < 0) continue;  // a bogus escape: its backslash is dropped, as in HBase
      out += static_cast<char>(hi * 16 + lo);
      i += 3;
    } else {
      out += static_cast<char>(in[i] & 0xff);
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
