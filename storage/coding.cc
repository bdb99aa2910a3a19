#include "storage/coding.h"

namespace hbemu::storage {

void PutFixed64BE(std::string* dst, uint64_t v) {
  char buf[8];
  for (int i = 7; i >= 0; --i) {
    buf[i] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  dst->append(buf, 8);
}

void PutFixed32BE(std::string* dst, uint32_t v) {
  char buf[4];
  for (int i = 3; i >= 0; --i) {
    buf[i] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  dst->append(buf, 4);
}

uint64_t DecodeFixed64BE(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint32_t DecodeFixed32BE(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

void PutEscaped(std::string* dst, std::string_view s) {
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\0') {
      dst->append(s.data() + start, i - start + 1);
      dst->push_back('\xff');
      start = i + 1;
    }
  }
  dst->append(s.data() + start, s.size() - start);
}

void PutEscapedTerminated(std::string* dst, std::string_view s) {
  PutEscaped(dst, s);
  dst->push_back('\0');
  dst->push_back('\x01');
}

bool GetEscapedTerminated(std::string_view* in, std::string* out) {
  out->clear();
  const std::string_view s = *in;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\0') continue;
    if (i + 1 >= s.size()) return false;
    out->append(s.data() + start, i - start);
    if (s[i + 1] == '\x01') {
      in->remove_prefix(i + 2);
      return true;
    }
    if (s[i + 1] != '\xff') return false;
    out->push_back('\0');
    start = i + 2;
    ++i;
  }
  return false;
}

std::string PrefixSuccessor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty() && static_cast<uint8_t>(s.back()) == 0xff) s.pop_back();
  if (s.empty()) return s;
  s.back() = static_cast<char>(static_cast<uint8_t>(s.back()) + 1);
  return s;
}

}  // namespace hbemu::storage
