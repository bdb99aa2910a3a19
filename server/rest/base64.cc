#include "server/rest/base64.h"

#include <cstdint>

namespace hbemu::server::rest {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Appends the bytes of `count` sextets (2..4) held in `group`.
void Flush(uint32_t group, int count, std::string* out) {
  group <<= 6 * (4 - count);
  out->push_back(static_cast<char>((group >> 16) & 0xff));
  if (count > 2) out->push_back(static_cast<char>((group >> 8) & 0xff));
  if (count > 3) out->push_back(static_cast<char>(group & 0xff));
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t g = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) | static_cast<uint8_t>(bytes[i + 2]);
    out.push_back(kAlphabet[(g >> 18) & 63]);
    out.push_back(kAlphabet[(g >> 12) & 63]);
    out.push_back(kAlphabet[(g >> 6) & 63]);
    out.push_back(kAlphabet[g & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t g = static_cast<uint8_t>(bytes[i]) << 16;
    if (rest == 2) g |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[(g >> 18) & 63]);
    out.push_back(kAlphabet[(g >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(g >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

bool Base64DecodeStrict(std::string_view text, std::string* out) {
  out->clear();
  // Jackson requires the padding and reads quad by quad, so a padded quad may be followed by
  // more ("cjE=cjE=" is "r1r1").
  if (text.size() % 4 != 0) return false;
  for (size_t i = 0; i < text.size(); i += 4) {
    const int a = Sextet(text[i]), b = Sextet(text[i + 1]);
    if (a < 0 || b < 0) return false;
    uint32_t group = (static_cast<uint32_t>(a) << 6) | static_cast<uint32_t>(b);
    if (text[i + 2] == '=') {
      if (text[i + 3] != '=') return false;
      Flush(group, 2, out);
      continue;
    }
    const int c = Sextet(text[i + 2]);
    if (c < 0) return false;
    group = (group << 6) | static_cast<uint32_t>(c);
    if (text[i + 3] == '=') {
      Flush(group, 3, out);
      continue;
    }
    const int d = Sextet(text[i + 3]);
    if (d < 0) return false;
    Flush((group << 6) | static_cast<uint32_t>(d), 4, out);
  }
  return true;
}

std::string Base64DecodeLenient(std::string_view text) {
  std::string out;
  uint32_t group = 0;
  int count = 0;
  for (char c : text) {
    if (c == '=') break;
    const int v = Sextet(c);
    if (v < 0) continue;
    group = (group << 6) | static_cast<uint32_t>(v);
    if (++count == 4) {
      Flush(group, 4, &out);
      group = 0;
      count = 0;
    }
  }
  if (count > 1) Flush(group, count, &out);
  return out;
}

bool Base64DecodeJava(std::string_view text, bool url_safe, std::string* out) {
  out->clear();
  uint32_t group = 0;
  int count = 0;
  size_t i = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '=') break;
    if (url_safe && (c == '+' || c == '/')) return false;
    if (url_safe && c == '-') c = '+';
    if (url_safe && c == '_') c = '/';
    const int v = Sextet(c);
    if (v < 0) return false;
    group = (group << 6) | static_cast<uint32_t>(v);
    if (++count == 4) {
      Flush(group, 4, out);
      group = 0;
      count = 0;
    }
  }
  if (i < text.size()) {
    // Padding: exactly what completes the last quad, then nothing.
    const size_t pads = text.size() - i;
    if (count < 2 || pads != static_cast<size_t>(4 - count)) return false;
    for (size_t j = i; j < text.size(); ++j) {
      if (text[j] != '=') return false;
    }
  }
  if (count == 1) return false;
  if (count > 1) Flush(group, count, out);
  return true;
}

}  // namespace hbemu::server::rest
