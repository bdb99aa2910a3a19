#pragma once

#include <cstdint>
#include <string>

namespace hbemu::server::admin {

// Numbers as the console and /metrics print them.

// The shortest decimal text that reads back as exactly `v`, spelt as Go's
// strconv.FormatFloat(v, 'g', -1, 64), which the Prometheus client libraries use for sample
// values and bucket bounds: "5e-05", "0.0001", "2.5", "1e+06", "+Inf", "-Inf", "NaN".
std::string ShortestNumber(double v);

// For people (the HTML pages):
// "1,234,567".
std::string HumanCount(uint64_t n);
// "512 B", "1.5 KiB", "3.2 MiB", "1.1 GiB".
std::string HumanBytes(uint64_t n);
// A duration with three significant digits in the unit that fits: "85 µs", "1.23 ms",
// "358 ms", "4.56 s", "3 min 20 s", "2 h 05 min".
std::string HumanSeconds(double seconds);
// A millisecond wall-clock time as "06:41:02.123" (UTC).
std::string UtcTimeOfDay(int64_t unix_ms);

}  // namespace hbemu::server::admin
