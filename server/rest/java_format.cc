#include "server/rest/java_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hbemu::server::rest {

std::string JavaDouble(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  // The shortest scientific form that reads back as d: digits and exponent.
  char buf[40];
  for (int precision = 0; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*e", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s(buf);
  const size_t e = s.find('e');
  std::string mantissa = s.substr(0, e);
  const int exponent = std::atoi(s.c_str() + e + 1);
  std::string sign;
  if (mantissa[0] == '-') {
    sign = "-";
    mantissa.erase(0, 1);
  }
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  const double magnitude = std::fabs(d);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    std::string out;
    if (exponent >= 0) {
      const size_t int_len = static_cast<size_t>(exponent) + 1;
      while (digits.size() < int_len) digits.push_back('0');
      out = digits.substr(0, int_len) + "." + (digits.size() > int_len ? digits.substr(int_len) : "0");
    } else {
      out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
    return sign + out;
  }
  return sign + digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" +
         std::to_string(exponent);
}

}  // namespace hbemu::server::rest
