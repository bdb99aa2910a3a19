#include "shell/cell_format.h"

#include <cstdio>
#include <cstring>
#include <ctime>
#include <set>

#include "shell/bytes_text.h"
#include "shell/shell.h"

namespace hbemu::shell {
namespace {

bool g_epoch = false;

// The Bytes methods that turn a byte[] into something printable (Bytes.respond_to? in Ruby).
const std::set<std::string>& BytesConverters() {
  static const std::set<std::string> kNames = {
      "toStringBinary", "toString", "toLong",  "toInt",     "toShort",
      "toDouble",       "toFloat",  "toBoolean", "toHex", "toBigDecimal"};
  return kNames;
}

uint64_t BigEndian(const std::string& bytes, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

void NeedBytes(const std::string& bytes, size_t n) {
  if (bytes.size() < n) {
    throw ShellError("offset (0) + length (" + std::to_string(n) +
                     ") exceed the capacity of the array: " + std::to_string(bytes.size()));
  }
}

// Java's Double.toString / Float.toString are close enough to %.17g trimmed for the values
// people store; exact shortest-repr printing is not attempted.
std::string JavaDouble(double d, int digits) {
  char buf[64];
  for (int p = 1; p <= digits; ++p) {
    std::snprintf(buf, sizeof(buf), "%.*g", p, d);
    if ((digits > 9 ? std::strtod(buf, nullptr) : std::strtof(buf, nullptr)) ==
        (digits > 9 ? d : static_cast<float>(d))) {
      break;
    }
  }
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

void SetTimestampFormatEpoch(bool epoch) { g_epoch = epoch; }
bool TimestampFormatEpoch() { return g_epoch; }

std::string TimestampText(int64_t millis) {
  if (g_epoch) return std::to_string(millis);
  int64_t secs = millis / 1000;
  int64_t ms = millis % 1000;
  if (ms < 0) {
    ms += 1000;
    --secs;
  }
  time_t t = static_cast<time_t>(secs);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min);
  std::string out = buf;
  if (tm.tm_sec != 0 || ms != 0) {
    std::snprintf(buf, sizeof(buf), ":%02d", tm.tm_sec);
    out += buf;
  }
  if (ms != 0) {
    std::snprintf(buf, sizeof(buf), ".%03d", static_cast<int>(ms));
    out += buf;
  }
  return out;
}

static std::string StripClass(const std::string& name) {
  // "c(org.apache.hadoop.hbase.util.Bytes).toLong" -> "toLong" (only Bytes is known here).
  if (name.rfind("c(", 0) == 0) {
    size_t close = name.find(").");
    if (close != std::string::npos) return name.substr(close + 2);
  }
  return name;
}

bool IsConverter(const std::string& name) {
  if (name.rfind("c(", 0) == 0 && name.find(").") != std::string::npos) return true;
  return BytesConverters().count(name) > 0;
}

std::string ConvertBytes(const std::string& bytes, const std::string& converter) {
  if (converter.rfind("c(", 0) == 0) {
    size_t close = converter.find(").");
    std::string cls = converter.substr(2, close - 2);
    if (cls != "org.apache.hadoop.hbase.util.Bytes") {
      throw ShellError("uninitialized constant " + cls.substr(0, cls.find('.')));
    }
  }
  std::string name = StripClass(converter);
  if (name.empty() || name == "toStringBinary") return ToStringBinary(bytes);
  if (name == "toString") return bytes;
  if (name == "toLong") {
    NeedBytes(bytes, 8);
    return std::to_string(static_cast<int64_t>(BigEndian(bytes, 8)));
  }
  if (name == "toInt") {
    NeedBytes(bytes, 4);
    return std::to_string(static_cast<int32_t>(BigEndian(bytes, 4)));
  }
  if (name == "toShort") {
    NeedBytes(bytes, 2);
    return std::to_string(static_cast<int16_t>(BigEndian(bytes, 2)));
  }
  if (name == "toBoolean") {
    if (bytes.size() != 1) throw ShellError("Array has wrong size: " + std::to_string(bytes.size()));
    return bytes[0] != 0 ? "true" : "false";
  }
  if (name == "toDouble") {
    NeedBytes(bytes, 8);
    uint64_t bits = BigEndian(bytes, 8);
    double d;
    std::memcpy(&d, &bits, 8);
    return JavaDouble(d, 17);
  }
  if (name == "toFloat") {
    NeedBytes(bytes, 4);
    uint32_t bits = static_cast<uint32_t>(BigEndian(bytes, 4));
    float f;
    std::memcpy(&f, &bits, 4);
    return JavaDouble(f, 9);
  }
  if (name == "toHex") {
    static const char kHex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
    return out;
  }
  throw ShellError("undefined method `" + name + "' for Java::OrgApacheHadoopHbaseUtil::Bytes:Class");
}

ColumnSpec ParseColumnSpec(const std::string& column) {
  ColumnSpec spec;
  size_t colon = column.find(':');
  if (colon == std::string::npos) {
    spec.family = column;
    return spec;
  }
  spec.family = column.substr(0, colon);
  spec.qualifier = column.substr(colon + 1);
  spec.has_qualifier = true;
  size_t last = spec.qualifier.rfind(':');
  if (last != std::string::npos && IsConverter(spec.qualifier.substr(last + 1))) {
    spec.converter = spec.qualifier.substr(last + 1);
    spec.qualifier.resize(last);
  }
  return spec;
}

std::string CellPrinter::Name(const std::string& bytes) const {
  return ConvertBytes(bytes, formatter);
}

std::string CellPrinter::Column(const std::string& family, const std::string& qualifier) const {
  return Name(family) + ":" + Name(qualifier);
}

std::string CellPrinter::Cell(const std::string& family, const std::string& qualifier, int64_t ts,
                              const std::string& value) const {
  auto it = converters.find(family + ":" + qualifier);
  std::string converter = it != converters.end() ? it->second : formatter;
  std::string text = "timestamp=" + TimestampText(ts) + ", value=" + ConvertBytes(value, converter);
  if (maxlength >= 0 && static_cast<int64_t>(text.size()) > maxlength) text.resize(maxlength);
  return text;
}

}  // namespace hbemu::shell
