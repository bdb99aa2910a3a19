#include "server/admin/format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace hbemu::server::admin {
namespace {

// `x` (0 <= x < 1000) with three significant digits and no trailing zeros: "358", "4.56", "12.3".
std::string ThreeDigits(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), x >= 99.95 ? "%.0f" : x >= 9.995 ? "%.1f" : "%.2f", x);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

}  // namespace

std::string ShortestNumber(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  // to_chars without a precision gives the shortest digits that read back as v; Go's 'g'
  // formatting (below) then decides between the fixed and the exponent form.
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string s(buf, result.ptr);
  std::string out;
  if (s[0] == '-') {
    out = "-";
    s.erase(0, 1);
  }
  const size_t e = s.find('e');
  const std::string digits = s.substr(0, 1) + (e > 1 ? s.substr(2, e - 2) : "");
  const int exp = std::stoi(s.substr(e + 1));
  const int nd = digits == "0" ? 0 : static_cast<int>(digits.size());
  // Go takes the exponent form below 1e-04 and from 1e+06 on (its "eprec" of 6 for the
  // shortest digits).
  if (nd > 0 && (exp < -4 || exp >= 6)) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp_text[16];
    std::snprintf(exp_text, sizeof(exp_text), "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    return out + exp_text;
  }
  // Fixed: the digits with the point after exp + 1 of them, zeros filling either side.
  const int dp = nd == 0 ? 0 : exp + 1;
  if (dp <= 0) {
    out += "0";
  } else {
    for (int i = 0; i < dp; ++i) out.push_back(i < nd ? digits[i] : '0');
  }
  const int fraction = std::max(nd - dp, 0);
  if (fraction > 0) {
    out += ".";
    for (int i = 0; i < fraction; ++i) {
      const int at = dp + i;
      out.push_back(at >= 0 && at < nd ? digits[at] : '0');
    }
  }
  return out;
}

std::string HumanCount(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string HumanBytes(uint64_t n) {
  char buf[32];
  if (n >= (1ull << 30)) {
    std::snprintf(buf, sizeof(buf), "%.1f GiB", n / 1073741824.0);
  } else if (n >= (1ull << 20)) {
    std::snprintf(buf, sizeof(buf), "%.1f MiB", n / 1048576.0);
  } else if (n >= 1024) {
    std::snprintf(buf, sizeof(buf), "%.1f KiB", n / 1024.0);
  } else {
    std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(n));
  }
  return buf;
}

std::string HumanSeconds(double seconds) {
  if (std::isnan(seconds)) return "?";
  if (seconds < 0) return "-" + HumanSeconds(-seconds);
  if (seconds == 0) return "0 s";
  if (seconds < 1e-3) return ThreeDigits(seconds * 1e6) + " \u00b5s";
  if (seconds < 0.9995) return ThreeDigits(seconds * 1e3) + " ms";
  if (seconds < 59.95) return ThreeDigits(seconds) + " s";
  char buf[64];
  const long long whole = std::llround(seconds);
  if (whole < 3600) {
    std::snprintf(buf, sizeof(buf), "%lld min %02lld s", whole / 60, whole % 60);
  } else {
    const long long minutes = (whole + 30) / 60;
    std::snprintf(buf, sizeof(buf), "%lld h %02lld min", minutes / 60, minutes % 60);
  }
  return buf;
}

std::string UtcTimeOfDay(int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  if (unix_ms < 0 || gmtime_r(&seconds, &tm) == nullptr) return "";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(unix_ms % 1000));
  return buf;
}

}  // namespace hbemu::server::admin
