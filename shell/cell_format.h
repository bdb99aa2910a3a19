#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace hbemu::shell {

// How HBase's shell (table.rb) prints a cell: its timestamp as a local date-time
// (java.time.LocalDateTime.toString) unless hbase.shell.timestamp.format.epoch is set, its value
// and names through a converter of org.apache.hadoop.hbase.util.Bytes (toStringBinary unless a
// FORMATTER or a per-column "f:q:toLong" says otherwise), cut to MAXLENGTH characters.

// Set once from -D hbase.shell.timestamp.format.epoch=true.
void SetTimestampFormatEpoch(bool epoch);
bool TimestampFormatEpoch();

// "1970-01-01T00:00:01.500": seconds and millis are left out when zero, as Java does.
std::string TimestampText(int64_t millis);

// True for the converter names HBase accepts after a column ("toLong", "c(Cls).toInt").
bool IsConverter(const std::string& name);

// Applies a Bytes converter ("toLong", "toString", ...). Throws ShellError with Java's text
// when the bytes do not fit (Bytes.toLong of 3 bytes).
std::string ConvertBytes(const std::string& bytes, const std::string& converter);

// A column argument "family[:qualifier[:converter]]".
struct ColumnSpec {
  std::string family;
  std::string qualifier;
  bool has_qualifier = false;
  std::string converter;  // empty: none
};
ColumnSpec ParseColumnSpec(const std::string& column);

// The printing options of one get/scan: FORMATTER, per-column converters, MAXLENGTH.
struct CellPrinter {
  std::string formatter;                          // empty: toStringBinary
  std::map<std::string, std::string> converters;  // "family:qualifier" (raw) -> converter
  int64_t maxlength = -1;

  std::string Name(const std::string& bytes) const;  // a row, family or qualifier
  std::string Column(const std::string& family, const std::string& qualifier) const;
  // "timestamp=..., value=..." cut to maxlength.
  std::string Cell(const std::string& family, const std::string& qualifier, int64_t ts,
                   const std::string& value) const;
};

}  // namespace hbemu::shell
