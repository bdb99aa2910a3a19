#include "server/rest/query_numbers.h"

#include <limits>
#include <string>

namespace hbemu::server::rest {

bool ParseJavaNumber(std::string_view text, int64_t min, int64_t max, int64_t* out) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  if (i == text.size()) return false;
  // Accumulated as a negative number, so that INT64_MIN fits.
  int64_t value = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return false;
    const int digit = c - '0';
    if (value < (std::numeric_limits<int64_t>::min() + digit) / 10) return false;
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == std::numeric_limits<int64_t>::min()) return false;
    value = -value;
  }
  if (value < min || value > max) return false;
  *out = value;
  return true;
}

bool JavaNumberParam(const Route& route, std::string_view name, JavaType type, int64_t fallback,
                     int64_t* out) {
  const std::string* value = route.Param(name);
  if (value == nullptr || value->empty()) {
    *out = fallback;
    return true;
  }
  if (type == JavaType::kInt) {
    return ParseJavaNumber(*value, std::numeric_limits<int32_t>::min(),
                           std::numeric_limits<int32_t>::max(), out);
  }
  return ParseJavaNumber(*value, std::numeric_limits<int64_t>::min(),
                         std::numeric_limits<int64_t>::max(), out);
}

}  // namespace hbemu::server::rest
