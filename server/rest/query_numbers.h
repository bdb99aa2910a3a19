#pragma once

#include <cstdint>
#include <string_view>

#include "server/rest/router.h"

namespace hbemu::server::rest {

// HBase's resources take their numeric query parameters (limit, batchsize, maxversions,
// starttime, endtime; a scanner fetch's n and c) as Java int or long, converted by Jersey: an
// absent or empty value is the default, anything Java's Integer.valueOf / Long.valueOf refuses
// (letters, a space, a fraction, hex, a value past the type's range) makes the resource not match,
// and Jersey answers its 404 page (measured on HBase 2.6.1).

// `text` as Java's valueOf reads it: an optional sign and decimal digits, within [min, max].
bool ParseJavaNumber(std::string_view text, int64_t min, int64_t max, int64_t* out);

enum class JavaType { kInt, kLong };

// The query parameter `name` of `route` (its first value) as a Java number of `type`: `fallback`
// when absent or empty; false when Jersey would not convert it.
bool JavaNumberParam(const Route& route, std::string_view name, JavaType type, int64_t fallback,
                     int64_t* out);

}  // namespace hbemu::server::rest
